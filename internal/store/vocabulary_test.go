package store

import (
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
)

// TestVocabularyIsPolicys: the names the store keeps for modes and
// decisions are policy's, and its limits are policy's; a test fails the
// day the two drift.
func TestVocabularyIsPolicys(t *testing.T) {
	for i, m := range []string{ModeAsk, ModeAuto, ModeAutopilot} {
		pm, err := policy.ParseMode(m)
		if err != nil || pm != policy.Mode(i) || modeRank(m) != int(pm) || CheckMode(m) != nil {
			t.Errorf("store mode %q: policy reads %v (%v), rank %d", m, pm, err, modeRank(m))
		}
	}
	if CheckMode("yolo") == nil {
		t.Error("CheckMode accepted yolo")
	}
	for _, tt := range []struct {
		store string
		want  policy.Decision
	}{{DecisionDeny, policy.Deny}, {DecisionAsk, policy.Ask}, {DecisionAllow, policy.Allow}} {
		if d, err := policy.ParseDecision(tt.store); err != nil || d != tt.want {
			t.Errorf("store decision %q: policy reads %v (%v)", tt.store, d, err)
		}
	}
	if MaxNote != policy.MaxNote || MaxLeaseTTL != policy.MaxLeaseTTL || DefaultBreakerWindow != policy.DefaultBreaker.Window {
		t.Errorf("limits: note %d lease %v breaker window %v", MaxNote, MaxLeaseTTL, DefaultBreakerWindow)
	}
}
