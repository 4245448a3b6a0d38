package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/wall"
)

// TestWallsSeenAgree: where the kernel would allow the wall but the
// launcher fails for this user (its first mount refused, as it was for
// every user but root), the wall is off — for the step's decision, for
// doctor (a fresh run) and for status (the remembered run) alike, with the
// launcher's own words as the reason; a step in auto then asks rather
// than being wrapped in a wall that runs nothing.
func TestWallsSeenAgree(t *testing.T) {
	if err := wall.Probe(); err != nil {
		testenv.Missing(t, "the wall cannot be applied here: %v", err)
	}
	dir := t.TempDir()
	t.Setenv("SAYSO_STATE_DIR", filepath.Join(dir, "state"))
	if err := os.MkdirAll(filepath.Join(dir, "state"), 0o700); err != nil {
		t.Fatal(err)
	}
	launcher := filepath.Join(dir, "sayso-wall")
	const why = "make mounts private: operation not permitted"
	if err := os.WriteFile(launcher, []byte("#!/bin/sh\necho 'sayso-wall: error: "+why+"' >&2\nexit 126\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	doctor := WallsAt(launcher, "/home/user", nil, true).State()
	status := WallsAt(launcher, "/home/user", nil, false).State()
	if doctor.On || status.On || !strings.Contains(doctor.Why, why) || doctor.Why != status.Why {
		t.Fatalf("doctor %+v, status %+v; want both off, with the launcher's reason", doctor, status)
	}
	dec, diag := policy.Evaluate(policy.Request{Command: "go test ./...", Mode: policy.ModeAuto, Wall: status,
		Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}})
	if dec != policy.Ask || !strings.Contains(strings.Join(diag.Reasons, "\n"), why) {
		t.Errorf("go test in auto without a working launcher: %v %q; want ask, naming %q", dec, diag.Reasons, why)
	}
	walls := WallsAt(launcher, "/home/user", nil, false)
	if _, ok := walls.Wrap(Step{Kind: KindShell, Agent: "codex", Cwd: "/home/user/project", Command: "ls"}, policy.Plan{Reach: policy.ReachProject, Root: "/home/user/project"}); ok {
		t.Error("a step was wrapped in a launcher that was seen to fail")
	}
}
