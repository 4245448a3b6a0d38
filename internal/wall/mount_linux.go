package wall

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// A mount the second stage makes, in the order plan gives.
type mount struct {
	path string
	kind mountKind
}

type mountKind int

const (
	pin      mountKind = iota // bound over itself: cannot be moved or removed
	readOnly                  // bound over itself read-only
	hideDir                   // covered by an empty read-only folder
	hideFile                  // covered by a socket inode: opening it fails for anyone
	keep                      // bound over itself read-only, with the writable trees inside it bound again
)

// mountAll makes the profile's mounts in this process's own mount
// namespace: every existing hidden path covered, every existing
// read-only path bound read-only, and every folder above one of them
// that a step could rename (its parent is writable) bound over itself,
// so that no step can move a protected path out of the way and put its
// own in its place.
func mountAll(p Profile) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	ms := plan(p)
	var writable []string
	for _, w := range p.Write {
		if real, _, ok := resolve(w); ok {
			writable = append(writable, real)
		}
	}
	var void int = -1
	for _, m := range ms {
		if m.kind == hideDir || m.kind == hideFile {
			fd, err := makeVoid()
			if err != nil {
				return err
			}
			void = fd
			defer unix.Close(fd)
			break
		}
	}
	for _, m := range ms {
		if m.kind == keep {
			if err := keepTree(m.path, writable); err != nil {
				return err
			}
			continue
		}
		if err := m.apply(void); err != nil {
			return err
		}
	}
	if p.Upper != "" {
		if err := coverWalls(filepath.Dir(p.Upper), len(p.Overlay) > 0); err != nil {
			return err
		}
	}
	if err := overlays(p); err != nil {
		return err
	}
	if err := overCaches(ms, p.Overlay, void); err != nil {
		return err
	}
	if err := seal(p.Same); err != nil {
		return err
	}
	return ownTerminals()
}

// overlays mounts each of the profile's shared caches as an overlay: the
// person's cache below, read-only, and an upper layer of the wall's own
// above, where the step's writes land. A cache folder whose name the
// overlay options cannot carry stays as it is, read-only.
func overlays(p Profile) error {
	if len(p.Overlay) == 0 {
		return nil
	}
	if p.Upper == "" {
		return errors.New("the shared caches need a layer of the wall's own (--upper): none was given")
	}
	for i, c := range p.Overlay {
		real, fi, ok := resolve(c)
		if !ok || !fi.IsDir() {
			continue
		}
		if strings.ContainsAny(real, ",:\\") {
			if err := (mount{real, readOnly}).apply(-1); err != nil {
				return err
			}
			continue
		}
		upper := filepath.Join(p.Upper, strconv.Itoa(i), "upper")
		work := filepath.Join(p.Upper, strconv.Itoa(i), "work")
		for _, d := range []string{upper, work} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				return fmt.Errorf("make the wall's layer for %s: %w", c, err)
			}
		}
		opts := "lowerdir=" + real + ",upperdir=" + upper + ",workdir=" + work + ",userxattr"
		if err := unix.Mount("overlay", real, "overlay", 0, opts); err != nil {
			return fmt.Errorf("mount the wall's layer over %s: %w", c, err)
		}
	}
	return nil
}

// overCaches makes again, on top of the wall's layer, the mounts of ms
// that hide a path inside one of the shared caches (a token in ~/.cache,
// git's credential-cache socket): an overlay shows the cache as it is
// below every mount made inside it before. (What is read-only there,
// npx's packages, is written in the wall's layer alone.)
func overCaches(ms []mount, caches []string, void int) error {
	var layered []string
	for _, c := range caches {
		if real, fi, ok := resolve(c); ok && fi.IsDir() {
			layered = append(layered, real)
		}
	}
	for _, m := range ms {
		if m.kind != hideDir && m.kind != hideFile {
			continue
		}
		if !slices.ContainsFunc(layered, func(c string) bool { return strings.HasPrefix(m.path, c+"/") }) {
			continue
		}
		if err := m.apply(void); err != nil {
			return err
		}
	}
	return nil
}

// ownTerminals puts a new instance of the terminals' file system on
// /dev/pts, and its ptmx on /dev/ptmx: a walled step can make terminals of
// its own, but cannot open the client's by its path (/dev/pts/N, what
// ttyname finds: less reads its keys there), and the rights the wall
// grants /dev/pts are the new instance's only, so the client's terminal
// is not reached through /proc/self/fd either. What the agent types into
// the client's terminal after the decision is never read as commands.
func ownTerminals() error {
	if fi, err := os.Stat("/dev/pts"); err != nil || !fi.IsDir() {
		return nil // no terminals to reach
	}
	if err := unix.Mount("devpts", "/dev/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return fmt.Errorf("mount a terminal file system of the wall's own on /dev/pts: %w", err)
	}
	if _, err := os.Lstat("/dev/ptmx"); err == nil {
		if err := unix.Mount("/dev/pts/ptmx", "/dev/ptmx", "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind the wall's own /dev/pts/ptmx on /dev/ptmx: %w", err)
		}
	}
	return nil
}

// plan lists the mounts for the paths that exist now, outermost first.
func plan(p Profile) []mount {
	var ms []mount
	var protected []string
	for _, h := range p.Hidden {
		real, fi, ok := resolve(h)
		if !ok {
			continue
		}
		k := hideFile
		if fi.IsDir() {
			k = hideDir
		}
		ms = append(ms, mount{real, k})
		protected = append(protected, real)
	}
	for _, r := range p.ReadOnly {
		real, _, ok := resolve(r)
		if !ok {
			continue
		}
		ms = append(ms, mount{real, readOnly})
		protected = append(protected, real)
	}
	for _, k := range p.Kept {
		real, fi, ok := resolve(k)
		if !ok || !fi.IsDir() {
			continue
		}
		ms = append(ms, mount{real, keep})
		protected = append(protected, real)
	}
	var writable []string
	for _, w := range p.Write {
		if real, _, ok := resolve(w); ok {
			writable = append(writable, real)
		}
	}
	pinned := map[string]bool{}
	for _, x := range protected {
		for a := filepath.Dir(x); a != "/"; a = filepath.Dir(a) {
			if !pinned[a] && under(filepath.Dir(a), writable) {
				pinned[a] = true
				ms = append(ms, mount{a, pin})
			}
		}
	}
	// What lies in a hidden folder is gone with it: no mount there.
	var covered []string
	for _, m := range ms {
		if m.kind == hideDir {
			covered = append(covered, m.path)
		}
	}
	ms = slices.DeleteFunc(ms, func(m mount) bool {
		for _, c := range covered {
			if strings.HasPrefix(m.path, c+"/") {
				return true
			}
		}
		return false
	})
	slices.SortStableFunc(ms, func(a, b mount) int {
		if d := depth(a.path) - depth(b.path); d != 0 {
			return d
		}
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return int(a.kind) - int(b.kind)
	})
	return slices.CompactFunc(ms, func(a, b mount) bool { return a.path == b.path && a.kind == b.kind })
}

// resolve is path with its links followed, when it exists. Most of a
// profile's paths do not exist: one stat tells, before the links are
// followed one by one. The mounts and the Landlock rules ask about the
// same paths, before any mount changes them: the answers are kept.
func resolve(path string) (string, os.FileInfo, bool) {
	if r, ok := resolved[path]; ok {
		return r.real, r.fi, r.fi != nil
	}
	var r resolution
	if fi, err := os.Stat(path); err == nil {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			r = resolution{real, fi}
		}
	}
	resolved[path] = r
	return r.real, r.fi, r.fi != nil
}

type resolution struct {
	real string
	fi   os.FileInfo
}

var resolved = map[string]resolution{}

func depth(p string) int { return strings.Count(p, "/") }

// makeVoid mounts a detached read-only tmpfs holding an empty folder "d",
// an empty file "f" and a socket inode "s" no process listens on, all
// mode 0, and returns its descriptor. A hidden file is covered by the
// socket inode: opening it fails for every user, root included (ENXIO),
// where root would read an empty file of mode 0.
func makeVoid() (int, error) {
	mfd, err := tmpfs("size", "16k", unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return -1, err
	}
	if err := unix.Mkdirat(mfd, "d", 0); err != nil {
		unix.Close(mfd)
		return -1, fmt.Errorf("make empty folder: %w", err)
	}
	f, err := unix.Openat(mfd, "f", unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(mfd)
		return -1, fmt.Errorf("make empty file: %w", err)
	}
	unix.Close(f)
	if err := unix.Mknodat(mfd, "s", unix.S_IFSOCK, 0); err != nil {
		unix.Close(mfd)
		return -1, fmt.Errorf("make socket inode: %w", err)
	}
	if err := unix.Fchmodat(mfd, ".", 0o555, 0); err != nil {
		unix.Close(mfd)
		return -1, fmt.Errorf("chmod tmpfs: %w", err)
	}
	if err := unix.MountSetattr(mfd, "", unix.AT_EMPTY_PATH, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		unix.Close(mfd)
		return -1, fmt.Errorf("make tmpfs read-only: %w", err)
	}
	return mfd, nil
}

func (m mount) apply(void int) error {
	var tree int
	var err error
	switch m.kind {
	case hideDir:
		tree, err = unix.OpenTree(void, "d", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
	case hideFile:
		tree, err = unix.OpenTree(void, "s", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
	default:
		tree, err = unix.OpenTree(unix.AT_FDCWD, m.path, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	}
	if err != nil {
		return fmt.Errorf("clone mount for %s: %w", m.path, err)
	}
	defer unix.Close(tree)
	if m.kind == readOnly {
		attr := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
		if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, attr); err != nil {
			return fmt.Errorf("make %s read-only: %w", m.path, err)
		}
	}
	if err := unix.MoveMount(tree, "", unix.AT_FDCWD, m.path, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("mount over %s: %w", m.path, err)
	}
	return nil
}

// keepTree binds the tree at path read-only over itself, then binds each
// writable tree inside it over itself again as it was: a home, or a
// project a Read step only reads, that lies under a tree the scope
// writes (a home under /tmp) stays as the scope says, since Landlock
// cannot take a right away below a tree that has it.
func keepTree(path string, writable []string) error {
	type inner struct {
		path string
		tree int
	}
	var ins []inner
	defer func() {
		for _, in := range ins {
			unix.Close(in.tree)
		}
	}()
	for _, w := range writable {
		if !strings.HasPrefix(w, path+"/") {
			continue
		}
		t, err := unix.OpenTree(unix.AT_FDCWD, w, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("clone mount for %s: %w", w, err)
		}
		ins = append(ins, inner{w, t})
	}
	if err := (mount{path, readOnly}).apply(-1); err != nil {
		return err
	}
	// Outermost first: a tree inside another lands on top of it.
	slices.SortStableFunc(ins, func(a, b inner) int { return depth(a.path) - depth(b.path) })
	for _, in := range ins {
		if err := unix.MoveMount(in.tree, "", unix.AT_FDCWD, in.path, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("mount %s writable again inside %s: %w", in.path, path, err)
		}
	}
	return nil
}
