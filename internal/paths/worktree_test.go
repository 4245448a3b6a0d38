package paths

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestWorktrees: what git worktree list lists, from the main work tree and
// from a linked one; a forged worktrees entry naming a folder whose .git
// does not lead back is not the project's.
func TestWorktrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git: %v", err)
	}
	dir := t.TempDir()
	main, wt := filepath.Join(dir, "main"), filepath.Join(dir, "wt")
	run := func(d string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = d
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.Mkdir(main, 0o755); err != nil {
		t.Fatal(err)
	}
	run(main, "init", "-q")
	run(main, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x")
	run(main, "worktree", "add", "-q", wt)
	// A forged entry: its gitdir names a folder whose .git names another.
	forged := filepath.Join(main, ".git", "worktrees", "forged")
	victim := filepath.Join(dir, "victim")
	if err := os.MkdirAll(forged, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(forged, "gitdir"), []byte(filepath.Join(victim, ".git")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	if got := Worktrees(main); !slices.Equal(got, []string{wt}) {
		t.Errorf("Worktrees(main) = %q, want %q", got, []string{wt})
	}
	if got := Worktrees(wt); !slices.Equal(got, []string{main}) {
		t.Errorf("Worktrees(wt) = %q, want %q", got, []string{main})
	}
	if got := Worktrees(victim); got != nil {
		t.Errorf("Worktrees(no repository) = %q, want nil", got)
	}
}
