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

// TestClaudeSandboxKnown: sayso knows before the step whether Claude
// Code runs it in its own sandbox, from every settings file the client
// reads (later files win); there the decision is told the wall is
// partial and the line lets the launcher fall back to Landlock alone.
// Elsewhere the whole wall applies.
func TestClaudeSandboxKnown(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string // relative to a scratch folder holding home/ and proj/
		want  bool
	}{
		{"none", nil, false},
		{"user-on", map[string]string{"home/.claude/settings.json": `{"sandbox":{"enabled":true}}`}, true},
		{"project-on", map[string]string{"proj/.claude/settings.json": `{"sandbox":{"enabled":true}}`}, true},
		{"local-on", map[string]string{"proj/.claude/settings.local.json": `{"sandbox":{"enabled":true,"autoAllowBashIfSandboxed":false}}`}, true},
		{"user-on-local-off", map[string]string{
			"home/.claude/settings.json":       `{"sandbox":{"enabled":true}}`,
			"proj/.claude/settings.local.json": `{"sandbox":{"enabled":false}}`}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
			for rel, body := range tt.files {
				p := filepath.Join(root, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home}
			var told policy.Wall
			decide := func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
				told = walls.StateFor(s)
				return policy.Allow, policy.Diagnostic{Reach: policy.ReachProject, Plan: policy.Plan{Reach: policy.ReachProject, Root: proj}}, nil
			}
			in, _ := json.Marshal(map[string]any{
				"session_id": "s1", "hook_event_name": "PreToolUse", "cwd": proj, "permission_mode": "default",
				"tool_name": "Bash", "tool_input": map[string]string{"command": "ls"},
			})
			res := Run(context.Background(), client.Claude{}, in, client.Env{Getenv: func(string) string { return "" }, Home: home}, decide, walls)
			out := string(res.Stdout)
			if !strings.Contains(out, "sayso-wall") {
				t.Fatalf("not walled: %s", out)
			}
			if tt.want && !strings.Contains(told.Why, "Claude Code's own sandbox") {
				t.Errorf("the decision is told %q; want it to name client.Claude Code's own sandbox", told.Why)
			}
			if told.Partial != tt.want || strings.Contains(out, "--in-client-sandbox") != tt.want {
				t.Errorf("partial = %v, line falls back = %v; want %v: %s", told.Partial, strings.Contains(out, "--in-client-sandbox"), tt.want, out)
			}
		})
	}
}
