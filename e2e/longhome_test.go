package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongHome: a person whose home's path is 150 bytes long, so that
// sayso serve's socket and each session wall's pass the 107 bytes a
// socket's address holds. Installed and served there, Claude Code's
// allowed shell step runs in the wall and its output reaches the model;
// a push still waits on the person. Judged by the file the step makes,
// the model's tool result and the bare marker of the push.
func TestLongHome(t *testing.T) {
	client(t, "claude")
	w := newWorld(t)
	pad := 150 - len(filepath.Join(w.root, "home")) - 2
	long := filepath.Join(w.root, strings.Repeat("h", pad/2), strings.Repeat("o", pad-pad/2), "home")
	must(t, os.MkdirAll(filepath.Dir(long), 0o755))
	must(t, os.Rename(w.home, long))
	for i, kv := range w.env {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(v, w.home) {
			w.env[i] = k + "=" + long + strings.TrimPrefix(v, w.home)
		}
	}
	w.home, w.state = long, filepath.Join(long, ".local", "state", "sayso")
	if len(w.home) != 150 {
		t.Fatalf("the home is %d bytes long, want 150", len(w.home))
	}
	w.serve(t)
	f := NewFake(Call{Command: "echo walled > ran.txt && echo step-output"}, Call{Command: "git push origin main"})
	defer f.Close()
	out := w.drive(t, "claude", f, "do the task")
	if b, err := os.ReadFile(filepath.Join(w.proj, "ran.txt")); err != nil || string(b) != "walled\n" {
		t.Errorf("the allowed step did not run: %q, %v", b, err)
	}
	resultHas(t, f.Results(), "step-output")
	absent(t, w.marker)
	if t.Failed() {
		t.Logf("claude:\n%s\nledger:\n%s", out, w.sayso(t, "log"))
	}
}
