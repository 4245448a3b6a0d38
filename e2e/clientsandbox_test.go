package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestLauncherInCodexSandbox runs the launcher inside Codex's own
// workspace-write sandbox (codex sandbox), which lets a command write the
// project and the temp folder. Told it may be in a client's sandbox, the
// launcher adds what Landlock holds: a profile that writes only the temp
// folder keeps the step out of the project, which Codex's sandbox alone
// lets it write (the control). Without --in-client-sandbox it runs
// nothing there and fails with status 126.
func TestLauncherInCodexSandbox(t *testing.T) {
	bin := client(t, "codex")
	needWall(t)
	w := newWorld(t)
	must(t, os.MkdirAll(filepath.Join(w.home, ".codex"), 0o755))
	launcher := filepath.Join(filepath.Dir(sayso), "sayso-wall")
	tmp := filepath.Join(w.root, "tmp")
	step := "touch " + filepath.Join(w.proj, "in-project.txt") + "; touch " + filepath.Join(tmp, "in-tmp.txt") + "; echo ran"
	sandboxed := func(t *testing.T, argv ...string) (string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), testenv.Hang)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append([]string{"sandbox", "-c", `sandbox_mode="workspace-write"`, "--"}, argv...)...)
		cmd.Dir, cmd.Env = w.proj, w.env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("codex sandbox ran %v and was stopped:\n%s", testenv.Hang, out.String())
		}
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("codex sandbox: %v\n%s", err, out.String())
		}
		return out.String(), code
	}
	clean := func() {
		os.Remove(filepath.Join(w.proj, "in-project.txt"))
		os.Remove(filepath.Join(tmp, "in-tmp.txt"))
	}

	t.Run("control", func(t *testing.T) {
		clean()
		out, code := sandboxed(t, "bash", "-c", step)
		if _, err := os.Stat(filepath.Join(w.proj, "in-project.txt")); err != nil || code != 0 {
			t.Fatalf("Codex's sandbox alone did not let the step write the project (status %d, %v): the test sees nothing\n%s", code, err, out)
		}
	})
	t.Run("landlock", func(t *testing.T) {
		clean()
		out, code := sandboxed(t, launcher, "--scope", "read", "--write", tmp, "--write", "/dev/null", "--in-client-sandbox", "--", step)
		if !strings.Contains(out, "ran") || code != 0 {
			t.Errorf("the step did not run in Codex's sandbox (status %d):\n%s", code, out)
		}
		absent(t, filepath.Join(w.proj, "in-project.txt"))
		if _, err := os.Stat(filepath.Join(tmp, "in-tmp.txt")); err != nil {
			t.Errorf("the step could not write what its profile lets it write: %v\n%s", err, out)
		}
	})
	t.Run("no-terminal", func(t *testing.T) {
		// On a terminal (script gives the client one), the step sees none:
		// what is typed into it later was never decided on.
		needTools(t, "script")
		line := strings.Join([]string{bin, "sandbox", "-c", `'sandbox_mode="workspace-write"'`, "--", launcher, "--scope", "read", "--write", tmp, "--write", "/dev/null", "--in-client-sandbox", "--", `'tty; cat /dev/tty; echo done'`}, " ")
		ctx, cancel := context.WithTimeout(context.Background(), testenv.Hang)
		defer cancel()
		cmd := exec.CommandContext(ctx, "script", "-qec", line, "/dev/null")
		cmd.Dir, cmd.Env = w.proj, w.env
		out, _ := cmd.CombinedOutput()
		if ctx.Err() != nil {
			t.Fatalf("the step waited on the terminal:\n%s", out)
		}
		if !strings.Contains(string(out), "not a tty") || !strings.Contains(string(out), "done") {
			t.Errorf("the step saw the client's terminal:\n%s", out)
		}
	})
	t.Run("no-fallback", func(t *testing.T) {
		clean()
		out, code := sandboxed(t, launcher, "--scope", "local", "--write", tmp, "--write", w.proj, "--", step)
		if code != 126 || strings.Contains(out, "ran") {
			t.Errorf("without --in-client-sandbox the launcher ran the step in Codex's sandbox (status %d):\n%s", code, out)
		}
		absent(t, filepath.Join(w.proj, "in-project.txt"))
		absent(t, filepath.Join(tmp, "in-tmp.txt"))
	})
}
