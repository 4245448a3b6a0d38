package gateway_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/wall"
)

// TestEgressRefusedInLedger: a connection the wall refused a step is a
// ledger row the person reads: the host, the step, the session.
func TestEgressRefusedInLedger(t *testing.T) {
	f := startGateway(t, 0)
	wall.Report(f.socket, wall.Refusal{Session: "sess-egress", Host: "collector.example", Step: "python3 tests/test_env.py", Cwd: f.project})
	rows, err := f.db.Log(context.Background(), store.LogFilter{Session: "sess-egress"})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, r := range rows {
		if r.Kind == store.KindEgressRefused && strings.Contains(r.Summary, "collector.example") && strings.Contains(r.Summary, "python3 tests/test_env.py") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no egress-refused row for the session: %+v", rows)
	}
	// A report is no step: it decides nothing, so a bad one is refused
	// and nothing is kept.
	r, err := f.ask(wall.ReportAgent, []byte(`{"session":"sess-egress"}`))
	if err != nil || r.Exit == 0 {
		t.Fatalf("a report with no host: %+v, %v", r, err)
	}
}
