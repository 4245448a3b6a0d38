package wall

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Each wall keeps folders of its own outside it: the upper layers of the
// shared caches its steps write, and the folder its terminal
// multiplexers keep their sockets in (a tmux server there runs what it
// is sent with its wall's reach). They lie in the temp folder, which
// every walled step writes, so each lies in one folder of the user's
// (wallsDir) that every wall covers with a read-only folder of its own
// holding its own folder alone (coverWalls): a step of another session,
// of another project or of a step's own wall cannot plant a cache entry
// in this one's layer or have its tmux run a command, and cannot move
// the folder, a mount point in its own wall.

// wallsPrefix begins the name of the folder that holds the walls' own
// folders.
const wallsPrefix = "sayso-walls-"

// wallsDir is the folder of the user's walls' own folders.
func wallsDir() string {
	return filepath.Join(os.TempDir(), wallsPrefix+strconv.Itoa(os.Getuid()))
}

// ownDir makes a wall's own folder, with its "tmux" and "caches"
// folders, in wallsDir.
func ownDir() (string, error) {
	walls := wallsDir()
	if err := os.Mkdir(walls, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("make the walls' folder: %w", err)
	}
	fi, err := os.Lstat(walls)
	if err != nil {
		return "", fmt.Errorf("make the walls' folder: %w", err)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || !fi.IsDir() || int(st.Uid) != os.Getuid() {
		return "", fmt.Errorf("%s is not a folder of this user's: remove it", walls)
	}
	own, err := os.MkdirTemp(walls, "")
	if err != nil {
		return "", fmt.Errorf("make the wall's own folder: %w", err)
	}
	for _, d := range []string{"tmux", "caches"} {
		if err := os.Mkdir(filepath.Join(own, d), 0o700); err != nil {
			os.RemoveAll(own)
			return "", fmt.Errorf("make the wall's own folder: %w", err)
		}
	}
	return own, nil
}

// coverWalls covers, in this mount namespace, the folder of the walls'
// own folders with a read-only folder holding only own's tmux folder
// and, when caches is set (a profile whose steps write the shared
// caches), its caches folder, each bound as it is: the steps here reach
// their own wall's folders and no other's, and a step that does not
// write the caches cannot write its session's layers either.
func coverWalls(own string, caches bool) error {
	walls := filepath.Dir(own)
	if !strings.HasPrefix(filepath.Base(walls), wallsPrefix) || filepath.Dir(walls) == walls {
		return fmt.Errorf("the wall's own folder %s does not lie in a walls' folder", own)
	}
	names := []string{"tmux"}
	if caches {
		names = append(names, "caches")
	}
	var trees []int
	defer func() { closeAll(trees) }()
	for _, n := range names {
		tree, err := unix.OpenTree(unix.AT_FDCWD, filepath.Join(own, n), unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("clone the wall's own folder %s: %w", own, err)
		}
		trees = append(trees, tree)
	}
	fsfd, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("open tmpfs: %w", err)
	}
	defer unix.Close(fsfd)
	if err := unix.FsconfigSetString(fsfd, "size", "16k"); err != nil {
		return fmt.Errorf("size tmpfs: %w", err)
	}
	if err := unix.FsconfigSetString(fsfd, "mode", "0700"); err != nil {
		return fmt.Errorf("configure tmpfs: %w", err)
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return fmt.Errorf("create tmpfs: %w", err)
	}
	cover, err := unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return fmt.Errorf("mount tmpfs: %w", err)
	}
	defer unix.Close(cover)
	base := filepath.Base(own)
	if err := unix.Mkdirat(cover, base, 0o700); err != nil {
		return fmt.Errorf("cover the walls' folder: %w", err)
	}
	for _, n := range names {
		if err := unix.Mkdirat(cover, base+"/"+n, 0o700); err != nil {
			return fmt.Errorf("cover the walls' folder: %w", err)
		}
	}
	if err := unix.MountSetattr(cover, "", unix.AT_EMPTY_PATH, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("cover the walls' folder: %w", err)
	}
	if err := unix.MoveMount(cover, "", unix.AT_FDCWD, walls, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("cover the walls' folder %s: %w", walls, err)
	}
	for i, n := range names {
		if err := unix.MoveMount(trees[i], "", unix.AT_FDCWD, filepath.Join(own, n), unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("bind the wall's own folder %s: %w", filepath.Join(own, n), err)
		}
	}
	return nil
}
