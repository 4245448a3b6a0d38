package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// startCodexTUI starts Codex's interactive terminal UI in tmux against
// the fake, in the world's project, at its prompt.
func (w *world) startCodexTUI(t *testing.T, f *Fake) *tui {
	t.Helper()
	bin := client(t, "codex")
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		testenv.Missing(t, "tmux is not installed: the interactive client cannot be driven")
	}
	codexConfig(t, w, f)
	// The project is trusted (no first-run screen), and the terminal UI
	// starts no app-server daemon that would outlive the test.
	cfg := filepath.Join(w.home, ".codex", "config.toml")
	b, err := os.ReadFile(cfg)
	must(t, err)
	must(t, os.WriteFile(cfg, append(b, []byte("\n[projects.\""+w.proj+"\"]\ntrust_level = \"trusted\"\n\n[features]\ndaemon_auto_start = false\n")...), 0o600))
	w.install(t, "codex")
	u := &tui{t: t, tmux: tmux, sock: filepath.Join(w.root, "tmux.sock"), env: w.env}
	argv := []string{"-c", w.proj, "env", "-i"}
	for _, kv := range w.env {
		if !strings.HasPrefix(kv, "TERM=") {
			argv = append(argv, kv)
		}
	}
	// Codex as installed: a trusted project gets its workspace-write
	// sandbox and asks before escalating.
	argv = append(argv, "TERM=xterm-256color", "FAKE_API_KEY=sk-fake", bin)
	u.start(argv...)
	u.waitFor("for shortcuts")
	return u
}

// TestSeed002ControlEpochCodexTUI guards seed 002 §1 and §3 (direct human
// input opens the control epoch; under controller "latest" only the
// current session acts) for Codex: the person types a prompt in Codex's
// terminal UI, and that session's step runs; a message queued for that
// terminal with 'codex queue' is not the person's (its lease line grants
// nothing); a 'codex exec' run after it is not the person, opens no epoch,
// and its step is denied.
func TestSeed002ControlEpochCodexTUI(t *testing.T) {
	for _, g := range gateways {
		t.Run(g.name, func(t *testing.T) { controlEpochCodexTUI(t, g.serve) })
	}
}

func controlEpochCodexTUI(t *testing.T, serve bool) {
	client(t, "codex")
	w := newWorld(t)
	if serve {
		w.serve(t)
	}
	config := filepath.Join(w.home, ".config", "sayso")
	must(t, os.MkdirAll(config, 0o700))
	must(t, os.WriteFile(filepath.Join(config, "policy.toml"), []byte("controller = \"latest\"\n"), 0o600))
	made := filepath.Join(w.proj, "made.txt")
	f := NewFake(Call{Command: "echo made > " + made})
	defer f.Close()
	tui := w.startCodexTUI(t, f)
	const said = "write made.txt please"
	tui.typeLine(said)
	// Codex's side requests can end a turn of the fake before the step's
	// result: wait for the turn's end and for the result, which the
	// client sends once the step has run (or sayso has refused it).
	testenv.Wait(t, "the turn to end and the step's result to reach the model", func() (bool, string) {
		results := strings.Join(f.Results(), "\n")
		if isClosed(f.Done()) && (strings.Contains(results, "Chunk ID") || strings.Contains(results, "sayso")) {
			return true, ""
		}
		return false, fmt.Sprintf("turn ended %v; results %q\nscreen:\n%s", isClosed(f.Done()), f.Results(), tui.screen())
	})
	if _, err := os.Stat(made); err != nil {
		t.Errorf("the step of the session the person typed in did not run: %v\nresults: %q", err, f.Results())
	}
	// Seed 002 §6: the terminal UI wrote its own tables into config.toml
	// on its first start; sayso's pin of its trust entries still holds.
	if b, err := os.ReadFile(filepath.Join(w.home, ".codex", "config.toml")); err != nil || !strings.Contains(string(b), "[tui]") {
		t.Logf("the terminal UI wrote no [tui] table this time (%v)", err)
	}
	if out, err := w.cli("doctor"); err != nil {
		t.Errorf("doctor after Codex's terminal UI ran: %v\n%s", err, out)
	}
	tuiSession := w.conversation(t)
	if ws := w.words(t, tuiSession.ID); len(ws) != 1 || ws[0].Text != said {
		t.Errorf("owner words of the terminal's session = %+v, want the typed prompt", ws)
	}

	// A message queued for the open terminal (codex queue, which any
	// program outside the wall can run) is a turn the person did not
	// type: no lease from its lease line, no owner words.
	out := w.run(t, client(t, "codex"), []string{"FAKE_API_KEY=sk-fake"}, "queue", "--thread", tuiSession.ID, "--message", "/sayso lease remote-write")
	var show string
	testenv.Wait(t, "the terminal to run the queued message (a second turn in its session)", func() (bool, string) {
		show = string(w.sayso(t, "session", "show", "--json", tuiSession.ID))
		return strings.Contains(show, `"turns": 2`), show + "\ncodex queue:\n" + out + "\nscreen:\n" + tui.screen()
	})
	if !strings.Contains(show, `"system": 1`) {
		t.Errorf("the queued message was not kept as the system's:\n%s", show)
	}
	if leases := string(w.sayso(t, "lease", "list")); !strings.Contains(leases, "no leases") {
		t.Errorf("a queued lease line granted a lease:\n%s", leases)
	}
	if ws := w.words(t, tuiSession.ID); len(ws) != 1 {
		t.Errorf("owner words after a queued message = %+v, want only the typed prompt", ws)
	}

	// codex exec is not the person: no epoch, and under "latest" its
	// step is denied.
	other := filepath.Join(w.proj, "other.txt")
	g := NewFake(Call{Command: "echo other > " + other})
	defer g.Close()
	cfg := filepath.Join(w.home, ".codex", "config.toml")
	b, err := os.ReadFile(cfg)
	must(t, err)
	must(t, os.WriteFile(cfg, []byte(strings.Replace(string(b), f.URL, g.URL, 1)), 0o600))
	out += w.run(t, client(t, "codex"), []string{"FAKE_API_KEY=sk-fake"}, "exec", "--json", "--skip-git-repo-check", "-C", w.proj,
		"write other.txt please")
	absent(t, other)
	resultHas(t, g.Results(), "controller")
	for _, s := range w.sessions(t) {
		if s.ID != tuiSession.ID {
			if ws := w.words(t, s.ID); len(ws) != 0 {
				t.Errorf("codex exec's session %s holds owner words %+v", s.ID, ws)
			}
		}
	}
	if t.Failed() {
		t.Logf("screen:\n%s\ncodex exec:\n%s\nledger:\n%s", tui.screen(), out, w.sayso(t, "log"))
	}
}
