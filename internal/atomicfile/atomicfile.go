// Package atomicfile replaces a file whole: a reader sees the old bytes or
// the new ones, never a part. It is the one way sayso writes its own files
// (the gateway's announcement, the node's team state, pins, backups, the
// launcher's record), so a crash or a second writer never leaves half a
// file behind. It imports the standard library alone: the launcher uses it.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile replaces path with b and the given mode: a temporary file in
// the same folder, synced, then renamed over path. On any error path is
// left as it was and the temporary file is removed.
func WriteFile(path string, b []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".sayso-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
