package client

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"
)

// CachedPins is a FilePins for a process that reads the pins on every
// step (sayso serve checks them for the process on its socket, for the
// person's evidence and before each decision): the file is read and
// parsed again only when it changed. It is known by its device, inode,
// size, modification and change times — the change time no user can set
// back — so pins written by any means, sayso install's atomic
// replacement or an edit in place, are read at the next step.
type CachedPins struct {
	FilePins

	mu   sync.Mutex
	seen bool
	key  fileKey
	pins []Pin
	// clean holds, per agent, the versions of the files a check that
	// found nothing wrong read (CheckPins).
	clean map[string]string
}

// fileKey tells one version of a file from another.
type fileKey struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

// keyOf is the version of the file fi describes. ok is false when the
// system does not say, or when the file changed too recently to be told
// from its next version: the kernel stamps changes from a clock that
// may tick only every few milliseconds, so two writes close together can
// leave the same times (git calls such an entry racily clean). Nothing is
// remembered of a file that is not settled.
func keyOf(fi os.FileInfo) (fileKey, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	k := fileKey{uint64(st.Dev), st.Ino, st.Size, st.Mtim.Nano(), st.Ctim.Nano()}
	return k, time.Since(time.Unix(0, k.ctime)) >= settle
}

// settle is how long after its last change a file's times tell its
// version.
var settle = time.Second

// Load implements PinStore. The file is looked at before it is read: a
// change that lands between the two is read now, and read again at the
// next Load, whose key differs.
func (c *CachedPins) Load() ([]Pin, error) {
	fi, err := os.Stat(c.Path)
	if err != nil {
		return c.FilePins.Load() // missing: no pins; unreadable: its error
	}
	key, ok := keyOf(fi)
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok && c.seen && key == c.key {
		return slices.Clone(c.pins), nil
	}
	pins, err := c.FilePins.Load()
	c.seen = err == nil && ok
	if err != nil {
		return nil, err
	}
	c.key, c.pins = key, pins
	return slices.Clone(pins), nil
}

// Save implements PinStore.
func (c *CachedPins) Save(pins []Pin) error {
	c.mu.Lock()
	c.seen, c.clean = false, nil
	c.mu.Unlock()
	return c.FilePins.Save(pins)
}

// sums are the SHA-256 of the binaries checkBinary hashed, by the
// version of the file they were read from: a binary whose inode changed
// without its content (a hard link made to it, its mode changed) no
// longer matches its pin's times, and without this each step would hash
// its 30 MB again.
var sums struct {
	sync.Mutex
	m map[fileKey]string
}

// binarySum is fileSum through sums.
func binarySum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	key, ok := keyOf(fi)
	if ok {
		sums.Lock()
		s, hit := sums.m[key]
		sums.Unlock()
		if hit {
			return s, nil
		}
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	s := hex.EncodeToString(h.Sum(nil))
	// What was hashed is the version the key names only if nothing
	// changed while it was read.
	if after, err := f.Stat(); ok && err == nil {
		if k, _ := keyOf(after); k == key {
			sums.Lock()
			if sums.m == nil || len(sums.m) >= 64 {
				sums.m = map[fileKey]string{}
			}
			sums.m[key] = s
			sums.Unlock()
		}
	}
	return s, nil
}

// versions names the version of every file a check of agent's pins reads:
// the pin file and each pinned file. ok is false when one cannot be
// looked at; the check then runs, and is not remembered.
func (c *CachedPins) versions(agent string) (v string, ok bool) {
	var b []byte
	add := func(path string) bool {
		fi, err := os.Stat(path)
		if err != nil {
			return false
		}
		k, ok := keyOf(fi)
		b = fmt.Appendf(b, "%s\x00%d %d %d %d %d\n", path, k.dev, k.ino, k.size, k.mtime, k.ctime)
		return ok
	}
	if !add(c.Path) {
		return "", false
	}
	pins, err := c.Load()
	if err != nil {
		return "", false
	}
	for _, p := range pins {
		if (agent == "" || p.Agent == agent) && !add(p.Path) {
			return "", false
		}
	}
	return string(b), true
}

func (c *CachedPins) stillClean(agent, v string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	w, ok := c.clean[agent]
	return ok && w == v
}

func (c *CachedPins) markClean(agent, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clean == nil {
		c.clean = map[string]string{}
	}
	c.clean[agent] = v
}
