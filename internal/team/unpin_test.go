package team

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/passkey/passkeytest"
)

// TestUnpin: a passkey removed from the node's pins signs no yes the
// relay takes from its next turn; the person's other passkey still does.
// An id that names no key, or more than one, or too short a piece of
// one, removes nothing.
func TestUnpin(t *testing.T) {
	config := t.TempDir()
	lost, kept := passkeytest.New(t, "ada"), passkeytest.New(t, "ada")
	st := State{Hub: "https://localhost:7475", OrgKey: make([]byte, 32), Person: "ada",
		Pins: passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{lost.Pinned(t), kept.Pinned(t)}}}
	if err := WriteState(config, st); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(config, StateFile))
	for _, id := range []string{"", "short", "AAAAAAAAAAAAAAAAAAAAAA", KeyID(lost.Pinned(t)) + "x"} {
		if _, err := Unpin(config, id); !errors.Is(err, ErrNoSuchKey) {
			t.Errorf("Unpin(%q) = %v, want ErrNoSuchKey", id, err)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(config, StateFile)); string(after) != string(before) {
		t.Fatal("an id that names no single key changed the node's pins")
	}
	k, err := Unpin(config, KeyID(lost.Pinned(t))[:10])
	if err != nil || KeyID(k) != KeyID(lost.Pinned(t)) {
		t.Fatalf("Unpin by the first 10 characters of the id: %v, %v", KeyID(k), err)
	}
	// What the relay takes on its next turn: it reads the pins afresh.
	r := &Relay{Config: config}
	taker := &Taker{Pins: r.pins()}
	yes := func(a *passkeytest.Authr, id string) Say {
		w := Waiting{ID: id, Person: "ada", Body: []byte(`{"card":"` + id + `"}`)}
		return taker.Take(w, []hubapi.Answer{{ID: 1, Card: id, Verdict: "allow-once",
			Assertion: a.Assert(t, rpID, origin, passkey.Challenge(w.Body, card.AllowOnce))}})
	}
	if s := yes(lost, "c1"); s.Taken {
		t.Errorf("a yes signed by the removed passkey was taken: %q", s.Answer)
	}
	if s := yes(kept, "c2"); !s.Taken || s.Answer != card.AllowOnce {
		t.Errorf("a yes signed by the passkey still pinned: %+v, want it taken", s)
	}
	if _, err := Unpin(config, KeyID(lost.Pinned(t))); !errors.Is(err, ErrNoSuchKey) {
		t.Errorf("removing the removed key again: %v, want ErrNoSuchKey", err)
	}
}
