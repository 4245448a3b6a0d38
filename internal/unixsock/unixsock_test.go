package unixsock

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// longDir makes a folder whose path is n bytes long.
func longDir(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for pad := n - len(dir) - 1; pad > 0; pad = n - len(dir) - 1 {
		dir = filepath.Join(dir, strings.Repeat("h", min(pad, 100)))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A socket at a path longer than an address holds is made, answers and
// is removed when its listener closes, for both kinds sayso makes.
func TestLongPath(t *testing.T) {
	for _, n := range []int{20, MaxPath - len("/x.sock"), 150, 400} {
		for _, network := range []string{"unix", "unixpacket"} {
			path := filepath.Join(longDir(t, n), "x.sock")
			if err := Check(path); err != nil {
				t.Fatalf("Check(%d bytes): %v", len(path), err)
			}
			ln, err := Listen(network, path)
			if err != nil {
				t.Fatalf("Listen(%s, %d bytes): %v", network, len(path), err)
			}
			if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSocket == 0 {
				t.Fatalf("%s: no socket at %s (%v)", network, path, err)
			}
			done := make(chan string, 1)
			go func() {
				c, err := ln.Accept()
				if err != nil {
					done <- err.Error()
					return
				}
				defer c.Close()
				b := make([]byte, 16)
				k, _ := c.Read(b)
				done <- string(b[:k])
			}()
			c, err := Dial(network, path, time.Second)
			if err != nil {
				t.Fatalf("Dial(%s, %d bytes): %v", network, len(path), err)
			}
			io.WriteString(c, "hello")
			if got := <-done; got != "hello" {
				t.Errorf("%s, %d bytes: the listener read %q", network, len(path), got)
			}
			c.Close()
			name, release, err := Name(path)
			if err != nil || len(name) > MaxPath {
				t.Errorf("Name(%d bytes) = %q, %v", len(path), name, err)
			} else {
				release()
			}
			ln.Close()
			if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s, %d bytes: the socket is still there after Close (%v)", network, len(path), err)
			}
		}
	}
}

// A dial that finds nothing names the socket's own path, not the short
// name it was reached by.
func TestDialNames(t *testing.T) {
	path := filepath.Join(longDir(t, 150), "none.sock")
	_, err := Dial("unix", path, time.Second)
	if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "/proc/self/fd") {
		t.Errorf("Dial of a missing socket: %v, want an error naming %s", err, path)
	}
}

// A name too long for any folder's short name is refused with the
// reason.
func TestTooLong(t *testing.T) {
	path := filepath.Join(t.TempDir(), strings.Repeat("s", 120))
	if err := Check(path); err == nil || !strings.Contains(err.Error(), "more than a unix socket's address holds") {
		t.Errorf("Check(a 120-byte name) = %v", err)
	}
	if _, err := Listen("unix", path); err == nil {
		t.Error("Listen on a 120-byte name succeeded")
	}
}
