package client

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The person's own Gemini CLI policy rules, matched on a shell step as
// Gemini's policy engine matches them, never on fewer steps.
func TestGeminiRuleFor(t *testing.T) {
	for _, tc := range []struct {
		rules   string // the person's policy file
		command string
		want    string // "deny", "ask" or ""
	}{
		{`commandPrefix = "git status"` + "\ndecision = \"deny\"", "git status && touch ran.txt", "deny"},
		{`commandPrefix = "git status"` + "\ndecision = \"deny\"", "git status", "deny"},
		{`commandPrefix = "git status"` + "\ndecision = \"deny\"", "git statusx", ""},
		{`commandPrefix = "git status"` + "\ndecision = \"deny\"", "touch a && git status -s", "deny"},
		{`commandPrefix = "git status"` + "\ndecision = \"deny\"", "bash -c 'git status'", "deny"},
		{`commandPrefix = "git status"` + "\ndecision = \"deny\"", "echo $(git status)", "deny"},
		{`commandPrefix = "git status"` + "\ndecision = \"deny\"", "git log", ""},
		{`commandPrefix = ["rm", "git push"]` + "\ndecision = \"deny\"", "git push origin main", "deny"},
		{`commandRegex = "git (status|log)"` + "\ndecision = \"deny\"", "git log -1", "deny"},
		{`commandRegex = "git (status|log)"` + "\ndecision = \"deny\"", "git diff", ""},
		{`toolName = "run_shell_command"` + "\nargsPattern = '\"command\":\"git status'\ndecision = \"deny\"", "git status", "deny"},
		{`toolName = "run_shell_command"` + "\ndecision = \"deny\"", "ls", "deny"},
		{`toolName = "write_file"` + "\ndecision = \"deny\"", "ls", ""},
		{`toolName = "*"` + "\ndecision = \"ask_user\"", "ls", "ask"},
		{`commandPrefix = "git"` + "\ndecision = \"ask_user\"", "git status", "ask"},
		{`mcpName = "srv"` + "\ndecision = \"deny\"", "ls", ""},
		// A condition the hook cannot see holds for a deny.
		{`commandPrefix = "git status"` + "\ndecision = \"deny\"\nmodes = [\"default\"]", "git status", "deny"},
		{`commandPrefix = "git status"` + "\ndecision = \"deny\"\ninteractive = true", "git status", "deny"},
		// A pattern Go cannot read denies.
		{`commandRegex = "git (?=status)"` + "\ndecision = \"deny\"", "ls", "deny"},
		{`commandPrefix = "git"` + "\ndecision = \"allow\"", "git status", ""},
	} {
		home := t.TempDir()
		dir := filepath.Join(home, ".gemini", "policies")
		must(t, os.MkdirAll(dir, 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "mine.toml"), []byte("[[rule]]\n"+tc.rules+"\npriority = 100\n"), 0o644))
		got := geminiRuleFor(geminiShellStep(tc.command), home)
		if word(got) != tc.want {
			t.Errorf("rule %q, command %q: %+v, want %q", tc.rules, tc.command, got, tc.want)
		}
	}
}

// The highest priority wins, as in Gemini: an allow above a deny lets
// the step through to sayso's own decision; a deny above an allow
// denies; the administrator's tier is above the person's; a step with
// no rule of the person's finds none.
func TestGeminiRulePriority(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".gemini", "policies")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "a.toml"), []byte(`
[[rule]]
commandPrefix = "git push"
decision = "allow"
priority = 900

[[rule]]
commandPrefix = "git"
decision = "deny"
priority = 100
denyMessage = "no git here"

[[rule]]
commandPrefix = "npm"
decision = "allow"
priority = 10

[[rule]]
commandPrefix = "npm"
decision = "ask_user"
priority = 20
`), 0o644))
	for _, tc := range []struct{ command, want string }{
		{"git push origin main", ""},
		{"git status", "deny"},
		{"npm test", "ask"},
		{"ls", ""},
	} {
		got := geminiRuleFor(geminiShellStep(tc.command), home)
		if word(got) != tc.want {
			t.Errorf("%q: %+v, want %q", tc.command, got, tc.want)
		}
		if tc.want == "deny" && (!strings.Contains(got.Rule, "no git here") || got.File != filepath.Join(dir, "a.toml")) {
			t.Errorf("%q: the rule reads %q in %s", tc.command, got.Rule, got.File)
		}
	}
	if got := geminiRuleFor(geminiShellStep("git status"), t.TempDir()); got != nil && !strings.HasPrefix(got.File, geminiAdminPolicies) {
		t.Errorf("no policies of the person's: %+v", got)
	}
	// A file Gemini cannot parse is skipped, as Gemini skips it.
	must(t, os.WriteFile(filepath.Join(dir, "a.toml"), []byte("[[rule]\n"), 0o644))
	if got := geminiRuleFor(geminiShellStep("git status"), home); got != nil && !strings.HasPrefix(got.File, geminiAdminPolicies) {
		t.Errorf("a broken file: %+v", got)
	}
}

// The arguments are rendered as Gemini renders them for its patterns.
func TestGeminiStable(t *testing.T) {
	got := geminiStable(map[string]any{"description": "a<b", "command": "git status", "n": map[string]any{"z": 1, "a": true}})
	want := "{\x00\"command\":\"git status\"\x00,\x00\"description\":\"a<b\"\x00,\x00\"n\":{\"a\":true,\"z\":1}\x00}"
	if got != want {
		t.Errorf("geminiStable = %q, want %q", got, want)
	}
}

func geminiShellStep(command string) *Step {
	in, _ := json.Marshal(map[string]any{"command": command, "description": "e2e"})
	return &Step{Kind: KindShell, Command: command, Input: in}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func word(r *ClientRule) string {
	switch {
	case r == nil:
		return ""
	case r.Deny:
		return "deny"
	}
	return "ask"
}
