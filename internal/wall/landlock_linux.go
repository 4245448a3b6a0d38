package wall

import (
	"fmt"

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

	// Everything is readable but what the mounts hide: a hidden file's
	// cover is a socket inode, which no one opens (root included).
	rules = append(rules, landlock.PathAccess(readFile, "/"))

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
