package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/wall"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestLauncher builds the launcher as it ships (static) and runs a step
// through it: the wall holds, and the step's output and status pass.
func TestLauncher(t *testing.T) {
	if err := wall.Probe(); err != nil {
		testenv.Missing(t, "the wall cannot be applied here: %v", err)
	}
	bin := filepath.Join(t.TempDir(), wall.LauncherName)
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if err := wall.Check(bin); err != nil {
		t.Fatalf("Check: %v", err)
	}
	// The project is outside /tmp, which a read step may write.
	home, _ := os.UserHomeDir()
	root, err := os.MkdirTemp(home, ".sayso-wall-cmd-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	p := wall.For(wall.Inputs{Home: home, Root: root, Scope: wall.Read})
	line := p.Wrap(`echo "in $SAYSO_WALL"; echo x > inside.txt; exit 7`, bin)
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("status: %v, want 7", err)
	}
	if !strings.Contains(string(out), "in read") || !strings.Contains(string(out), "inside.txt") {
		t.Errorf("output: %q", out)
	}
	if _, err := os.Stat(filepath.Join(root, "inside.txt")); err == nil {
		t.Errorf("a read step wrote into the project")
	}
	// Unknown flags and a missing command are refused before anything runs.
	for _, args := range [][]string{{"--bogus", "/x", "--", "true"}, {"--scope", "read"}} {
		if err := exec.Command(bin, args...).Run(); err == nil {
			t.Errorf("sayso-wall %q: nil error", args)
		}
	}
}

// TestDeps keeps the launcher small, since every walled step starts it
// twice: no database driver, no web, no shell parser.
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, banned := range []string{"modernc.org/sqlite", "database/sql", "net/http", "mvdan.cc/sh/v3/syntax", "github.com/sayso-dev/sayso/internal/policy"} {
		for _, dep := range strings.Fields(string(out)) {
			if dep == banned {
				t.Errorf("the launcher depends on %s", banned)
			}
		}
	}
}
