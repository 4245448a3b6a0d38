package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"

	"github.com/sayso-dev/sayso/internal/client"
)

// Forwarders checks, on each connection to the hooks' socket, that the
// process at the other end runs one of sayso's own binaries: one sayso
// install pinned (the forwarder sayso-hook, or sayso) or the binary this
// gateway runs. The kernel names the process (SO_PEERCRED); its binary is
// read through /proc/PID/exe and hashed, and the hash is kept per file
// (device, inode, size, modification and change times: the change time
// no user can set back), so a connection costs a stat, not a hash. Anything it cannot read is a mismatch: fail closed.
//
// Where the kernel hands over a pidfd of the peer (SO_PEERPIDFD, Linux
// 6.5), a pid reused between the connection and the check is refused.
//
// It proves which program speaks, not who started it: the pinned
// forwarder run by hand with forged input passes. What keeps a walled
// step off the socket is the wall, which hides the state folder; this
// check keeps out every other program that reaches it.
type Forwarders struct {
	Pins client.PinStore // nil: only the gateway's own binary

	once sync.Once
	self string // the SHA-256 of the gateway's own binary
	serr error

	mu   sync.Mutex
	sums map[fileKey]string
}

type fileKey struct {
	dev, ino uint64
	size     int64
	mtime    int64
	ctime    int64
}

// Check returns nil when the process pid runs a binary sayso pinned or
// the gateway's own. With a pidfd of the process that connected (-1 for
// none), the process must still run once its binary was read: its pid
// then names no other process.
func (f *Forwarders) Check(pid, pidfd int) error {
	if err := f.check(pid); err != nil {
		return err
	}
	if pidfd > 0 && !alive(pidfd) {
		return fmt.Errorf("process %d left before its binary was checked", pid)
	}
	return nil
}

func (f *Forwarders) check(pid int) error {
	if pid <= 0 {
		return errors.New("the kernel names no process at the other end")
	}
	f.once.Do(func() { f.self, f.serr = f.sum("/proc/self/exe") })
	if f.serr != nil {
		return fmt.Errorf("cannot hash sayso's own binary: %w", f.serr)
	}
	exe := "/proc/" + strconv.Itoa(pid) + "/exe"
	got, err := f.sum(exe)
	if err != nil {
		return fmt.Errorf("cannot read the binary of process %d: %w", pid, err)
	}
	if got == f.self {
		return nil
	}
	if f.Pins != nil {
		pins, err := f.Pins.Load()
		if err != nil {
			return fmt.Errorf("cannot read the pins: %w", err)
		}
		for _, p := range pins {
			if p.Kind == client.PinBinary && p.SHA256 == got {
				return nil
			}
		}
	}
	path, _ := os.Readlink(exe)
	return fmt.Errorf("process %d runs %s (sha256 %.16s…), not a binary sayso installed", pid, path, got)
}

// sum hashes the file path opens, through the cache.
func (f *Forwarders) sum(path string) (string, error) {
	file, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return "", err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	key := fileKey{uint64(st.Dev), st.Ino, st.Size, st.Mtim.Nano(), st.Ctim.Nano()}
	f.mu.Lock()
	s, ok := f.sums[key]
	f.mu.Unlock()
	if ok {
		return s, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, file); err != nil {
		return "", err
	}
	s = hex.EncodeToString(h.Sum(nil))
	f.mu.Lock()
	if f.sums == nil {
		f.sums = map[fileKey]string{}
	}
	f.sums[key] = s
	f.mu.Unlock()
	return s, nil
}
