package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestCodexRulesAsCodexReadsThem checks sayso's reading of Codex's rules
// against Codex's own (codex execpolicy check): for each command, what
// Codex forbids sayso's hook denies, what Codex prompts for it asks about
// (a deny, as Codex's hook cannot ask, whichever of its own questions
// comes first), and never less; a command no rule
// of Codex's matches is not stopped by one. sayso may match more (a
// program named by its path, by its base name).
func TestCodexRulesAsCodexReadsThem(t *testing.T) {
	bin := client(t, "codex")
	w := newWorld(t)
	const rules = `GIT = "git"
prefix_rule(pattern = [GIT, ["status", "log"]], decision = "forbidden", justification = "not here")
prefix_rule(pattern = ["npm", "publish"], decision = "prompt")
prefix_rule(pattern = ["ls"], decision = "allow")
prefix_rule(pattern = ["rm", "-rf"], decision = "forbidden")
`
	dir := filepath.Join(w.home, ".codex", "rules")
	must(t, os.MkdirAll(dir, 0o755))
	file := filepath.Join(dir, "default.rules")
	must(t, os.WriteFile(file, []byte(rules), 0o644))
	w.install(t, "codex")
	for _, argv := range [][]string{
		{"git", "status"}, {"git", "log", "-1"}, {"git", "diff"}, {"git"},
		{"npm", "publish", "--tag", "next"}, {"npm", "install"},
		{"ls", "-la"}, {"rm", "-rf", "build"}, {"rm", "-r", "-f", "build"}, {"echo", "git", "status"},
	} {
		check := exec.Command(bin, "execpolicy", "check", "--rules", file, "--")
		check.Args = append(check.Args, argv...)
		check.Dir, check.Env = w.proj, w.env
		out, err := check.Output()
		if err != nil {
			t.Fatalf("codex execpolicy check %q: %v\n%s", argv, err, out)
		}
		codexSays := ""
		switch {
		case strings.Contains(string(out), `"decision":"forbidden"`):
			codexSays = "denies"
		case strings.Contains(string(out), `"decision":"prompt"`):
			codexSays = "asks about"
		}
		line := strings.Join(argv, " ")
		in := `{"session_id":"01a22d30-40f3-7500-805f-1f3d747884c1","turn_id":"01a22d30-418a-7b23-80c8-00029a840b86","transcript_path":"` + filepath.Join(w.home, ".codex", "sessions", "none.jsonl") + `","cwd":"` + w.proj + `","hook_event_name":"PreToolUse","model":"m","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"` + line + `"},"tool_use_id":"call_1"}`
		hook := exec.Command(sayso, w.dirs("hook", "codex")...)
		hook.Dir, hook.Env = w.proj, w.env
		hook.Stdin = strings.NewReader(in)
		answer, err := hook.Output()
		if err != nil {
			t.Fatalf("sayso hook codex %q: %v\n%s", line, err, answer)
		}
		saysoSays := ""
		for _, verb := range []string{"denies", "asks about"} {
			if strings.Contains(string(answer), "your own Codex CLI rule") && strings.Contains(string(answer), verb+" this step") {
				saysoSays = verb
			}
		}
		denied := strings.Contains(string(answer), `"permissionDecision":"deny"`)
		switch {
		case codexSays == "denies" && saysoSays != "denies":
			t.Errorf("%q: Codex denies it, sayso's hook answered %s", line, answer)
		case codexSays == "asks about" && !denied:
			// sayso's own ask (a ceiling) may come first: a deny either way.
			t.Errorf("%q: Codex asks about it, sayso's hook answered %s", line, answer)
		}
		if codexSays == "" && saysoSays != "" && argv[0] != "echo" {
			t.Logf("%q: sayso %s it by a rule Codex does not match here", line, saysoSays)
		}
		if argv[0] == "echo" && saysoSays != "" {
			t.Errorf("%q: a rule stopped a command it does not name: %s", line, answer)
		}
	}
}
