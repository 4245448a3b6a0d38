package gateway_test

import (
	"context"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/web"
)

// A card carries what the page renders it from: the decision's
// diagnostic, the agent's own description of the step and the person's
// words that opened its turn.
func TestCardCarriesItsContext(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	// The person typed this turn's words (how a prompt becomes the
	// person's is the hook's business, tested there).
	if _, err := f.db.AddMessage(context.Background(), store.NewSession{ID: "s-words", Agent: "claude"},
		store.NewMessage{Source: store.SourcePerson, Turn: "turn-1", Text: "push main, the release is ready"}); err != nil {
		t.Fatal(err)
	}
	p := f.block("s-words", "git push origin main")
	if p.card.Words != "push main, the release is ready" {
		t.Errorf("the card's words are %q", p.card.Words)
	}
	if p.card.Described != "x" {
		t.Errorf("the agent's description is %q, want x", p.card.Described)
	}
	if d := p.card.Diagnostic; d == nil || len(d.Tiers) == 0 || len(d.Assessment.Findings) == 0 {
		t.Errorf("the card carries no diagnostic: %+v", d)
	}
	if _, err := f.g.Cards.Answer(context.Background(), p.card.ID, card.Deny); err != nil {
		t.Fatal(err)
	}
	if got := p.result(t); got != "deny" {
		t.Errorf("after deny the hook returned %q", got)
	}

	// The ledger shows the ask with what became of it.
	b := &gateway.Backend{DB: f.db, Waiting: f.g.Cards}
	rows, err := b.Ledger(context.Background(), web.LedgerFilter{Decision: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Outcome != "deny" {
		t.Fatalf("the ask's ledger rows: %+v, want one answered deny", rows)
	}
	// The row keeps each finding's reason kind and operands: the page
	// renders the words from them.
	var push *web.Finding
	for i, fd := range rows[0].Findings {
		if fd.Class == "remote-write" {
			push = &rows[0].Findings[i]
		}
	}
	if push == nil || push.Reason.Kind != risk.PushesProtected || push.Reason.Program != "git" || push.Reason.Verb != "push" || push.Reason.Object != "main" {
		t.Fatalf("the row's findings %+v hold no push-protected reason of git push to main", rows[0].Findings)
	}
	if push.Words != push.Reason.String() || push.Says() != "git push updates the protected branch main" {
		t.Errorf("the push finding reads %q (written %q)", push.Says(), push.Words)
	}
}

// An ask nobody answered shows in the ledger as missed, with why.
func TestLedgerAskMissed(t *testing.T) {
	f := startGateway(t, 2*time.Second)
	p := f.block("s-missed", "git push origin main")
	p.result(t)
	b := &gateway.Backend{DB: f.db, Waiting: f.g.Cards}
	rows, err := b.Ledger(context.Background(), web.LedgerFilter{Decision: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Outcome != gateway.Missed || rows[0].OutcomeWhy == "" {
		t.Errorf("the ask's ledger rows: %+v, want one missed, with why", rows)
	}
}
