package client

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestCachedPins: the cached store answers as the file does, at every
// step: after sayso install replaces it, after an edit in place that keeps
// its size and time, after it is removed, and when it cannot be parsed.
func TestCachedPins(t *testing.T) {
	settleNow(t)
	path := filepath.Join(t.TempDir(), "pins.json")
	file := FilePins{Path: path}
	c := &CachedPins{FilePins: file}
	paths := func() []string {
		t.Helper()
		pins, err := c.Load()
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		var out []string
		for _, p := range pins {
			out = append(out, p.Path)
		}
		return out
	}
	if got := paths(); got != nil {
		t.Errorf("no file: pins %q", got)
	}
	if err := file.Save([]Pin{{Kind: PinBinary, Path: "/a/sayso"}}); err != nil {
		t.Fatal(err)
	}
	if got := paths(); !slices.Equal(got, []string{"/a/sayso"}) {
		t.Errorf("after install: pins %q", got)
	}
	// What a caller does with the pins it got is not the next caller's.
	pins, _ := c.Load()
	pins[0].Path = "/elsewhere"
	if got := paths(); !slices.Equal(got, []string{"/a/sayso"}) {
		t.Errorf("a caller changed the cache: pins %q", got)
	}
	// An edit in place, the same size, its time set back.
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	edited := bytes.Replace(b, []byte("/a/sayso"), []byte("/b/sayso"), 1)
	if bytes.Equal(edited, b) || len(edited) != len(b) {
		t.Fatalf("the edit changed the size: %q", edited)
	}
	if err := os.WriteFile(path, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := paths(); !slices.Equal(got, []string{"/b/sayso"}) {
		t.Errorf("after an edit in place: pins %q", got)
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load(); err == nil {
		t.Error("a pin file that cannot be parsed reads as pins")
	}
	if _, err := c.Load(); err == nil {
		t.Error("a pin file that cannot be parsed reads as pins the second time")
	}
	if err := c.Save([]Pin{{Kind: PinBinary, Path: "/c/sayso"}}); err != nil {
		t.Fatal(err)
	}
	if got := paths(); !slices.Equal(got, []string{"/c/sayso"}) {
		t.Errorf("after Save: pins %q", got)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if got := paths(); got != nil {
		t.Errorf("after removal: pins %q", got)
	}
}

// TestBinaryCheckCached: a pinned binary whose inode changed but not its
// content (a hard link made to it) passes and is hashed once for every
// step after; a binary rewritten with the same size and time fails.
func TestBinaryCheckCached(t *testing.T) {
	settleNow(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "sayso")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho one\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := binaryPin(Target{Agent: "claude"}, bin)
	if err != nil {
		t.Fatal(err)
	}
	// The pin's times: the change time moves with the link, once the file
	// system's clock has moved past the pin's.
	testenv.Wait(t, "the file system's clock to move past the pin's change time", func() (bool, string) {
		f, err := os.CreateTemp(dir, "clock")
		if err != nil {
			return false, err.Error()
		}
		defer os.Remove(f.Name())
		fi, err := f.Stat()
		f.Close()
		if err != nil {
			return false, err.Error()
		}
		_, now := inode(fi)
		return now > p.Change, fmt.Sprintf("a file made now changed at %d, the pin at %d", now, p.Change)
	})
	if err := os.Link(bin, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(bin)
	if _, change := inode(fi); change == p.Change {
		t.Fatal("a hard link left the change time as it was: this test cannot show the hash")
	}
	if what := checkBinary(p); what != "" {
		t.Fatalf("the same binary, linked: %s", what)
	}
	key, _ := keyOf(fi)
	sums.Lock()
	_, cached := sums.m[key]
	sums.Unlock()
	if !cached {
		t.Error("the hash of the linked binary is not kept: every step hashes it again")
	}
	if what := checkBinary(p); what != "" {
		t.Fatalf("the same binary, checked again: %s", what)
	}
	// The same size and time, another content: its change time moved.
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho two\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(bin, p.ModTime, p.ModTime); err != nil {
		t.Fatal(err)
	}
	if what := checkBinary(p); what == "" {
		t.Error("a binary rewritten under the same size and time passes its pin")
	}
}

// settleNow has the caches take a file's times as its version at once,
// however recently it changed: the tests below write a file and check it
// again within a millisecond, which is what the caches must not be
// fooled by.
func settleNow(t *testing.T) {
	old := settle
	settle = 0
	t.Cleanup(func() { settle = old })
}

// eachPinStore runs a test of the pin check with the pins in a file read
// at each check, as the hook and doctor read them, and in a CachedPins
// that takes every version as settled, as sayso serve reads them: the
// cached check must find every change the plain one finds.
func eachPinStore(t *testing.T, test func(t *testing.T, pins func(path string) PinStore)) {
	t.Run("file", func(t *testing.T) {
		test(t, func(path string) PinStore { return FilePins{Path: path} })
	})
	t.Run("cached", func(t *testing.T) {
		settleNow(t)
		test(t, func(path string) PinStore { return &CachedPins{FilePins: FilePins{Path: path}} })
	})
}

// TestCachedCheckRemembered: a check that found nothing wrong is answered
// again without reading the files while none has changed, and checked
// again when one has: the settings file edited in place.
func TestCachedCheckRemembered(t *testing.T) {
	settleNow(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	bin := filepath.Join(dir, "sayso")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	store := &CachedPins{FilePins: FilePins{Path: filepath.Join(dir, "pins.json")}}
	target := Target{Agent: "claude", Scope: "user", Home: home, Getenv: func(string) string { return "" },
		Binary: bin, StateDir: filepath.Join(dir, "state"), ConfigDir: filepath.Join(dir, "config")}
	if _, err := Install(target, store); err != nil {
		t.Fatal(err)
	}
	if probs := CheckPins(store, "claude"); len(probs) != 0 {
		t.Fatalf("fresh install: %v", probs)
	}
	if len(store.clean) != 1 {
		t.Fatalf("a clean check is not remembered: %v", store.clean)
	}
	if probs := CheckPins(store, "claude"); len(probs) != 0 {
		t.Fatalf("checked again: %v", probs)
	}
	settings := filepath.Join(home, ".claude", "settings.json")
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(settings)
	// sayso's hook switched off: the same size, the time set back.
	off := bytes.Replace(b, []byte(`"block"`), []byte(`"allow"`), 1)
	if bytes.Equal(off, b) {
		t.Fatal("the installed settings have no onFailure block")
	}
	if err := os.WriteFile(settings, off, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(settings, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if probs := CheckPins(store, "claude"); len(probs) == 0 {
		t.Error("a definition edited in place after a clean check passes")
	}
}

// TestRacyNotRemembered: of a file changed less than settle ago, nothing
// is remembered — not the pins, not a binary's hash, not a clean check —
// since its next version may carry the same times.
func TestRacyNotRemembered(t *testing.T) {
	old := settle
	settle = time.Hour
	t.Cleanup(func() { settle = old })
	dir := t.TempDir()
	bin := filepath.Join(dir, "sayso")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := binaryPin(Target{Agent: "claude"}, bin)
	if err != nil {
		t.Fatal(err)
	}
	p.Change = 0 // the times differ from the pin's: the check hashes
	store := &CachedPins{FilePins: FilePins{Path: filepath.Join(dir, "pins.json")}}
	if err := store.Save([]Pin{p}); err != nil {
		t.Fatal(err)
	}
	if probs := CheckPins(store, "claude"); len(probs) != 0 {
		t.Fatalf("fresh pin: %v", probs)
	}
	fi, _ := os.Stat(bin)
	key, _ := keyOf(fi)
	sums.Lock()
	_, hashed := sums.m[key]
	sums.Unlock()
	if store.seen || len(store.clean) != 0 || hashed {
		t.Errorf("remembered of files changed just now: pins %v, clean checks %d, the binary's hash %v", store.seen, len(store.clean), hashed)
	}
}
