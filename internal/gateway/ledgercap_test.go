package gateway_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
)

// A step whose command is hundreds of kilobytes leaves ledger rows of a
// few kilobytes, each naming the step by its length and SHA-256.
func TestLedgerCapsLongSteps(t *testing.T) {
	f := startGateway(t, 200*time.Millisecond)
	cmd := "git push origin x" + strings.Repeat("b", 300000)
	if got := f.hook("s-cap", cmd); got == "allow" {
		t.Fatalf("the push was allowed")
	}
	sum := sha256.Sum256([]byte(cmd))
	rows, err := f.db.Log(context.Background(), store.LogFilter{Session: "s-cap"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 {
		t.Fatalf("rows: %d, want the decision and the expiry", len(rows))
	}
	for _, r := range rows {
		if len(r.Summary) > store.MaxText+400 || len(r.Detail) > 8*store.MaxText {
			t.Errorf("%s row keeps %d + %d bytes", r.Kind, len(r.Summary), len(r.Detail))
		}
		if !strings.Contains(r.Summary, hex.EncodeToString(sum[:])) {
			t.Errorf("%s row does not name the step by its SHA-256", r.Kind)
		}
	}
}
