package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/testenv"
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
	const step = "git push origin main"
	f := NewFake(Call{Command: step})
	defer f.Close()
	u := w.startTUI(t, f)
	start := time.Now()
	u.typeLine("push my branch")
	// The dialog shows at once, not after the card's 10 minutes, which
	// are longer than any wait of the test's.
	u.waitFor("Do you want to proceed?")
	t.Logf("the dialog showed %v after the prompt was typed", time.Since(start).Round(100*time.Millisecond))
	screen := u.screen()
	if !strings.Contains(strings.Join(strings.Fields(screen), " "), "answer in this terminal or on http://"+w.addr+"/") {
		t.Errorf("the dialog does not name the page %s:\n%s", w.addr, screen)
	}
	// The PermissionRequest's hook writes the step's second decision row,
	// then takes the card on and waits on it.
	testenv.Wait(t, "the PermissionRequest's decision, the step's second row", func() (bool, string) {
		n := w.decisions(t, step)
		return n >= 2, fmt.Sprintf("%d decision rows for %s", n, step)
	})
	u.keys("Escape") // the person answers in the terminal: no
	u.waitFor("Interrupted")
	// A card the PermissionRequest had not taken on would still be on
	// the page, to end later as a second row: wait until the page lists
	// none and the ledger holds the end of the one it took on.
	p, err := w.login()
	must(t, err)
	testenv.Wait(t, "no card on the page and a missed card in the ledger", func() (bool, string) {
		body, _, err := p.get("/cards")
		if err != nil {
			return false, err.Error()
		}
		if strings.Contains(body, `<article class="card`) {
			return false, "a card on the page:\n" + body
		}
		missed := w.missed(t)
		return len(missed) > 0, "no missed card in the ledger"
	})
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

// decisions counts the ledger's decision rows for step, one for each
// hook that decided it.
func (w *world) decisions(t *testing.T, step string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(w.sayso(t, "log", "--json"))), "\n") {
		var e store.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.Kind != store.KindDecision {
			continue
		}
		var d struct {
			Step string `json:"step"`
		}
		if json.Unmarshal(e.Detail, &d) == nil && d.Step == step {
			n++
		}
	}
	return n
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
