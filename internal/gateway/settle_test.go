package gateway

import (
	"testing"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
)

// TestSettleAnswered: only the person's allow of a card marks the step as
// answered by them — the mark that lets a step that gains root run as
// they read it.
func TestSettleAnswered(t *testing.T) {
	for _, tt := range []struct {
		a        card.Answer
		want     policy.Decision
		answered bool
	}{
		{card.AllowOnce, policy.Allow, true},
		{card.AlwaysAllow, policy.Allow, true},
		{card.Deny, policy.Deny, false},
		{card.DenyAndHold, policy.Deny, false},
	} {
		d, diag, err := settle(card.Card{}, tt.a, "", policy.Diagnostic{})
		if err != nil || d != tt.want || diag.Answered != tt.answered {
			t.Errorf("settle(%v) = %v, answered %v, %v; want %v, answered %v", tt.a, d, diag.Answered, err, tt.want, tt.answered)
		}
	}
}

// A deny's message is the first reason the agent reads.
func TestSettleMessage(t *testing.T) {
	_, diag, _ := settle(card.Card{}, card.Deny, "push to a branch instead", policy.Diagnostic{Reasons: []string{"ask: remote-write"}})
	if want := "deny: the person denied this step, and says: push to a branch instead"; len(diag.Reasons) != 2 || diag.Reasons[0] != want {
		t.Errorf("reasons = %q, want %q first", diag.Reasons, want)
	}
}
