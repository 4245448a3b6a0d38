package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestSeed002LeaseLineClaudeCodeTUI guards seed 002 §4 (a one-shot lease,
// granted only by the person's direct input, never inferred from words):
// the person types "/sayso lease remote-write" in Claude Code's
// interactive terminal. The client must hand that line to sayso (it
// answered "Unknown command: /sayso" before sayso installed the command
// that makes it one the client knows), the lease it grants lets exactly
// one of the model's two pushes through, and the second is asked about,
// with sayso's reason, where the person refuses it.
func TestSeed002LeaseLineClaudeCodeTUI(t *testing.T) {
	for _, g := range gateways {
		t.Run(g.name, func(t *testing.T) { leaseLineClaudeCodeTUI(t, g.serve) })
	}
}

func leaseLineClaudeCodeTUI(t *testing.T, serve bool) {
	client(t, "claude")
	w := newWorld(t)
	if serve {
		w.serve(t)
	}
	push := Call{Command: "git push origin feature/x"}
	f := NewFake(push, push)
	defer f.Close()
	tui := w.startTUI(t, f)
	if _, err := os.Stat(filepath.Join(w.home, ".claude", "commands", "sayso.md")); err != nil {
		t.Errorf("install wrote no /sayso command: %v", err)
	}
	tui.typeLine("/sayso lease remote-write")
	seen := ""
	testenv.Wait(t, "the turn's end or a question in the terminal", func() (bool, string) {
		sc := tui.screen()
		switch {
		case strings.Contains(sc, "Unknown command"):
			seen = "Unknown command"
		case strings.Contains(sc, "Do you want to proceed?"):
			seen = "Do you want to proceed?"
		case isClosed(f.Done()):
			seen = "done"
		}
		return seen != "", sc
	})
	switch seen {
	case "Unknown command":
		t.Fatalf("the client did not pass the line on:\n%s", tui.screen())
	case "Do you want to proceed?":
		// The second push: sayso asks, in the client's own dialog.
		if sc := tui.screen(); !strings.Contains(sc, "sayso") || !strings.Contains(sc, "remote-write") {
			t.Errorf("the client asks, but not with sayso's reason:\n%s", sc)
		}
		t.Logf("asked:\n%s", tui.screen())
		// The person refuses it: the client ends the turn without the
		// push.
		tui.keys("Escape")
		tui.waitFor("Interrupted")
	}
	if got := w.pushes(); len(got) != 1 {
		t.Errorf("pushes that ran: %q, want exactly one", got)
	}
	leases := string(w.sayso(t, "lease", "list", "--all"))
	if !strings.Contains(leases, "remote-write") || !strings.Contains(leases, "consumed") {
		t.Errorf("the line granted no lease that a push consumed:\n%s", leases)
	}
	if t.Failed() {
		t.Logf("screen:\n%s\nresults: %q\nledger:\n%s", tui.screen(), f.Results(), w.sayso(t, "log"))
	}
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// TestSeed002LeaseLineCodexTUI: in Codex's terminal UI "/sayso" is one of
// its own commands ("Unrecognized command"); the same line typed after a
// space reaches the prompt hook as exactly "/sayso lease remote-write".
// The lease lets one of the model's two pushes through; Codex cannot ask,
// so the second is denied with sayso's reason.
func TestSeed002LeaseLineCodexTUI(t *testing.T) {
	for _, g := range gateways {
		t.Run(g.name, func(t *testing.T) { leaseLineCodexTUI(t, g.serve) })
	}
}

func leaseLineCodexTUI(t *testing.T, serve bool) {
	client(t, "codex")
	w := newWorld(t)
	if serve {
		w.serve(t)
	}
	push := Call{Command: "git push origin feature/x"}
	f := NewFake(push, push)
	defer f.Close()
	tui := w.startCodexTUI(t, f)
	tui.typeLine(" /sayso lease remote-write")
	// Codex's side requests can end a turn of the fake before the second
	// push is answered: wait for both pushes' results, which the client
	// sends once each push has run or been refused.
	testenv.Wait(t, "the results of both pushes to reach the model", func() (bool, string) {
		return pushResults(f.Results()) >= 2, fmt.Sprintf("results %q\nscreen:\n%s", f.Results(), tui.screen())
	})
	if got := w.pushes(); len(got) != 1 {
		t.Errorf("pushes that ran: %q, want exactly one", got)
	}
	if results := f.Results(); len(results) < 2 {
		t.Errorf("the model got %d tool results, want 2: %q", len(results), results)
	} else {
		resultHas(t, results[len(results)-1:], "sayso")
	}
	leases := string(w.sayso(t, "lease", "list", "--all"))
	if !strings.Contains(leases, "remote-write") || !strings.Contains(leases, "consumed") {
		t.Errorf("the line granted no lease that a push consumed:\n%s", leases)
	}
	if t.Failed() {
		t.Logf("screen:\n%s\nresults: %q\nledger:\n%s", tui.screen(), f.Results(), w.sayso(t, "log"))
	}
}

// pushResults counts the results of the model's pushes: the push that
// ran, and sayso's answers.
func pushResults(results []string) int {
	n := 0
	for _, r := range results {
		if strings.Contains(r, "pushed") || strings.Contains(r, "sayso") {
			n++
		}
	}
	return n
}
