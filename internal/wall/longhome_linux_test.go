package wall

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/unixsock"
)

// TestWallLongHome: a home whose path is 150 bytes long puts sayso's
// state folder, and in it sayso serve's socket and each session wall's,
// past the 107 bytes a socket's address holds. A session's steps still
// run in their wall, one holder for the session, the wall's report of a
// refused connection still reaches sayso serve's socket, and ending the
// session ends its holder: judged by the steps' output, the report and
// the holder's socket.
func TestWallLongHome(t *testing.T) {
	need(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	// newWorldIn makes the home at PARENT/.sayso-wall-test-NNN/home, NNN
	// nine digits or ten: the home is 150 bytes long, or 151.
	parent := filepath.Join(home, ".sayso-long-")
	parent += strings.Repeat("h", max(0, 150-len(parent)-len("/.sayso-wall-test-123456789/home")))
	must(t, os.MkdirAll(parent, 0o755))
	t.Cleanup(func() { os.RemoveAll(parent) })
	w := newWorldIn(t, parent)
	if len(w.home) < 150 {
		t.Fatalf("the home %s is %d bytes long, want 150", w.home, len(w.home))
	}
	ledger := filepath.Join(w.state, "sayso.sock")
	sock := filepath.Join(w.state, "walls", "0123456789abcdef0123.sock")
	t.Logf("home: %d bytes; sayso serve's socket: %d; the session's: %d", len(w.home), len(ledger), len(sock))
	if len(ledger) <= unixsock.MaxPath {
		t.Fatalf("sayso serve's socket is %d bytes long: the test needs it past %d", len(ledger), unixsock.MaxPath)
	}
	reports := make(chan Refusal, 4)
	ln, err := unixsock.Listen("unix", ledger)
	if err != nil {
		t.Fatalf("sayso serve's socket in a long home: %v", err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			var req struct {
				Agent string `json:"agent"`
				Input []byte `json:"input"`
			}
			if json.NewDecoder(c).Decode(&req) == nil && req.Agent == ReportAgent {
				var r Refusal
				if json.Unmarshal(req.Input, &r) == nil {
					reports <- r
				}
			}
			c.Write([]byte("{}\n"))
			c.Close()
		}
	}()
	t.Cleanup(func() { EndSession(sock) })
	p := w.profile(Local)
	p.Session, p.Ledger, p.SessionID = sock, ledger, "long-home"
	run := func(cmd string) result {
		t.Helper()
		return client(t, w.root, p.Wrap(cmd, launcher(t)), "", "HOME="+w.home, "TMPDIR="+sessionTemp(t))
	}
	if r := run("echo walled > made.txt && echo up"); r.code != 0 || !strings.Contains(r.stdout, "up") {
		t.Fatalf("the session's first step: %+v", r)
	}
	if b, err := os.ReadFile(filepath.Join(w.root, "made.txt")); err != nil || string(b) != "walled\n" {
		t.Errorf("the step's file in the project: %q, %v", b, err)
	}
	if fi, err := os.Lstat(sock); err != nil || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("no holder's socket at %s: %v", sock, err)
	}
	if r := run("cat " + quote(filepath.Join(w.state, "sayso.db"))); r.code == 0 || strings.Contains(r.stdout, "the ledger") {
		t.Errorf("the session's step read sayso's state folder: %+v", r)
	}
	s := newSink(t)
	if r := run(reachSink(s.port)); !strings.Contains(r.stdout, "403") {
		t.Errorf("the proxy did not refuse 127.0.0.1: %+v", r)
	}
	testenv.Wait(t, "the refusal's report on sayso serve's socket", func() (bool, string) {
		select {
		case r := <-reports:
			if r.Host != "127.0.0.1" || r.Session != "long-home" {
				t.Errorf("report: %+v", r)
			}
			return true, ""
		default:
			return false, "no report"
		}
	})
	s.settle(t)
	if got := s.received(); len(got) > 0 {
		t.Errorf("the listener received %q from a walled step", got)
	}
	if err := EndSession(sock); err != nil {
		t.Fatalf("end the session: %v", err)
	}
	testenv.Wait(t, "the holder to remove its socket", func() (bool, string) {
		_, err := os.Lstat(sock)
		return errors.Is(err, os.ErrNotExist), "lstat: " + errString(err)
	})
}

func errString(err error) string {
	if err == nil {
		return "the socket is there"
	}
	return err.Error()
}
