package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const codexRulesText = `# the person's rules
GIT = "git"
prefix_rule(pattern = [GIT, ["status", "log"]], decision = "forbidden", justification = "use jj")
prefix_rule(
    pattern = ["npm", "publish"],
    decision = "prompt",
    match = [["npm", "publish"]],
)
prefix_rule(pattern = ["ls"])
host_executable(name = "git", paths = ["/usr/bin/git"])
`

// TestCodexRuleFor: the person's own Codex rules, in $CODEX_HOME/rules,
// forbid or prompt for the commands they name wherever in the line they
// stand; a file sayso cannot evaluate asks about every shell step.
func TestCodexRuleFor(t *testing.T) {
	home := t.TempDir()
	rules := filepath.Join(home, ".codex", "rules")
	if err := os.MkdirAll(rules, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rules, "default.rules"), []byte(codexRulesText), 0o600); err != nil {
		t.Fatal(err)
	}
	env := Env{Home: home, Getenv: func(string) string { return "" }}
	for _, tt := range []struct {
		command string
		want    string // "deny", "ask" or ""
	}{
		{"git status", "deny"},
		{"git status && touch ran.txt", "deny"},
		{"touch a; git log -1", "deny"},
		{"echo $(git status)", "deny"},
		{"/usr/bin/git log", "deny"},
		{"timeout 5 git status", "deny"},
		{"git push", ""},
		{"npm publish --dry-run", "ask"},
		{"npm publish && git status", "deny"},
		{"ls -la", ""},
		{"echo git status", ""},
	} {
		r := codexRuleFor(&Step{Kind: KindShell, Command: tt.command, Cwd: home}, env)
		got := ""
		switch {
		case r != nil && r.Deny:
			got = "deny"
		case r != nil:
			got = "ask"
		}
		if got != tt.want {
			t.Errorf("codexRuleFor(%q) = %q (%+v), want %q", tt.command, got, r, tt.want)
		}
	}
	if r := codexRuleFor(&Step{Kind: KindShell, Command: "git status", Cwd: home}, env); r == nil || !strings.Contains(r.Words("Codex CLI"), `prefix_rule(["git", ["status", "log"]], forbidden: use jj)`) {
		t.Errorf("the reason does not name the rule: %+v", r)
	}
	if err := os.WriteFile(filepath.Join(rules, "broken.rules"), []byte(`prefix_rule(pattern = ["git"], decision = "nope")`), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := codexRuleFor(&Step{Kind: KindShell, Command: "ls", Cwd: home}, env); r == nil || r.Deny || !strings.Contains(r.File, "broken.rules") {
		t.Errorf("a file sayso cannot read: %+v, want an ask naming it", r)
	}
}
