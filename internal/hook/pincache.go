package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"slices"
	"sync"
	"syscall"
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
}

// fileKey tells one version of a file from another.
type fileKey struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

func keyOf(fi os.FileInfo) (fileKey, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{uint64(st.Dev), st.Ino, st.Size, st.Mtim.Nano(), st.Ctim.Nano()}, true
}

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
	c.seen = false
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
