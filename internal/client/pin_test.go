package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A binary replaced by one of the same size, its time set back with
// 'touch -r', is still found: the pin holds the inode and the change
// time, which no one can set back, and the hash is checked when they
// moved.
func TestBinaryReplacedSameSizeAndTime(t *testing.T) {
	eachPinStore(t, testBinaryReplaced)
}

func testBinaryReplaced(t *testing.T, pins func(path string) PinStore) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "sayso-hook")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho good\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	store := pins(filepath.Join(dir, "pins.json"))
	pin, err := binaryPin(Target{Agent: "claude", Scope: "user"}, bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Save([]Pin{pin}); err != nil {
		t.Fatal(err)
	}
	if probs := CheckPins(store, "claude"); len(probs) != 0 {
		t.Fatalf("fresh pin: %v", probs)
	}
	// the same size, a new inode, the old time
	tmp := bin + ".new"
	if err := os.WriteFile(tmp, []byte("#!/bin/sh\necho evil\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, bin); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(bin, time.Time{}, pin.ModTime); err != nil {
		t.Fatal(err)
	}
	probs := CheckPins(store, "claude")
	if len(probs) != 1 || !strings.Contains(probs[0].What, "changed") {
		t.Fatalf("replaced binary: problems %v, want it changed", probs)
	}
	// rewritten in place, same inode, time set back
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho good\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	pin, _ = binaryPin(Target{Agent: "claude", Scope: "user"}, bin)
	_ = store.Save([]Pin{pin})
	f, err := os.OpenFile(bin, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("evil"), 15)
	f.Close()
	_ = os.Chtimes(bin, time.Time{}, pin.ModTime)
	if probs := CheckPins(store, "claude"); len(probs) != 1 {
		t.Fatalf("rewritten in place: problems %v, want one", probs)
	}
}
