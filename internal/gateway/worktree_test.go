package gateway

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestWorktreeInScope: a work tree of the project's repository (git
// worktree add) is in scope from the main one and the main one from it;
// a folder beside them that is no work tree is not.
func TestWorktreeInScope(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git: %v", err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	// All lie in the home: the test's temporary folder is itself a place
	// every step may write, the home in it is not.
	home := filepath.Join(dir, "home")
	main, wt, other := filepath.Join(home, "main"), filepath.Join(home, "wt"), filepath.Join(home, "other")
	for _, d := range []string{main, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = main
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x")
	git("worktree", "add", "-q", wt)
	d := &Decider{DB: openTestStore(t), Home: home, ConfigDir: home, Walls: hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: home}}
	for _, tt := range []struct {
		cwd, cmd string
		safe     bool
	}{
		{main, "rm -rf " + wt + "/build", true},
		{main, "echo x > ../wt/notes.txt", true},
		{wt, "rm -rf ../main/build", true},
		{main, "rm -rf " + other + "/build", false},
		{main, "rm -rf " + wt, false}, // a whole work tree
	} {
		req, err := d.Request(ctx, client.Step{Agent: "claude", Tool: "Bash", Command: tt.cmd, Cwd: tt.cwd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, diag := policy.Evaluate(req)
		if got := risk.Safe(diag.Assessment.Classes); got != tt.safe {
			t.Errorf("in %s: %s = %v, want safe %v", filepath.Base(tt.cwd), tt.cmd, diag.Assessment.Classes, tt.safe)
		}
	}
}
