package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// driveTUI runs Claude Code's interactive terminal in tmux, types prompt as
// the person would and waits until the fake ends the turn. Only there does
// the client tell its hooks that a person is attending
// (CLAUDE_CODE_SESSION_ATTENDED=1): it overrides the variable in -p runs.
// A hook the client runs after the turn (a sub-agent's end) is the
// caller's to wait for, on what it records.
func (w *world) driveTUI(t *testing.T, f *Fake, prompt string) string {
	t.Helper()
	tui := w.startTUI(t, f)
	tui.typeLine(prompt)
	tui.waitDone(f)
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

// typeLine types text as the person would, then Enter. The client reads
// text and an Enter that come in one read as a paste, whose Enter is a
// new line: Enter goes once the screen shows the text, which the client
// has then read on its own.
func (u *tui) typeLine(text string) {
	u.t.Helper()
	shown := strings.TrimSpace(text)
	before := strings.Count(u.screen(), shown)
	u.run("send-keys", "-t", "e2e", "-l", text)
	testenv.Wait(u.t, "the terminal to show the typed "+shown, func() (bool, string) {
		sc := u.screen()
		return strings.Count(sc, shown) > before, sc
	})
	u.run("send-keys", "-t", "e2e", "Enter")
}

// keys sends keys by their tmux names (Escape, Enter, Down).
func (u *tui) keys(keys ...string) { u.run(append([]string{"send-keys", "-t", "e2e"}, keys...)...) }

// waitFor waits until the screen shows one of wants, and returns it.
func (u *tui) waitFor(wants ...string) string {
	u.t.Helper()
	var got string
	testenv.Wait(u.t, "the terminal to show one of "+strings.Join(wants, ", "), func() (bool, string) {
		sc := u.screen()
		for _, want := range wants {
			if strings.Contains(sc, want) {
				got = want
				return true, ""
			}
		}
		return false, sc
	})
	return got
}

// waitDone waits until the fake has ended the turn.
func (u *tui) waitDone(f *Fake) {
	u.t.Helper()
	testenv.Wait(u.t, "the fake model to end the turn", func() (bool, string) {
		if isClosed(f.Done()) {
			return true, ""
		}
		return false, "results " + strings.Join(f.Results(), "; ") + "\nscreen:\n" + u.screen()
	})
}

// start runs argv in a new tmux session and, when the test ends, stops
// tmux and waits until the client in the session has gone, before the
// world's folder is removed.
func (u *tui) start(argv ...string) {
	u.t.Helper()
	u.run(append([]string{"new-session", "-d", "-s", "e2e", "-x", "160", "-y", "50"}, argv...)...)
	pid := strings.TrimSpace(u.run("list-panes", "-t", "e2e", "-F", "#{pane_pid}"))
	u.t.Cleanup(func() {
		_ = exec.Command(u.tmux, "-S", u.sock, "kill-server").Run()
		testenv.Wait(u.t, "the client in tmux (pid "+pid+") to exit", func() (bool, string) {
			return gone(pid)
		})
	})
}

// gone reports whether process pid has exited: no such process, or one
// that is only a zombie its parent has not reaped yet.
func gone(pid string) (bool, string) {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return true, ""
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	stat := string(b)
	if i := strings.LastIndexByte(stat, ')'); i >= 0 && strings.HasPrefix(stat[i+1:], " Z") {
		return true, ""
	}
	return false, "it runs: " + stat
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
	argv := []string{"-c", w.proj, "env", "-i"}
	for _, kv := range w.env {
		if !strings.HasPrefix(kv, "TERM=") {
			argv = append(argv, kv)
		}
	}
	argv = append(argv, "TERM=xterm-256color", "ANTHROPIC_BASE_URL="+f.URL, "ANTHROPIC_API_KEY="+key,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		bin, "--permission-mode", "default")
	u.start(argv...)
	u.waitFor("for agents", "for shortcuts")
	return u
}
