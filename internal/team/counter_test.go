package team

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sayso-dev/sayso/internal/passkey"
)

// TestCounters: a passkey's signature counter must grow past the highest
// the node saw and past the one at registration; zero after non-zero is
// a copy of the authenticator; zero after zero is one that keeps no
// counter. The file keeps the counters past a restart, and one that
// cannot be read takes no count.
func TestCounters(t *testing.T) {
	config := t.TempDir()
	cred := []byte("ada's passkey")
	use := func(count, floor uint32) passkey.Use {
		return passkey.Use{Credential: cred, Count: count, Floor: floor}
	}
	for _, c := range []struct {
		name string
		u    passkey.Use
		ok   bool
	}{
		{"zero from one that keeps no counter", use(0, 0), true},
		{"zero again", use(0, 0), true},
		{"not past the count at registration", use(3, 3), false},
		{"past it", use(4, 3), true},
		{"the same count again", use(4, 3), false},
		{"an older count", use(2, 0), false},
		{"zero after non-zero", use(0, 0), false},
		{"a later count", use(9, 3), true},
	} {
		// A fresh FileCounters each time: as after sayso serve restarts.
		err := (&FileCounters{Config: config}).Advance(c.u)
		if c.ok != (err == nil) || !c.ok && !errors.Is(err, ErrCounter) {
			t.Errorf("%s: Advance(%d, floor %d) = %v, want ok %v", c.name, c.u.Count, c.u.Floor, err, c.ok)
		}
	}
	other := passkey.Use{Credential: []byte("another passkey"), Count: 1}
	if err := (&FileCounters{Config: config}).Advance(other); err != nil {
		t.Errorf("another passkey's first count: %v", err)
	}
	if err := os.WriteFile(filepath.Join(config, CountersFile), []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := (&FileCounters{Config: config}).Advance(use(100, 0)); err == nil {
		t.Error("a counters file that cannot be read took a count")
	}
}
