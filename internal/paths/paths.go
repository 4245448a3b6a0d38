// Package paths finds sayso's configuration and state folders and the
// project root of a working folder, and makes folders private (0700).
package paths

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sayso-dev/sayso/internal/program"
)

// fixed holds the folders a command line named (Fix): then the
// environment is never read for them.
var fixed struct{ state, config string }

// Fix names sayso's state and configuration folders for this process, as
// the hook command line that sayso install writes names them: a client's
// settings can set the hook's environment (an "env" block), so the hook
// must not find sayso's folders through SAYSO_*, XDG_* or HOME.
func Fix(state, config string) error {
	if !filepath.IsAbs(state) || !filepath.IsAbs(config) {
		return fmt.Errorf("sayso's folders must be absolute paths, not %q and %q", state, config)
	}
	fixed.state, fixed.config = filepath.Clean(state), filepath.Clean(config)
	return nil
}

// Fixed reports whether a command line named sayso's folders.
func Fixed() bool { return fixed.state != "" && fixed.config != "" }

// ConfigDir is the folder Fix named, else $SAYSO_CONFIG_DIR, else
// ~/.config/sayso (or $XDG_CONFIG_HOME/sayso).
func ConfigDir() (string, error) {
	if fixed.config != "" {
		return fixed.config, nil
	}
	if d := os.Getenv("SAYSO_CONFIG_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "sayso"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find config folder: %w", err)
	}
	return filepath.Join(home, ".config", "sayso"), nil
}

// SocketName is the name of sayso serve's socket for the hooks (and the
// wall's reports) in the state folder.
const SocketName = "sayso.sock"

// StateDir is the folder Fix named, else $SAYSO_STATE_DIR, else
// $XDG_STATE_HOME/sayso, else ~/.local/state/sayso.
func StateDir() (string, error) {
	if fixed.state != "" {
		return fixed.state, nil
	}
	if d := os.Getenv("SAYSO_STATE_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "sayso"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find state folder: %w", err)
	}
	return filepath.Join(home, ".local", "state", "sayso"), nil
}

// Private makes dir and its parents, and sets dir itself to 0700.
func Private(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("make %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("make %s private: %w", dir, err)
	}
	return nil
}

// ProjectRoot is the top of the git work tree holding dir, or dir itself
// when it is in none.
func ProjectRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Binaries are the programs sayso installs, by name: the registry's one
// list (program.Sayso). Protected finds them by path beside the running
// binary.
var Binaries = program.Sayso

// Protected lists the paths no agent step may touch: sayso's folders, its
// own binary and the programs installed beside it, each as named and
// resolved.
func Protected() []string {
	var out []string
	if d, err := ConfigDir(); err == nil {
		out = append(out, d)
	}
	if d, err := StateDir(); err == nil {
		out = append(out, d)
	}
	if exe, err := os.Executable(); err == nil {
		out = append(out, exe)
		dirs := []string{filepath.Dir(exe)}
		if real, err := filepath.EvalSymlinks(exe); err == nil && real != exe {
			out = append(out, real)
			dirs = append(dirs, filepath.Dir(real))
		}
		for _, dir := range dirs {
			for _, name := range Binaries {
				p := filepath.Join(dir, name)
				if _, err := os.Lstat(p); err != nil || p == exe {
					continue
				}
				out = append(out, p)
				if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
					out = append(out, real)
				}
			}
		}
	}
	return out
}
