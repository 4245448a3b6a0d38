package gateway

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/policy"
)

// TestBreakerWindowHonoured: the person's breaker.window is how far back
// the breaker counts. With window = "1h", three denials 15 minutes apart
// hold the session; with the default 10 minutes they would not.
func TestBreakerWindowHonoured(t *testing.T) {
	for _, tt := range []struct {
		file string
		held bool
	}{
		{"[breaker]\ndenials = 3\nwindow = \"1h\"\n", true},
		{"[breaker]\ndenials = 3\n", false},
	} {
		ctx := context.Background()
		db := openTestStore(t)
		now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
		db.Now = func() time.Time { return now }
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "policy.toml"), []byte(tt.file), 0o600); err != nil {
			t.Fatal(err)
		}
		// sayso's own policy file is protected: reading it is denied.
		d := &Decider{DB: db, Home: dir, ConfigDir: dir, Protected: []string{filepath.Join(dir, "policy.toml")}, Walls: hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: dir}}
		denied := client.Step{Agent: "claude", Session: "s1", Tool: "Bash", Kind: client.KindShell, Command: "cat " + filepath.Join(dir, "policy.toml"), Cwd: dir}
		for i := 0; i < 3; i++ {
			if dec, diag, err := d.Decide(ctx, denied); err != nil || dec != policy.Deny {
				t.Fatalf("%q: step %d = %v, %v: %v", tt.file, i, dec, err, diag.Reasons)
			}
			now = now.Add(15 * time.Minute)
		}
		work := client.Step{Agent: "claude", Session: "s1", Tool: "Bash", Kind: client.KindShell, Command: "touch x", Cwd: dir}
		dec, diag, err := d.Decide(ctx, work)
		if err != nil {
			t.Fatal(err)
		}
		if held := dec == policy.Deny; held != tt.held {
			t.Errorf("%q: after three denials 15 minutes apart, local work = %v (%v), want held %v", tt.file, dec, diag.Reasons, tt.held)
		}
		if !tt.held {
			continue
		}
		// The trip held the session: the next step says so once.
		dec, diag, err = d.Decide(ctx, work)
		if err != nil {
			t.Fatal(err)
		}
		if r := strings.Join(diag.Reasons, "\n"); dec != policy.Deny || strings.Count(r, "only reading is let through") != 1 || !strings.Contains(r, "the session is held: the circuit breaker tripped: 3 steps denied within 1h0m0s") {
			t.Errorf("%q: the held session's next step = %v:\n%s\nwant denied, held by the breaker, said once", tt.file, dec, r)
		}
		if got := diag.Decided(); got.ID != policy.TierHeld || got.Reason != policy.ReasonHeld {
			t.Errorf("%q: decided by %v (%v), want held (held)", tt.file, got.ID, got.Reason)
		}
	}
}
