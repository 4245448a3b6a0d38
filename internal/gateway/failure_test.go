package gateway

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/store"
)

// TestFailureLeavesATrace: a step the hook denies because it could not
// read or decide it leaves a ledger row holding the real error, not only
// the short reason the agent was told.
func TestFailureLeavesATrace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openTestStore(t)
	d := &Decider{DB: db, Home: dir, ConfigDir: dir, Walls: hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: dir}}
	broken := errors.New("disk I/O error: the ledger's page 7 is unreadable")
	failing := func(agent string, next client.Decider) client.Decider {
		return func(context.Context, client.Step) (policy.Decision, policy.Diagnostic, error) {
			return policy.Deny, policy.Diagnostic{}, broken
		}
	}
	for _, tt := range []struct {
		name, in string
		guard    Guard
		session  string
		want     string
	}{
		{"decide failed", `{"hook_event_name":"PreToolUse","session_id":"s1","turn_id":"t1","cwd":"` + dir + `","tool_name":"shell_command","tool_input":{"command":"go build"}}`, failing, "s1", broken.Error()},
		{"input unreadable", `{"hook_event_name":"PreToolUse","session_id":"s2","turn_id":"t1","cwd":"` + dir + `","tool_name":"shell_command","tool_input":{"command":7}}`, nil, "", "shell_command without a command string"},
	} {
		res := d.Run(ctx, "codex", []byte(tt.in), client.Env{}, tt.guard)
		if res.Err == nil || !strings.Contains(string(res.Stdout), "deny") {
			t.Fatalf("%s: answer %s, err %v: want a deny behind an error", tt.name, res.Stdout, res.Err)
		}
		rows, err := db.Log(ctx, store.LogFilter{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range rows {
			if e.Kind == store.KindHookFailed && e.Session == tt.session && strings.Contains(string(e.Detail), tt.want) && strings.Contains(e.Summary, tt.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s row with %q in %+v", tt.name, store.KindHookFailed, tt.want, rows)
		}
	}
}
