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
	tui := w.startTUI(t, f)
	tui.typeLine(prompt)
	select {
	case <-f.Done():
	case <-time.After(90 * time.Second):
		t.Errorf("the turn did not end in 90s")
	}
	time.Sleep(500 * time.Millisecond) // let the last hook finish
	return tui.screen()
}

// tui is a client's interactive terminal running in tmux.
type tui struct {
	t    *testing.T
	tmux string
	sock string
	env  []string
}

func (u *tui) run(args ...string) string {
	u.t.Helper()
	cmd := exec.Command(u.tmux, append([]string{"-S", u.sock}, args...)...)
	cmd.Env = u.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		u.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the terminal shows.
func (u *tui) screen() string { return u.run("capture-pane", "-p", "-t", "e2e") }

// typeLine types text as the person would, then Enter.
func (u *tui) typeLine(text string) {
	u.run("send-keys", "-t", "e2e", "-l", text)
	time.Sleep(300 * time.Millisecond) // the TUI takes pasted text and Enter apart
	u.run("send-keys", "-t", "e2e", "Enter")
}

// keys sends keys by their tmux names (Escape, Enter, Down).
func (u *tui) keys(keys ...string) { u.run(append([]string{"send-keys", "-t", "e2e"}, keys...)...) }

// waitFor waits until the screen shows one of wants, and returns it.
func (u *tui) waitFor(d time.Duration, wants ...string) string {
	u.t.Helper()
	deadline := time.Now().Add(d)
	for {
		sc := u.screen()
		for _, want := range wants {
			if strings.Contains(sc, want) {
				return want
			}
		}
		if time.Now().After(deadline) {
			u.t.Fatalf("the screen did not show %q in %v:\n%s", wants, d, sc)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// startTUI installs sayso for Claude Code and starts its interactive
// terminal against the fake, past its first-run screens, at its prompt.
func (w *world) startTUI(t *testing.T, f *Fake) *tui {
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
	u := &tui{t: t, tmux: tmux, sock: filepath.Join(w.root, "tmux.sock"), env: w.env}
	argv := []string{"new-session", "-d", "-s", "e2e", "-x", "160", "-y", "50", "-c", w.proj, "env", "-i"}
	for _, kv := range w.env {
		if !strings.HasPrefix(kv, "TERM=") {
			argv = append(argv, kv)
		}
	}
	argv = append(argv, "TERM=xterm-256color", "ANTHROPIC_BASE_URL="+f.URL, "ANTHROPIC_API_KEY="+key,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		bin, "--permission-mode", "default")
	u.run(argv...)
	pid := strings.TrimSpace(u.run("list-panes", "-t", "e2e", "-F", "#{pane_pid}"))
	t.Cleanup(func() {
		// Stop the client and wait for it to go before the folder is removed.
		_ = exec.Command(tmux, "-S", u.sock, "kill-server").Run()
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			if _, err := os.Stat("/proc/" + pid); err != nil {
				return
			}
		}
	})
	u.waitFor(60*time.Second, "for agents", "for shortcuts")
	return u
}
