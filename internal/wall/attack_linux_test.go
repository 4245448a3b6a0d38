package wall

// Attacks on the wall that break it today. Each test states the attack,
// runs it through the launcher as a client would, and checks the outcome
// on the files themselves: a protected file changed, a hidden one read.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// attackEnv makes the test binary a small attack tool run inside a wall
// (see attackTool): the mount calls a walled step may make itself.
const attackEnv = "SAYSO_WALL_TEST_ATTACK"

func init() {
	if os.Getenv(attackEnv) == "1" {
		os.Exit(attackTool(os.Args[1:], os.Stdout))
	}
}

// attackTool runs one attack and exits 0 when it got through:
//
//	setattr MOUNT FILE   clear MOUNT_ATTR_RDONLY on the mount at MOUNT (and
//	                     below), then append to FILE
//	clone TREE REL r|w   clone the mount at TREE alone (open_tree, no
//	                     AT_RECURSIVE: no mount below it comes along), then
//	                     read or append to REL inside the clone
func attackTool(args []string, out io.Writer) int {
	appendTo := func(dir int, rel string) int {
		fd, err := unix.Openat(dir, rel, unix.O_WRONLY|unix.O_CREAT|unix.O_APPEND|unix.O_CLOEXEC, 0o755)
		if err != nil {
			fmt.Fprintf(out, "write %s: %v\n", rel, err)
			return 1
		}
		defer unix.Close(fd)
		if _, err := unix.Write(fd, []byte("#!/bin/sh\necho pwned\n")); err != nil {
			fmt.Fprintf(out, "write %s: %v\n", rel, err)
			return 1
		}
		fmt.Fprintf(out, "wrote %s\n", rel)
		return 0
	}
	switch {
	case len(args) == 3 && args[0] == "setattr":
		attr := &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}
		if err := unix.MountSetattr(unix.AT_FDCWD, args[1], unix.AT_RECURSIVE, attr); err != nil {
			fmt.Fprintf(out, "mount_setattr %s: %v\n", args[1], err)
			return 1
		}
		return appendTo(unix.AT_FDCWD, args[2])
	case len(args) == 4 && args[0] == "clone":
		tree, err := unix.OpenTree(unix.AT_FDCWD, args[1], unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
		if err != nil {
			fmt.Fprintf(out, "open_tree %s: %v\n", args[1], err)
			return 1
		}
		defer unix.Close(tree)
		if args[3] == "w" {
			return appendTo(tree, args[2])
		}
		fd, err := unix.Openat(tree, args[2], unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			fmt.Fprintf(out, "read %s: %v\n", args[2], err)
			return 1
		}
		f := os.NewFile(uintptr(fd), args[2])
		defer f.Close()
		b, _ := io.ReadAll(f)
		fmt.Fprintf(out, "read %s: %s\n", args[2], b)
		return 0
	}
	fmt.Fprintln(out, "unknown attack", args)
	return 2
}

// attack is the shell words that run the attack tool inside a wall.
func attack(t *testing.T, args ...string) string {
	t.Helper()
	words := []string{attackEnv + "=1", quote(launcher(t))}
	for _, a := range args {
		words = append(words, quote(a))
	}
	return strings.Join(words, " ")
}

// wantMissing fails the test when path exists.
func wantMissing(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); err == nil {
		t.Errorf("%s exists: the step wrote it", path)
	}
}

// wantContent fails the test when path does not hold want.
func wantContent(t *testing.T, path, want string) {
	t.Helper()
	if b, err := os.ReadFile(path); err != nil || string(b) != want {
		t.Errorf("%s = %q, %v; want %q", path, b, err, want)
	}
}

// TestAttackRootMountSetattr: root in the wall keeps CAP_SYS_ADMIN in the
// wall's user namespace (dropCaps leaves root's capabilities), and
// Landlock has no hook on mount_setattr(2). So a root step clears
// MOUNT_ATTR_RDONLY on any of the wall's read-only binds — they were made
// in its own namespace, so none is locked — and writes what they keep:
//
//	mount_setattr(AT_FDCWD, "<root>/.git/hooks", AT_RECURSIVE, {attr_clr: MOUNT_ATTR_RDONLY})
//	echo … > .git/hooks/pre-commit
func TestAttackRootMountSetattr(t *testing.T) {
	need(t)
	w := newWorld(t)
	for _, target := range []struct{ mount, file string }{
		{w.root + "/.git/hooks", w.root + "/.git/hooks/pre-commit"},
		{w.root + "/.claude", w.root + "/.claude/settings.local.json"},
		{w.home + "/.claude", w.home + "/.claude/settings.json"},
	} {
		r := w.run(t, w.profile(Local), w.root, attack(t, "setattr", target.mount, target.file))
		if r.code == 0 {
			t.Errorf("root step cleared the read-only bind of %s and wrote %s: %s", target.mount, target.file, r.stdout)
		}
	}
	wantMissing(t, w.root+"/.git/hooks/pre-commit")
	wantMissing(t, w.root+"/.claude/settings.local.json")
	wantContent(t, w.home+"/.claude/settings.json", "{}")
}

// TestAttackRootOpenTree: root in the wall keeps CAP_SYS_ADMIN in the
// wall's user namespace, and Landlock has no hook on open_tree(2). A
// clone of a mount without AT_RECURSIVE carries none of the mounts below
// it: not the read-only binds, not the covers. Cloned at a tree the scope
// writes (the project, /tmp), the Landlock rule on that tree still
// grants what lies below it, through the clone:
//
//	t = open_tree(AT_FDCWD, "<root>", OPEN_TREE_CLONE)
//	openat(t, ".git/hooks/pre-commit", O_WRONLY|O_CREAT)
//	t = open_tree(AT_FDCWD, "/tmp", OPEN_TREE_CLONE)
//	openat(t, "<home under /tmp>/.bashrc", O_RDONLY)
func TestAttackRootOpenTree(t *testing.T) {
	need(t)
	temp := places(t)["temp"]
	w := newWorldIn(t, temp)
	rel, err := filepath.Rel(temp, w.home+"/.bashrc")
	if err != nil {
		t.Fatal(err)
	}
	p := w.profile(Local)
	if r := w.run(t, p, w.root, attack(t, "clone", w.root, ".git/hooks/pre-commit", "w")); r.code == 0 {
		t.Errorf("root step wrote the hooks through a clone of the project: %s", r.stdout)
	}
	if r := w.run(t, p, w.root, attack(t, "clone", w.root, ".claude/settings.local.json", "w")); r.code == 0 {
		t.Errorf("root step wrote .claude through a clone of the project: %s", r.stdout)
	}
	if r := w.run(t, p, w.root, attack(t, "clone", temp, rel, "r")); strings.Contains(r.stdout, "secret") {
		t.Errorf("root step read a hidden file through a clone of %s: %s", temp, r.stdout)
	}
	wantMissing(t, w.root+"/.git/hooks/pre-commit")
	wantMissing(t, w.root+"/.claude/settings.local.json")
}

// TestAttackInheritedDescriptor: the launcher hands the wall every
// descriptor its caller left open without close-on-exec, not only stdin,
// stdout, stderr and the report pipe (syscall.ForkExec closes nothing).
// A descriptor of a folder opened outside the wall names the caller's
// view of the files: through /proc/self/fd/N no cover and no read-only
// bind is in the way, and Landlock grants what the scope grants:
//
//	exec 7<"$HOME"; sayso-wall … -- 'cat /proc/self/fd/7/.bashrc; echo … > /proc/self/fd/7/proj/.git/hooks/pre-commit'
func TestAttackInheritedDescriptor(t *testing.T) {
	need(t)
	w := newWorld(t)
	cmd := `cat /proc/self/fd/7/.bashrc; cat /proc/self/fd/7/.local/state/sayso/sayso.db; echo x > /proc/self/fd/7/proj/.git/hooks/pre-commit`
	line := "exec 7<" + quote(w.home) + "; " + w.profile(Local).Wrap(cmd, launcher(t))
	r := client(t, w.root, line, "", "HOME="+w.home)
	if strings.Contains(r.stdout, "secret") || strings.Contains(r.stdout, "ledger") {
		t.Errorf("a hidden file was read through an inherited descriptor: %q", r.stdout)
	}
	wantMissing(t, w.root+"/.git/hooks/pre-commit")
}

// TestAttackHomeIsTemp: a home that is a temp folder itself (HOME=/tmp,
// as some containers and CI images set it) is not kept (For keeps only a
// home strictly under a tree the scope writes), so a local step writes
// the home: creates ~/.npmrc, ~/.bashrc when missing, ~/.config/…, which
// programs outside the wall read later:
//
//	HOME=/tmp sayso-wall --scope local … -- 'echo script-shell=… > ~/.npmrc'
func TestAttackHomeIsTemp(t *testing.T) {
	need(t)
	temp := places(t)["temp"]
	w := newWorld(t)
	name := filepath.Join(temp, ".sayso-attack-npmrc-"+strconv.Itoa(os.Getpid()))
	t.Cleanup(func() { os.Remove(name) })
	p := For(Inputs{Home: temp, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Local})
	r := client(t, w.root, p.Wrap(`echo script-shell=/tmp/x > `+quote(name), launcher(t)), "", "HOME="+temp)
	if r.code == 0 {
		t.Errorf("a local step wrote %s in a home that is %s", name, temp)
	}
	wantMissing(t, name)
}

// TestAttackHomeViaLink: For decides whether the home lies under a tree
// the scope writes on the path as given, before links are followed; the
// mounts and Landlock follow them. A home named through a link (HOME=~/h,
// or /home a link, to a folder under /tmp) is not kept, while Landlock
// grants the whole of it through /tmp's rule: a local step writes the
// home.
//
//	HOME=/home/person/h (-> /tmp/…/home) sayso-wall --scope local … -- 'echo … > ~/new'
func TestAttackHomeViaLink(t *testing.T) {
	need(t)
	w := newWorldIn(t, places(t)["temp"])
	real, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(real, ".sayso-attack-home-"+strconv.Itoa(os.Getpid()))
	if err := os.Symlink(w.home, link); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(link) })
	p := For(Inputs{Home: link, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Local})
	for _, cmd := range []string{`echo x > ~/new`, `echo x > ` + quote(w.outside+"/new")} {
		r := client(t, w.root, p.Wrap(cmd, launcher(t)), "", "HOME="+link)
		if r.code == 0 {
			t.Errorf("%q: a local step wrote the home named through a link", cmd)
		}
	}
	wantMissing(t, w.home+"/new")
	wantMissing(t, w.outside+"/new")
}

// TestAttackChmodOutside: Landlock does not restrict chmod, chown,
// utimes or extended attributes, and a home that is not under a tree the
// scope writes is not bound read-only (only Kept homes are). So a local
// step changes the mode and times of every file and folder the person
// owns outside its scope — `chmod 777 ~ ~/.ssh`, `chmod -x ~/.local/bin/*`,
// `touch -d` to fool make:
//
//	sayso-wall --scope local … -- 'chmod 777 ~/outside; touch -d 2000-01-01 ~/outside/keep'
func TestAttackChmodOutside(t *testing.T) {
	need(t)
	w := newWorld(t)
	before, err := os.Stat(w.outside + "/keep")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{`chmod 777 ` + quote(w.outside), `touch -d 2000-01-01 ` + quote(w.outside+"/keep"), `chmod 777 ` + quote(w.home+"/.ssh")} {
		if r := w.run(t, w.profile(Local), w.root, cmd); r.code == 0 {
			t.Errorf("%q: a local step changed a file outside its scope", cmd)
		}
	}
	if fi, err := os.Stat(w.outside); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("%s: mode %v, %v; want 0755", w.outside, fi.Mode().Perm(), err)
	}
	if fi, err := os.Stat(w.outside + "/keep"); err != nil || !fi.ModTime().Equal(before.ModTime()) {
		t.Errorf("%s: modified %v, %v; want %v", w.outside+"/keep", fi.ModTime(), err, before.ModTime())
	}
}

// TestAttackMakeThroughLink: the launcher's first stage, outside the
// wall, makes the folders the profile names when missing — among them the
// hooks folder core.hooksPath names inside the project — following every
// link on the way. A local step in a project without a repository makes
// one whose core.hooksPath runs through a link it planted out of the
// project; the next step's launcher makes that folder wherever the link
// leads (here ~/.local/bin, which ~/.profile puts on PATH):
//
//	step 1: mkdir .git; printf '[core]\n\thooksPath = lnk/.local/bin\n' > .git/config; ln -s ~ lnk
//	step 2: anything (the launcher runs mkdir ~/.local/bin outside the wall)
func TestAttackMakeThroughLink(t *testing.T) {
	need(t)
	w := newWorld(t)
	if err := os.RemoveAll(w.root + "/.git"); err != nil {
		t.Fatal(err)
	}
	plant := `mkdir .git && printf '[core]\n\thooksPath = lnk/.local/bin\n' > .git/config && ln -s ` + quote(w.home) + ` lnk`
	if r := w.run(t, w.profile(Local), w.root, plant); r.code != 0 {
		t.Fatalf("plant: %+v", r)
	}
	// The hook makes the next step's profile from what is there now.
	w.run(t, w.profile(Local), w.root, `true`)
	wantMissing(t, w.home+"/.local/bin")
}
