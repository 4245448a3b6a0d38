package wall

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// minABI is the oldest Landlock ABI the wall uses: 6 scopes signals and
// abstract unix sockets to the wall.
const minABI = 6

const (
	// handled are the file rights the wall restricts: every one of ABI 5
	// and 6. Connecting to a pathname socket (ABI 9) is left to the mounts
	// that hide sayso's, so that the ssh agent and the like keep working.
	handled = landlock.AccessFSSet(1<<16 - 1)

	readFile = landlock.AccessFSSet(ll.AccessFSReadFile | ll.AccessFSExecute)
	readDir  = landlock.AccessFSSet(ll.AccessFSReadDir)

	writeFile = landlock.AccessFSSet(ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev)
	writeDir  = writeFile | landlock.AccessFSSet(ll.AccessFSRemoveDir|ll.AccessFSRemoveFile|
		ll.AccessFSMakeChar|ll.AccessFSMakeDir|ll.AccessFSMakeReg|ll.AccessFSMakeSock|
		ll.AccessFSMakeFifo|ll.AccessFSMakeBlock|ll.AccessFSMakeSym|ll.AccessFSRefer)

	scoped = landlock.ScopedSet(ll.ScopeAbstractUnixSocket | ll.ScopeSignal)
)

// restrict enforces the profile's Landlock domain on this thread, with
// no_new_privs: from here on, whatever this thread runs can write only
// under the profile's Write trees, read no hidden file, and neither
// signal nor reach an abstract socket of a process outside the wall.
func restrict(p Profile) error {
	if v, err := ll.LandlockGetABIVersion(); err != nil || v < minABI {
		return fmt.Errorf("landlock ABI %d, need %d: %v", v, minABI, err)
	}
	rules, err := rulesFor(p)
	if err != nil {
		return err
	}
	cfg := landlock.Config{HandledAccessFS: handled, Scoped: scoped}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("make landlock ruleset: %w", err)
	}
	if fd < 0 {
		return fmt.Errorf("make landlock ruleset: nothing to enforce")
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("enforce landlock: %w", err)
	}
	return nil
}

// rulesFor is the profile's Landlock rules: folders listable everywhere,
// files readable everywhere but the hidden ones, writes in Write.
func rulesFor(p Profile) ([]landlock.Rule, error) {
	rules := []landlock.Rule{landlock.PathAccess(readDir, "/")}

	// A hidden file's cover is an empty file of mode 0: reading it fails
	// for anyone but root, who reads it empty. For root the file's name
	// is carved out of the read rights too, so that the read fails.
	var hidden []string
	for _, h := range p.Hidden {
		if real, fi, ok := resolve(h); ok && !fi.IsDir() && os.Geteuid() == 0 {
			hidden = append(hidden, real)
		}
	}
	var readable []string
	if err := carve("/", hidden, &readable); err != nil {
		return nil, err
	}
	// An entry that went away since the listing needs no rule.
	rules = append(rules, landlock.PathAccess(readFile, readable...).IgnoreIfMissing())

	var dirs, files []string
	for _, w := range p.Write {
		real, fi, ok := resolve(w)
		if !ok {
			continue
		}
		if fi.IsDir() {
			dirs = append(dirs, real)
		} else {
			files = append(files, real)
		}
	}
	if len(dirs) > 0 {
		rules = append(rules, landlock.PathAccess(writeDir|readFile, dirs...))
	}
	if len(files) > 0 {
		rules = append(rules, landlock.PathAccess(writeFile|readFile, files...))
	}
	return rules, nil
}

// maxCarve is the most entries of one folder carve lists: one rule each.
const maxCarve = 256

// carve appends to out the paths that together hold everything below
// dir except the excluded paths: dir itself when no excluded path is
// below it, else each of its entries, carved in turn. Links are left
// out: reaching through one needs no right on the link itself.
func carve(dir string, exclude []string, out *[]string) error {
	below := false
	for _, x := range exclude {
		if x == dir {
			return nil
		}
		if dir == "/" || strings.HasPrefix(x, dir+"/") {
			below = true
		}
	}
	if !below {
		*out = append(*out, dir)
		return nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	ents, err := f.ReadDir(maxCarve + 1)
	f.Close()
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	if len(ents) > maxCarve {
		// Too many rules to carve one name out: the hidden file's empty
		// cover alone keeps its content from a read here.
		*out = append(*out, dir)
		return nil
	}
	for _, e := range ents {
		if e.Type()&os.ModeSymlink != 0 {
			continue
		}
		if err := carve(filepath.Join(dir, e.Name()), exclude, out); err != nil {
			return err
		}
	}
	return nil
}
