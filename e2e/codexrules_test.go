package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCodexOwnRules: the person's own Codex rules (~/.codex/rules, a
// forbidden and a prompt prefix_rule) still stop the commands they name
// with sayso installed, as Codex stops them without it — in the sandbox
// modes where the step could otherwise write the file it is judged by
// (Codex's read-only sandbox refuses it anyway). A command no rule names
// still runs.
func TestCodexOwnRules(t *testing.T) {
	bin := client(t, "codex")
	const rules = `prefix_rule(pattern = ["git", "status"], decision = "forbidden", justification = "not here")
prefix_rule(pattern = ["git", "log"], decision = "prompt")
`
	for _, m := range codexModes {
		if !m.writes {
			continue
		}
		for _, tt := range []struct {
			name, command string
			runs          bool
		}{
			{"forbidden", "git status && touch ran.txt", false},
			{"prompt", "touch ran.txt; git log -1", false},
			{"no-rule", "git diff && touch ran.txt", true},
		} {
			t.Run(m.name+"/"+tt.name, func(t *testing.T) {
				w := newWorld(t)
				f := NewFake(Call{Command: tt.command})
				defer f.Close()
				codexConfig(t, w, f)
				must(t, os.MkdirAll(filepath.Join(w.home, ".codex", "rules"), 0o755))
				must(t, os.WriteFile(filepath.Join(w.home, ".codex", "rules", "default.rules"), []byte(rules), 0o644))
				w.install(t, "codex")
				args := append([]string{"exec", "--json", "--skip-git-repo-check", "-C", w.proj}, m.flags...)
				out := w.run(t, bin, []string{"FAKE_API_KEY=sk-fake"}, append(args, "do the task")...)
				ran := filepath.Join(w.proj, "ran.txt")
				if tt.runs {
					if _, err := os.Stat(ran); err != nil {
						t.Errorf("a command no rule names did not run: %v; results %q", err, f.Results())
					}
				} else {
					absent(t, ran)
					resultHas(t, f.Results(), "your own Codex CLI rule")
				}
				if t.Failed() {
					t.Logf("codex output:\n%s", out)
				}
			})
		}
	}
}
