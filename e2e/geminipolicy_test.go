package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// geminiSettings are the settings the Gemini runs start from: the fake's
// key, no update checks, no telemetry.
const geminiSettings = `{"general":{"disableAutoUpdate":true,"disableUpdateNag":true},
 "privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},
 "security":{"auth":{"selectedType":"gemini-api-key"}}}`

// TestGeminiOwnPolicy: a rule the person wrote in Gemini CLI's own policy
// engine (~/.gemini/policies) that denies, or asks about, a command
// still stops it with sayso installed, as it does without sayso; judged
// by the file the command would make. The control: with no rule, the
// same step runs with sayso installed.
func TestGeminiOwnPolicy(t *testing.T) {
	bin := client(t, "gemini")
	const step = "git status && touch ran.txt"
	for _, tc := range []struct {
		name, rule string
		sayso      bool
		runs       bool
	}{
		{"no-rule", "", true, true},
		{"deny-prefix-without-sayso", `commandPrefix = "git status"` + "\n" + `decision = "deny"`, false, false},
		{"deny-prefix", `commandPrefix = "git status"` + "\n" + `decision = "deny"`, true, false},
		{"deny-regex", `commandRegex = "git (status|log)"` + "\n" + `decision = "deny"`, true, false},
		{"deny-args", `argsPattern = '"command":"git status'` + "\n" + `decision = "deny"`, true, false},
		{"ask-prefix", `commandPrefix = "git status"` + "\n" + `decision = "ask_user"`, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			f := NewFake(Call{Command: step})
			defer f.Close()
			gem := filepath.Join(w.home, ".gemini")
			must(t, os.MkdirAll(filepath.Join(gem, "policies"), 0o755))
			must(t, os.WriteFile(filepath.Join(gem, "settings.json"), []byte(geminiSettings), 0o644))
			if tc.rule != "" {
				rule := "[[rule]]\ntoolName = \"run_shell_command\"\n" + tc.rule + "\npriority = 500\n"
				must(t, os.WriteFile(filepath.Join(gem, "policies", "mine.toml"), []byte(rule), 0o644))
			}
			if tc.sayso {
				w.install(t, "gemini")
			}
			out := w.run(t, bin, []string{"GOOGLE_GEMINI_BASE_URL=" + f.URL, "GEMINI_API_KEY=fake-key", "GEMINI_CLI_TRUST_WORKSPACE=true"},
				"-m", "gemini-2.5-pro", "--approval-mode", "yolo", "-o", "stream-json", "-p", "do the task")
			_, err := os.Stat(filepath.Join(w.proj, "ran.txt"))
			if ran := err == nil; ran != tc.runs {
				t.Errorf("%s ran: %v, want %v; results %q", step, ran, tc.runs, f.Results())
			}
			if tc.sayso && !tc.runs {
				// The model is told whose rule stopped the step.
				resultHas(t, f.Results(), "your own Gemini CLI rule #1 (")
			}
			if t.Failed() {
				t.Logf("gemini output:\n%s", out)
			}
		})
	}
}
