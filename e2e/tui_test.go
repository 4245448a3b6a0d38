package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// driveTUI runs Claude Code's interactive terminal in tmux, types prompt as
// the person would and waits until the fake ends the turn. Only there does
// the client tell its hooks that a person is attending
// (CLAUDE_CODE_SESSION_ATTENDED=1): it overrides the variable in -p runs.
func (w *world) driveTUI(t *testing.T, f *Fake, prompt string) string {
	t.Helper()
	bin := client(t, "claude")
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		testenv.Missing(t, "tmux is not installed: the interactive client cannot be driven")
	}
	w.install(t, "claude")
	const key = "sk-ant-e2e-0123456789abcdef"
	// Skip the first-run screens: onboarding, the key's approval (by its
	// last 20 characters) and the folder's trust.
	must(t, os.WriteFile(filepath.Join(w.home, ".claude.json"), []byte(`{"hasCompletedOnboarding":true,"theme":"dark",
 "customApiKeyResponses":{"approved":["`+key[len(key)-20:]+`"],"rejected":[]},
 "projects":{"`+w.proj+`":{"hasTrustDialogAccepted":true}}}`), 0o600))
	sock := filepath.Join(w.root, "tmux.sock")
	argv := []string{"-S", sock, "new-session", "-d", "-s", "e2e", "-x", "160", "-y", "50", "-c", w.proj, "env", "-i"}
	for _, kv := range w.env {
		if !strings.HasPrefix(kv, "TERM=") {
			argv = append(argv, kv)
		}
	}
	argv = append(argv, "TERM=xterm-256color", "ANTHROPIC_BASE_URL="+f.URL, "ANTHROPIC_API_KEY="+key,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		bin, "--permission-mode", "default")
	tm := func(args ...string) string {
		cmd := exec.Command(tmux, args...)
		cmd.Env = w.env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	tm(argv...)
	pid := strings.TrimSpace(tm("-S", sock, "list-panes", "-t", "e2e", "-F", "#{pane_pid}"))
	t.Cleanup(func() {
		// Stop the client and wait for it to go before the folder is removed.
		_ = exec.Command(tmux, "-S", sock, "kill-server").Run()
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			if _, err := os.Stat("/proc/" + pid); err != nil {
				return
			}
		}
	})
	screen := func() string { return tm("-S", sock, "capture-pane", "-p", "-t", "e2e") }
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(screen(), "for agents") && !strings.Contains(screen(), "for shortcuts") {
		if time.Now().After(deadline) {
			t.Fatalf("the client's prompt did not appear:\n%s", screen())
		}
		time.Sleep(200 * time.Millisecond)
	}
	tm("-S", sock, "send-keys", "-t", "e2e", "-l", prompt)
	time.Sleep(300 * time.Millisecond) // the TUI takes pasted text and Enter apart
	tm("-S", sock, "send-keys", "-t", "e2e", "Enter")
	select {
	case <-f.Done():
	case <-time.After(90 * time.Second):
		t.Errorf("the turn did not end in 90s")
	}
	time.Sleep(500 * time.Millisecond) // let the last hook finish
	return screen()
}
