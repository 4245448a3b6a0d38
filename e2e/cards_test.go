package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/store"
)

// In Claude Code's terminal a step that asks has one card, and the
// terminal shows the client's own dialog at once, naming the page: the
// person answers in either place. Answered in the terminal, the card
// goes, and the ledger says the agent stopped waiting.
func TestOneCardInClaudeCodesTerminal(t *testing.T) {
	client(t, "claude")
	w := newWorld(t)
	w.install(t, "claude")
	w.serveFor(t, "0s") // as long as the client waits: 10 minutes
	f := NewFake(Call{Command: "git push origin main"})
	defer f.Close()
	u := w.startTUI(t, f)
	start := time.Now()
	u.typeLine("push my branch")
	// The dialog shows within seconds, not after the card's 10 minutes.
	u.waitFor(30*time.Second, "Do you want to proceed?")
	t.Logf("the dialog showed %v after the prompt was typed", time.Since(start).Round(100*time.Millisecond))
	screen := u.screen()
	if !strings.Contains(strings.Join(strings.Fields(screen), " "), "answer in this terminal or on http://"+w.addr+"/") {
		t.Errorf("the dialog does not name the page %s:\n%s", w.addr, screen)
	}
	time.Sleep(2 * time.Second) // the PermissionRequest's hook waits on the card
	u.keys("Escape")            // the person answers in the terminal: no
	u.waitFor(30*time.Second, "Interrupted")
	// Past the handover: a card the PermissionRequest had not taken on
	// would have ended by now too, a second row.
	time.Sleep(gateway.Handover + 2*time.Second)
	missed := w.missed(t)
	if len(missed) != 1 || missed[0].Cause != store.MissedLeft || !strings.Contains(missed[0].Why, "an answer in the terminal") {
		t.Errorf("missed cards = %+v, want one the agent stopped waiting for", missed)
	}
	if p := w.pushes(); len(p) != 0 {
		t.Errorf("pushed: %q", p)
	}
	if t.Failed() {
		t.Logf("screen:\n%s\nledger:\n%s", u.screen(), w.sayso(t, "log"))
	}
}

// missed reads the missed cards from the ledger through the person's CLI.
func (w *world) missed(t *testing.T) []store.Missed {
	t.Helper()
	var out []store.Missed
	for _, line := range strings.Split(strings.TrimSpace(string(w.sayso(t, "log", "--json"))), "\n") {
		var e store.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.Kind != store.KindCardExpired {
			continue
		}
		var m store.Missed
		if err := json.Unmarshal(e.Detail, &m); err != nil {
			t.Fatalf("a card-expired row's detail: %v: %s", err, e.Detail)
		}
		out = append(out, m)
	}
	return out
}
