package wall

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestWallStarter: the steps of a session start from one wall set up
// once (their parent is the same starter), and still see the files as
// they are when each starts: a credential the person writes after the
// wall was set up is hidden from the next step, a configuration replaced
// outside is read as it is now, and another profile gets a wall of its
// own.
func TestWallStarter(t *testing.T) {
	need(t)
	w := newWorld(t)
	sock := filepath.Join(w.state, "walls", "starter.sock")
	t.Cleanup(func() { EndSession(sock) })
	config := filepath.Join(w.home, ".gitconfig")
	must(t, os.WriteFile(config, []byte("[user]\n\tname = before\n"), 0o644))
	p := w.profile(Local)
	p.Session = sock
	parent := func(p Profile) string {
		t.Helper()
		r := w.run(t, p, w.root, "echo $PPID")
		if r.code != 0 {
			t.Fatalf("echo $PPID: %+v", r)
		}
		return strings.TrimSpace(r.stdout)
	}
	first := parent(p)
	if again := parent(p); again != first {
		t.Errorf("two steps of one profile started from %s and %s, want one starter", first, again)
	}
	read := w.profile(Read)
	read.Session = sock
	if other := parent(read); other == first {
		t.Errorf("a read step started from the local steps' starter %s", first)
	}

	aws := filepath.Join(w.home, ".aws", "credentials")
	must(t, os.MkdirAll(filepath.Dir(aws), 0o700))
	must(t, os.WriteFile(aws, []byte("aws-secret-written-later\n"), 0o600))
	if r := w.run(t, p, w.root, "cat "+quote(aws)); strings.Contains(r.stdout, "aws-secret-written-later") {
		t.Errorf("a credential written after the wall was set up was read: %+v", r)
	}

	if r := w.run(t, p, w.root, "cat "+quote(config)); !strings.Contains(r.stdout, "before") {
		t.Fatalf("read the configuration: %+v", r)
	}
	next := config + ".new"
	must(t, os.WriteFile(next, []byte("[user]\n\tname = after\n"), 0o644))
	must(t, os.Rename(next, config))
	if r := w.run(t, p, w.root, "cat "+quote(config)); !strings.Contains(r.stdout, "after") {
		t.Errorf("a configuration replaced outside was read as it was: %+v", r)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWallSignalReplacedStarter: a signal the client sends a step still
// reaches it after the starter that started it was replaced (a file the
// wall hides appeared, and the next step got a new starter).
func TestWallSignalReplacedStarter(t *testing.T) {
	need(t)
	w := newWorld(t)
	sock := filepath.Join(w.state, "walls", "replaced.sock")
	t.Cleanup(func() { EndSession(sock) })
	p := w.profile(Local)
	p.Session = sock
	started, got := filepath.Join(w.root, "started"), filepath.Join(w.root, "got")
	cmd := exec.Command("bash", "-c", p.Wrap("trap 'echo TERM > got; exit 3' TERM; echo $PPID > started; sleep 60 & wait", launcher(t)))
	cmd.Dir = w.root
	cmd.Env = append(os.Environ(), launcherEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	var first []byte
	testenv.Wait(t, "the long step to start", func() (bool, string) {
		select {
		case err := <-done:
			t.Fatalf("the long step ended before it started: %v", err)
		default:
		}
		b, err := os.ReadFile(started)
		first = b
		return len(b) > 0, fmt.Sprintf("%q (%v)", b, err)
	})

	aws := filepath.Join(w.home, ".aws", "credentials")
	must(t, os.MkdirAll(filepath.Dir(aws), 0o700))
	must(t, os.WriteFile(aws, []byte("written while a step ran\n"), 0o600))
	r := w.run(t, p, w.root, "echo $PPID")
	if r.code != 0 || strings.TrimSpace(r.stdout) == strings.TrimSpace(string(first)) {
		t.Fatalf("the next step did not get a new starter: %+v (the first step's parent was %s)", r, first)
	}

	// As a terminal does: to the client's process group, the launcher in it.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(testenv.Hang):
		t.Fatalf("the client did not end in %v after SIGTERM", testenv.Hang)
	}
	testenv.Wait(t, "the step of a replaced starter to get the signal the client sent", func() (bool, string) {
		b, err := os.ReadFile(got)
		return strings.TrimSpace(string(b)) == "TERM", fmt.Sprintf("%s holds %q (%v)", got, b, err)
	})
}
