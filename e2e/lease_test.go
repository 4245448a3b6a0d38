package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// cli runs the person's CLI in the world's terminal.
func (w *world) cli(args ...string) ([]byte, error) {
	cmd := exec.Command(sayso, args...)
	cmd.Dir, cmd.Env = w.proj, w.env
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("sayso %s: %w", strings.Join(args, " "), err)
	}
	return out, nil
}

// sayso runs the person's CLI and fails the test when it fails.
func (w *world) sayso(t testing.TB, args ...string) []byte {
	t.Helper()
	out, err := w.cli(args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out
}

// serve starts 'sayso serve' in the world and waits for its socket; it
// stops when the test ends. Nobody answers its cards: a question times out
// after a second and the hook answers as it would without the gateway.
func (w *world) serve(t testing.TB) { w.serveFor(t, "1s") }

// serveFor starts 'sayso serve' with cards that wait at most cardTimeout.
func (w *world) serveFor(t testing.TB, cardTimeout string) {
	t.Helper()
	// The page needs a port of its own: take a free one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := ln.Addr().String()
	ln.Close()
	w.addr = addr
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, sayso, "serve", "--addr", addr, "--card-timeout", cardTimeout)
	cmd.Dir, cmd.Env = w.proj, w.env
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	must(t, err)
	cmd.Stderr = cmd.Stdout
	must(t, cmd.Start())
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// It is up once it says so: every listener is open.
	var said []string
	deadline := time.After(testenv.Hang)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("sayso serve stopped before it served:\n%s", strings.Join(said, "\n"))
			}
			said = append(said, l)
			if strings.Contains(l, "hooks on") {
				go func() {
					for range lines {
					}
				}()
				return
			}
		case <-deadline:
			t.Fatalf("waited %v for sayso serve to say it is ready; it said:\n%s", testenv.Hang, strings.Join(said, "\n"))
		}
	}
}

// sessions lists the store's sessions through the person's CLI.
func (w *world) sessions(t *testing.T) []store.Session {
	t.Helper()
	var ss []store.Session
	if err := json.Unmarshal(w.sayso(t, "session", "list", "--json"), &ss); err != nil {
		t.Fatalf("session list --json: %v", err)
	}
	return ss
}

// conversation is the one session the client opened that is not a task.
func (w *world) conversation(t *testing.T) store.Session {
	t.Helper()
	for _, s := range w.sessions(t) {
		if s.Parent == "" {
			return s
		}
	}
	t.Fatal("the client's prompt made no session in the store")
	return store.Session{}
}

// words reads a session's owner words straight from the store, after the run.
func (w *world) words(t *testing.T, session string) []store.Message {
	t.Helper()
	// The store may be busy with a hook's write: only a hang outlasts it.
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Hang)
	defer cancel()
	db, err := store.Open(ctx, filepath.Join(w.state, store.FileName))
	must(t, err)
	defer db.Close()
	ms, err := db.OwnerWords(ctx, session)
	must(t, err)
	return ms
}

// pushes returns the pushes the world's git recorded, one a line.
func (w *world) pushes() []string {
	b, _ := os.ReadFile(w.marker)
	return strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' })
}

// drive installs sayso for the client and runs it once, headless, on
// prompt against the fake. attended marks the run as the person's own
// terminal (CLAUDE_CODE_SESSION_ATTENDED=1) where the client lets it.
func (w *world) drive(t *testing.T, name string, f *Fake, prompt string, extra ...string) string {
	t.Helper()
	bin := client(t, name)
	switch name {
	case "claude":
		w.install(t, "claude")
		return w.run(t, bin, append([]string{
			"ANTHROPIC_BASE_URL=" + f.URL, "ANTHROPIC_API_KEY=sk-ant-e2e",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		}, extra...), "-p", prompt, "--output-format", "json")
	case "codex":
		codexHome := filepath.Join(w.home, ".codex")
		must(t, os.MkdirAll(codexHome, 0o755))
		must(t, os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(`model = "fake-model"
model_provider = "fake"

[analytics]
enabled = false

[model_providers.fake]
name = "Fake"
base_url = "`+f.URL+`/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0
`), 0o600))
		w.install(t, "codex")
		// Codex as people run it; the steps of these tests write the
		// project and record a push beside it, so in its workspace-write
		// sandbox (exec's default, read-only, would refuse every write).
		return w.run(t, bin, append([]string{"FAKE_API_KEY=sk-fake"}, extra...), "exec", "--json", "--skip-git-repo-check", "-C", w.proj,
			"-s", "workspace-write", prompt)
	case "gemini":
		must(t, os.MkdirAll(filepath.Join(w.home, ".gemini"), 0o755))
		must(t, os.WriteFile(filepath.Join(w.home, ".gemini", "settings.json"), []byte(`{"general":{"disableAutoUpdate":true,"disableUpdateNag":true},
 "privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},
 "security":{"auth":{"selectedType":"gemini-api-key"}}}`), 0o644))
		w.install(t, "gemini")
		return w.run(t, bin, append([]string{"GOOGLE_GEMINI_BASE_URL=" + f.URL, "GEMINI_API_KEY=fake-key", "GEMINI_CLI_TRUST_WORKSPACE=true"}, extra...),
			"-m", "gemini-2.5-pro", "--approval-mode", "yolo", "-o", "stream-json", "-p", prompt)
	}
	t.Fatalf("no client %s", name)
	return ""
}

// gateways runs a case without the gateway (the hook opens the store) and
// with 'sayso serve' running (the hook hands the step over the socket).
var gateways = []struct {
	name  string
	serve bool
}{{"store", false}, {"gateway", true}}

// TestLeasePushOnce: the person's prompt, then a lease the person grants in
// their terminal while the agent works; the agent pushes a branch twice.
// The lease lets exactly one push through: the marker holds one push, and
// the second push's result is sayso's reason.
func TestLeasePushOnce(t *testing.T) {
	for _, name := range []string{"claude", "codex", "gemini"} {
		for _, g := range gateways {
			t.Run(name+"/"+g.name, func(t *testing.T) {
				client(t, name)
				w := newWorld(t)
				if g.serve {
					w.serve(t)
				}
				push := Call{Command: "git push origin feature/x"}
				f := NewFake(push, push)
				defer f.Close()
				var mu sync.Mutex // Before runs on the fake's goroutine
				var granted []byte
				var grantErr error
				f.Before(func(i int) {
					if i != 0 {
						return
					}
					mu.Lock()
					defer mu.Unlock()
					// The prompt's hook has run: its session is in the store.
					var ss []store.Session
					out, err := w.cli("session", "list", "--json")
					if err == nil {
						err = json.Unmarshal(out, &ss)
					}
					if err != nil || len(ss) == 0 {
						grantErr = fmt.Errorf("no session after the prompt: %v %s", err, out)
						return
					}
					granted, grantErr = w.cli("lease", "grant", "remote-write", "--session", ss[0].ID, "--cwd", w.proj)
				})
				out := w.drive(t, name, f, "push my branch feature/x to origin")
				mu.Lock()
				defer mu.Unlock()
				if grantErr != nil {
					t.Fatalf("grant the lease: %v\n%s", grantErr, granted)
				}
				if got := w.pushes(); len(got) != 1 {
					t.Errorf("pushes that ran: %q, want exactly one", got)
				}
				results := f.Results()
				if len(results) < 2 {
					t.Errorf("the model got %d tool results, want 2: %q", len(results), results)
				} else {
					resultHas(t, results[len(results)-1:], "sayso")
				}
				leases := string(w.sayso(t, "lease", "list", "--all"))
				if !strings.Contains(leases, "consumed") {
					t.Errorf("the lease was not consumed:\n%s", leases)
				}
				if t.Failed() {
					t.Logf("lease: %s\nleases:\n%s\n%s output:\n%s\nledger:\n%s", granted, leases, name, out, w.sayso(t, "log"))
				}
			})
		}
	}
}

// TestClaudeCodeTaskWords: the person types a prompt in Claude Code's
// terminal, then the model starts a sub-agent. SubagentStart creates the
// task from its parent with a frozen copy of the person's words, each
// marked from_parent; the task's own prompt is stored as delegated, the
// sub-agent's step is decided in the task's session, and SubagentStop
// ends the task.
func TestClaudeCodeTaskWords(t *testing.T) {
	for _, g := range gateways {
		t.Run(g.name, func(t *testing.T) {
			client(t, "claude")
			w := newWorld(t)
			if g.serve {
				w.serve(t)
			}
			f := NewFake(Call{Task: SubagentMark + ": list the files", Sub: []Call{{Command: "ls"}}})
			defer f.Close()
			const said = "list my files"
			out := w.driveTUI(t, f, said)
			parent := w.conversation(t)
			if ws := w.words(t, parent.ID); len(ws) == 0 || ws[0].Text != said || ws[0].FromParent {
				t.Errorf("session %s owner words = %+v, want the person's %q first", parent.ID, ws, said)
			}
			var task store.Session
			for _, s := range w.sessions(t) {
				if s.Parent == parent.ID {
					task = s
				}
			}
			if task.ID == "" {
				t.Fatalf("no task of session %s in the store: %+v\n%s", parent.ID, w.sessions(t), out)
			}
			if ws := w.words(t, task.ID); len(ws) != 1 || ws[0].Text != said || !ws[0].FromParent {
				t.Errorf("task %s owner words = %+v, want the parent's %q marked from_parent (copy: %s)", task.ID, ws, said, task.CopyWhy)
			}
			// SubagentStop ends the task: it no longer counts against
			// max_parallel (seed 004 §1). The client may run that hook
			// as the turn ends: wait for the row it writes.
			var log string
			testenv.Wait(t, "the client's SubagentStop to end task "+task.ID, func() (bool, string) {
				log = string(w.sayso(t, "log", "--session", task.ID))
				return strings.Contains(log, "task "+task.ID+" ended"), log
			})
			if !strings.Contains(log, "allow ls") {
				t.Errorf("the sub-agent's step is not in the ledger under task %s:\n%s", task.ID, log)
			}
			resultHas(t, f.Results(), "e2e-readme.txt")
			if t.Failed() {
				t.Logf("screen:\n%s\nledger:\n%s", out, w.sayso(t, "log"))
			}
		})
	}
}

// TestClaudeCodeTaskNotification: in the terminal, Claude Code runs a
// sub-agent in the background and, when it finishes, hands its result to
// the main conversation as a UserPromptSubmit in the attended session. The
// sub-agent's words are not the person's: they must not become owner words
// (nor open an epoch that revokes the person's leases).
func TestClaudeCodeTaskNotification(t *testing.T) {
	client(t, "claude")
	w := newWorld(t)
	f := NewFake(Call{Task: SubagentMark + ": list the files", Sub: []Call{{Command: "ls"}}})
	defer f.Close()
	const said = "list my files"
	out := w.driveTUI(t, f, said)
	// The notification comes after the turn: wait for the turn it starts.
	// The client sends that turn to the model only once the
	// UserPromptSubmit hook that would have kept its words has run.
	testenv.Wait(t, "the turn the sub-agent's notification starts to reach the model", func() (bool, string) {
		return f.Ends() >= 2, fmt.Sprintf("%d turns ended", f.Ends())
	})
	parent := w.conversation(t)
	for _, m := range w.words(t, parent.ID) {
		if m.Text != said {
			t.Errorf("session %s holds owner words the person did not type: %.120q", parent.ID, m.Text)
		}
	}
	if t.Failed() {
		t.Logf("screen:\n%s\nledger:\n%s", out, w.sayso(t, "log"))
	}
}
