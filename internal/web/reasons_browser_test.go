package web

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// TestBrowserReasonsFromKinds: in real Chromium, a card's effects and a
// ledger row's findings read as their reason kinds render them, each
// marked with its kind; a ledger row of a kind this sayso does not know
// keeps the words it was written with.
func TestBrowserReasonsFromKinds(t *testing.T) {
	b := newBrowser(t)
	f := newFixture(t, time.Now)
	f.mem.AddSession(Session{ID: "s1", Agent: "claude", Mode: policy.ModeAuto})

	ctx := risk.Context{Root: "/home/p/proj", Cwd: "/home/p/proj", Home: "/home/p"}
	_, diag := policy.Evaluate(policy.Request{Command: "git push -f origin main", Mode: policy.ModeAuto, Context: ctx, Wall: policy.Wall{On: true}})
	card := f.mem.AddCard(card.Card{Session: "s1", Agent: "claude", Tool: "Bash", Step: "git push -f origin main", Cwd: "/home/p/proj",
		Mode: policy.ModeAuto, Classes: []string{"force-remote"}, Expires: time.Now().Add(10 * time.Minute), Diagnostic: &diag})
	f.mem.AddEntry(Entry{Kind: "decision", Session: "s1", Decision: "ask", Summary: "ask git push -f origin main", Findings: []Finding{
		{Class: "force-remote", Words: "words an older sayso wrote", Reason: risk.PushesForce.By("git", "push --force", "")},
		{Class: "opaque", Words: "words of a kind this sayso does not know"},
	}})

	b.Open("log in", f.srv.LoginURL())
	b.WaitFor("the card", `document.querySelectorAll("article.card").length === 1`)
	c := "#card-" + card.ID
	openCard(b, c)
	// The most severe finding leads the card; the others follow it,
	// each marked with its kind.
	if got := b.Text(c + " h2 button.open-card"); got != "Git push --force overwrites remote history" {
		t.Errorf("the card's headline reads %q", got)
	}
	effects := b.String(`[...document.querySelectorAll("` + c + ` ul.effects li")].map(l => l.dataset.reason + "=" + l.textContent).join("|")`)
	if effects != "push-protected=remote-write git push updates the protected branch main" {
		t.Errorf("the card's effects read %q", effects)
	}

	b.Open("ledger", f.base+"/ledger?text=push")
	b.Do("open the row", chromedp.Click(chromedp.CSS("ul.ledger li details summary")))
	b.WaitFor("the row's findings", `document.querySelector("ul.ledger ul.findings") !== null && document.querySelector("ul.ledger ul.findings").checkVisibility()`)
	found := b.String(`[...document.querySelectorAll("ul.ledger ul.findings li")].map(l => l.dataset.reason + "=" + l.textContent).join("|")`)
	if want := "push-force=force-remote git push --force overwrites remote history|unknown=opaque words of a kind this sayso does not know"; found != want {
		t.Errorf("the ledger row's findings read %q, want %q", found, want)
	}
	if strings.Contains(b.Content("main"), "words an older sayso wrote") {
		t.Error("the ledger shows the row's words, not the kind's")
	}
	b.Axe("/ledger with a row's findings")
	b.Clean()
}
