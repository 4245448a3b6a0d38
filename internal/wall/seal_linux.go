package wall

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// seal binds over each file of same ("SUM:PATH", Profile.Same) that was
// there when the step was decided a read-only copy of exactly what was
// decided, read once and summed in the step's own mount namespace: what
// the step runs is what the person approved, whatever a process outside
// it writes there after the launcher's check (the first stage checks
// before the wall is up, and a process an earlier step left running
// could swap the file in between). A file that changed fails the step.
// A file that was not there when decided is checked by the first stage
// alone: a missing file cannot be bound.
func seal(same []string) error {
	type copyOf struct{ name, path string }
	var copies []copyOf
	fs := -1
	defer func() {
		if fs >= 0 {
			unix.Close(fs)
		}
	}()
	for i, s := range same {
		sum, path, _ := strings.Cut(s, ":")
		if sum == "" {
			continue
		}
		real, err := realFile(path)
		if err != nil {
			return fmt.Errorf("%s was removed after the step was decided: %w", path, err)
		}
		f, err := os.Open(real)
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxSum {
			f.Close()
			return fmt.Errorf("%s changed after the step was decided", path)
		}
		b, err := io.ReadAll(io.LimitReader(f, maxSum+1))
		f.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != sum {
			return fmt.Errorf("%s changed after the step was decided", path)
		}
		if fs < 0 {
			if fs, err = sealFS(); err != nil {
				return err
			}
		}
		name := strconv.Itoa(i)
		fd, err := unix.Openat(fs, name, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_CLOEXEC, uint32(fi.Mode().Perm()))
		if err != nil {
			return fmt.Errorf("copy %s: %w", path, err)
		}
		cp := os.NewFile(uintptr(fd), name)
		_, err = cp.Write(b)
		if cerr := cp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("copy %s: %w", path, err)
		}
		copies = append(copies, copyOf{name, real})
	}
	if fs < 0 {
		return nil
	}
	if err := unix.MountSetattr(fs, "", unix.AT_EMPTY_PATH, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("make the decided copies read-only: %w", err)
	}
	for _, c := range copies {
		tree, err := unix.OpenTree(fs, c.name, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
		if err != nil {
			return fmt.Errorf("clone the decided copy of %s: %w", c.path, err)
		}
		err = unix.MoveMount(tree, "", unix.AT_FDCWD, c.path, unix.MOVE_MOUNT_F_EMPTY_PATH)
		unix.Close(tree)
		if err != nil {
			return fmt.Errorf("bind the decided copy over %s: %w", c.path, err)
		}
	}
	return nil
}

// realFile is path with its links followed, as it is now.
func realFile(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(real); err != nil {
		return "", err
	}
	return real, nil
}

// sealFS mounts a detached tmpfs for the decided copies; the caller
// makes it read-only once they are written.
func sealFS() (int, error) {
	return tmpfs("mode", "0755", unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV)
}

// tmpfs mounts a detached tmpfs with its option key set to value and the
// mount attributes attrs, and returns the mount's descriptor.
func tmpfs(key, value string, attrs int) (int, error) {
	fs, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("open tmpfs: %w", err)
	}
	defer unix.Close(fs)
	if err := unix.FsconfigSetString(fs, key, value); err != nil {
		return -1, fmt.Errorf("configure tmpfs (%s=%s): %w", key, value, err)
	}
	if err := unix.FsconfigCreate(fs); err != nil {
		return -1, fmt.Errorf("create tmpfs: %w", err)
	}
	mfd, err := unix.Fsmount(fs, unix.FSMOUNT_CLOEXEC, attrs)
	if err != nil {
		return -1, fmt.Errorf("mount tmpfs: %w", err)
	}
	return mfd, nil
}
