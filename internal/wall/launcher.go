package wall

import (
	"fmt"
	"os"
	"path/filepath"
)

// LauncherName is the launcher's file name: it is installed next to
// sayso's own binary.
const LauncherName = "sayso-wall"

// Launcher is the absolute path of the launcher next to the running
// binary, links followed. It is never looked up on PATH: a folder on
// PATH may be one a step can write. The file must be a regular file,
// executable, and writable by its owner alone.
func Launcher() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find own binary: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return "", fmt.Errorf("find own binary: %w", err)
	}
	path := filepath.Join(filepath.Dir(exe), LauncherName)
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("find the launcher: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return "", fmt.Errorf("launcher %s is not an executable file", path)
	}
	if fi.Mode()&0o022 != 0 {
		return "", fmt.Errorf("launcher %s is writable by others (mode %v)", path, fi.Mode().Perm())
	}
	return path, nil
}
