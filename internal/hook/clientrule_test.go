package hook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
)

// TestClaudeRulesApplied: the person's own deny and ask rules, in any of
// Claude Code's settings files, deny and ask a shell step through the
// real Run, before sayso decides: a deny is never rewritten to run
// walled, and an ask sayso would allow asks (a deny where nobody can be
// asked); the person's answer on the page stands.
func TestClaudeRulesApplied(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	write := func(path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home}
	run := func(command, mode string, env map[string]string, answered bool) (client.Result, bool) {
		decided := false
		decide := func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
			decided = true
			return policy.Allow, policy.Diagnostic{Reasons: []string{"allow (tier 8, mode)"}, Reach: policy.ReachProject, Plan: policy.Plan{Reach: policy.ReachProject, Root: proj}, Answered: answered}, nil
		}
		in, _ := json.Marshal(map[string]any{
			"session_id": "s1", "hook_event_name": "PreToolUse", "cwd": proj, "permission_mode": mode,
			"tool_name": "Bash", "tool_input": map[string]string{"command": command},
		})
		res := Run(context.Background(), client.Claude{}, in, client.Env{Getenv: func(k string) string { return env[k] }, Home: home}, decide, walls)
		return res, decided
	}
	attendedEnv := map[string]string{"CLAUDE_CODE_SESSION_ATTENDED": "1", "CLAUDE_CODE_ENTRYPOINT": "cli"}
	for _, file := range []string{
		filepath.Join(home, ".claude", "settings.json"),
		filepath.Join(proj, ".claude", "settings.json"),
		filepath.Join(proj, ".claude", "settings.local.json"),
	} {
		write(file, `{"permissions":{"deny":["Bash(git status:*)"],"ask":["Bash(git log:*)"]}}`)
		res, decided := run("git status && touch ran.txt", "default", attendedEnv, false)
		out := string(res.Stdout)
		if decided || !strings.Contains(out, `"permissionDecision":"deny"`) || strings.Contains(out, "sayso-wall") || !strings.Contains(out, "Bash(git status:*)") {
			t.Errorf("%s: a deny rule's step: decided %v, answer %s", file, decided, out)
		}
		res, _ = run("git log -1", "default", attendedEnv, false)
		if out := string(res.Stdout); !strings.Contains(out, `"permissionDecision":"ask"`) || !strings.Contains(out, "Bash(git log:*)") {
			t.Errorf("%s: an ask rule's step in the attended terminal: %s", file, out)
		}
		res, _ = run("git log -1", "bypassPermissions", attendedEnv, false)
		if out := string(res.Stdout); !strings.Contains(out, `"permissionDecision":"deny"`) || strings.Contains(out, "sayso-wall") {
			t.Errorf("%s: an ask rule's step in bypassPermissions: %s", file, out)
		}
		res, _ = run("git log -1", "default", nil, true)
		if out := string(res.Stdout); !strings.Contains(out, `"permissionDecision":"allow"`) {
			t.Errorf("%s: an ask rule's step the person allowed on the page: %s", file, out)
		}
		res, _ = run("ls", "default", attendedEnv, false)
		if out := string(res.Stdout); !strings.Contains(out, `"permissionDecision":"allow"`) || !strings.Contains(out, "sayso-wall") {
			t.Errorf("%s: a step no rule names: %s", file, out)
		}
		if err := os.Remove(file); err != nil {
			t.Fatal(err)
		}
	}
}
