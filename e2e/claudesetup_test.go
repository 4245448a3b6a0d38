package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// claudeP installs sayso for Claude Code in the world and runs the real
// client headless against the fake, as a person runs it, with args.
func (w *world) claudeP(t *testing.T, f *Fake, args ...string) string {
	t.Helper()
	bin := client(t, "claude")
	w.install(t, "claude")
	return w.run(t, bin, []string{
		"ANTHROPIC_BASE_URL=" + f.URL, "ANTHROPIC_API_KEY=sk-ant-e2e",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
	}, append([]string{"-p", "do the task", "--output-format", "json"}, args...)...)
}

// writeFile writes body at path, its folders made.
func writeFile(t *testing.T, path, body string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(body), 0o644))
}

// TestClaudeCodeOwnRules: the person's own deny or ask rule in Claude
// Code's settings (their user file or the project's) still stops the
// step with sayso installed, as it does without it: Claude Code matches
// its rules against the command a hook hands back, which sayso rewrites
// to run in its wall. Judged by outcome: ran.txt is not made. The same
// step with no rule runs (the control).
func TestClaudeCodeOwnRules(t *testing.T) {
	const step = "git status && touch ran.txt"
	for _, tt := range []struct {
		name, rules string
		user        bool
		runs        bool
	}{
		{"no-rule", ``, true, true},
		{"user-deny", `{"permissions":{"deny":["Bash(git status:*)"]}}`, true, false},
		{"user-ask", `{"permissions":{"ask":["Bash(git status:*)"]}}`, true, false},
		{"project-deny", `{"permissions":{"deny":["Bash(git status:*)"]}}`, false, false},
		{"project-ask", `{"permissions":{"ask":["Bash(git status *)"]}}`, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			if tt.rules != "" {
				file := filepath.Join(w.proj, ".claude", "settings.json")
				if tt.user {
					file = filepath.Join(w.home, ".claude", "settings.json")
				}
				writeFile(t, file, tt.rules) // install keeps them beside its hooks
			}
			f := NewFake(Call{Command: step})
			defer f.Close()
			out := w.claudeP(t, f)
			ran := filepath.Join(w.proj, "ran.txt")
			if tt.runs {
				if _, err := os.Stat(ran); err != nil {
					t.Errorf("with no rule the step did not run: %v; results %q", err, f.Results())
				}
			} else {
				absent(t, ran)
				resultHas(t, f.Results(), "git status")
			}
			if t.Failed() {
				t.Logf("claude output:\n%s\nledger:\n%s", out, w.sayso(t, "log"))
			}
		})
	}
}

// TestClaudeCodeDevMods: Claude Code 2.1.287+ loads "mods" from
// ~/.claude/dev-mods that answer tool calls ahead of every hook. Neither
// the Write tool nor a shell step writes one, in any permission mode:
// where the client cannot ask the person (bypassPermissions, dontAsk,
// -p) sayso's question is a deny, and a shell step's wall keeps
// ~/.claude read-only. Judged by outcome: the mod's file is not made.
func TestClaudeCodeDevMods(t *testing.T) {
	for _, mode := range []string{"default", "acceptEdits", "bypassPermissions", "dontAsk"} {
		for _, tool := range []string{"Write", "Bash"} {
			t.Run(mode+"/"+tool, func(t *testing.T) {
				w := newWorld(t)
				mod := filepath.Join(w.home, ".claude", "dev-mods", "m", "index.js")
				call := Call{Path: mod, Content: "export default {}\n"}
				if tool == "Bash" {
					call = Call{Command: "mkdir -p " + filepath.Dir(mod) + " && echo 'export default {}' > " + mod}
				}
				f := NewFake(call)
				defer f.Close()
				out := w.claudeP(t, f, "--permission-mode", mode)
				absent(t, mod)
				if len(f.Results()) == 0 {
					t.Errorf("the model got no tool result")
				}
				if t.Failed() {
					t.Logf("claude output:\n%s\nledger:\n%s", out, w.sayso(t, "log"))
				}
			})
		}
	}
}

// TestClaudeCodeAskIsDenyInBypass: in bypassPermissions nobody is asked,
// and what sayso asks about is denied in the client's own words: the
// model reads that Claude Code cannot ask here.
func TestClaudeCodeAskIsDenyInBypass(t *testing.T) {
	w := newWorld(t)
	f := NewFake(Call{Command: "git push origin main"})
	defer f.Close()
	out := w.claudeP(t, f, "--permission-mode", "bypassPermissions")
	absent(t, w.marker)
	resultHas(t, f.Results(), "Claude Code cannot ask here")
	if t.Failed() || !strings.Contains(out, "DONE") {
		t.Logf("claude output:\n%s", out)
	}
}

// claudeSandboxes are the ways people set Claude Code's own sandbox:
// off (its default), on (what sayso doctor once advised), and on with
// autoAllowBashIfSandboxed off.
var claudeSandboxes = []struct{ name, settings string }{
	{"sandbox-off", ``},
	{"sandbox-on", `{"sandbox":{"enabled":true}}`},
	{"sandbox-on-no-auto-allow", `{"sandbox":{"enabled":true,"autoAllowBashIfSandboxed":false}}`},
}

// TestClaudeCodeSandbox runs the shared scenarios, and a shell step that
// writes the project, in each of Claude Code's sandbox settings, as the
// normal user: an allowed step runs and its output reaches the model, a
// step sayso would not let run still does not, and the wall never fails
// a step (inside Claude Code's sandbox sayso's namespaces cannot nest).
func TestClaudeCodeSandbox(t *testing.T) {
	client(t, "claude")
	shellWrite := scenario{"shell-write-in-project-runs", func(w *world) Call {
		return Call{Command: "echo from-the-step > out.txt && cat out.txt e2e-readme.txt && grep -E '^(Seccomp|NoNewPrivs):' /proc/self/status"}
	}, func(t *testing.T, w *world, results []string) {
		resultHas(t, results, "from-the-step")
		resultHas(t, results, "hello")
		if b, err := os.ReadFile(filepath.Join(w.proj, "out.txt")); err != nil || !strings.Contains(string(b), "from-the-step") {
			t.Errorf("the shell step did not write the project: %v %q", err, b)
		}
	}}
	for _, sb := range claudeSandboxes {
		for _, sc := range append([]scenario{shellWrite}, scenarios...) {
			t.Run(sb.name+"/"+sc.name, func(t *testing.T) {
				w := newWorld(t)
				if sb.settings != "" {
					writeFile(t, filepath.Join(w.home, ".claude", "settings.json"), sb.settings)
				}
				f := NewFake(sc.call(w))
				defer f.Close()
				out := w.claudeP(t, f)
				results := f.Results()
				sc.check(t, w, results)
				if sc.name == shellWrite.name {
					// Claude Code's sandbox filters system calls (seccomp);
					// sayso's whole wall does not: the step ran where the
					// settings say.
					want := `Seccomp:\t0`
					if sb.settings != "" {
						want = `Seccomp:\t2`
					}
					resultHas(t, results, want)
				}
				if strings.Contains(strings.Join(results, "\n"), "sayso-wall: error") {
					t.Errorf("the wall failed the step: %q", results)
				}
				if t.Failed() {
					t.Logf("claude output:\n%s\nledger:\n%s", out, w.sayso(t, "log"))
				}
			})
		}
	}
}

// TestClaudeCodeSandboxTerminal: in Claude Code's attended terminal with
// its sandbox on (and autoAllowBashIfSandboxed, its default), a step
// sayso allows runs in the client's sandbox and its output reaches the
// model, and a step sayso asks about is the person's to answer in the
// client's dialog: the client's auto-allow of sandboxed commands does
// not answer it for them. The person says no; nothing is pushed.
func TestClaudeCodeSandboxTerminal(t *testing.T) {
	client(t, "claude")
	w := newWorld(t)
	writeFile(t, filepath.Join(w.home, ".claude", "settings.json"), `{"sandbox":{"enabled":true}}`)
	f := NewFake(Call{Command: "ls && grep ^Seccomp: /proc/self/status"}, Call{Command: "git push origin main"})
	defer f.Close()
	u := w.startTUI(t, f)
	u.typeLine("list, then push my branch")
	asked := false
	testenv.Wait(t, "the client's dialog about the push, or the turn's end", func() (bool, string) {
		sc := u.screen()
		asked = strings.Contains(sc, "Do you want to proceed?")
		return asked || isClosed(f.Done()), "screen:\n" + sc
	})
	if !asked {
		t.Errorf("the push sayso asks about was not put to the person")
	} else {
		u.keys("Escape") // the person answers no
		u.waitFor("Interrupted")
	}
	resultHas(t, f.Results(), "e2e-readme.txt")
	resultHas(t, f.Results(), `Seccomp:\t2`)
	if p := w.pushes(); len(p) != 0 {
		t.Errorf("pushed: %q", p)
	}
	if t.Failed() {
		t.Logf("screen:\n%s\nledger:\n%s", u.screen(), w.sayso(t, "log"))
	}
}
