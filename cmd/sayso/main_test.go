package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sayso-dev/sayso/internal/cli"
	"github.com/sayso-dev/sayso/internal/wall"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sayso": func() {
			// As main.go: an interrupt ends a long command (serve, log
			// --follow) through its context.
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			code := cli.Main(os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Context: ctx})
			stop()
			os.Exit(code)
		},
		"fake-reviewer": func() { os.Exit(fakeReviewer()) },
		"claude":        func() { os.Exit(fakeClient("claude")) },
		"codex":         func() { os.Exit(fakeClient("codex")) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script. Each sets
// HOME, SAYSO_CONFIG_DIR and SAYSO_STATE_DIR inside its own work folder.
//
// The wall's launcher is put beside the sayso the scripts run, where
// sayso finds it beside itself, so the scripts see steps handed back
// walled as an installed sayso hands them.
func TestScripts(t *testing.T) {
	launcher := filepath.Join(t.TempDir(), "sayso-wall")
	build := exec.Command("go", "build", "-o", launcher, "github.com/sayso-dev/sayso/cmd/sayso-wall")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the launcher: %v\n%s", err, out)
	}
	var placed sync.Once
	var placeErr error
	// [wall] holds where the launcher sets up its wall for this user on
	// this kernel, as sayso doctor finds it.
	walls := sync.OnceValue(func() bool {
		return wall.Verified(launcher, filepath.Join(t.TempDir(), wall.SeenFile), true) == nil
	})
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Condition: func(cond string) (bool, error) {
			if cond == "wall" {
				return walls(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// sleep D gives a command started in the background time to
			// start (a follower's first read of the ledger).
			"sleep": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: sleep DURATION")
				}
				d, err := time.ParseDuration(args[0])
				ts.Check(err)
				time.Sleep(d)
			},
			// waitfile PATH waits, a minute at most, for a file a command
			// started in the background writes once it is up (sayso
			// serve's serve.json): a busy machine can take seconds.
			"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: waitfile PATH")
				}
				path := ts.MkAbs(args[0])
				for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
					if _, err := os.Stat(path); err == nil {
						return
					}
					if time.Now().After(deadline) {
						ts.Fatalf("%s did not appear within a minute", path)
					}
				}
			},
		},
		Setup: func(e *testscript.Env) error {
			placed.Do(func() { placeErr = besideSayso(e.Getenv("PATH"), launcher) })
			if placeErr != nil {
				return placeErr
			}
			e.Setenv("HOME", e.WorkDir+"/home")
			e.Setenv("SAYSO_CONFIG_DIR", e.WorkDir+"/home/.config/sayso")
			e.Setenv("SAYSO_STATE_DIR", e.WorkDir+"/home/.local/state/sayso")
			e.Setenv("XDG_CONFIG_HOME", "")
			e.Setenv("XDG_STATE_HOME", "")
			return os.MkdirAll(e.WorkDir+"/home", 0o755)
		},
	})
}

// besideSayso copies the launcher into the folder of the first sayso on
// path.
func besideSayso(path, launcher string) error {
	for _, dir := range filepath.SplitList(path) {
		if _, err := os.Stat(filepath.Join(dir, "sayso")); err != nil {
			continue
		}
		b, err := os.ReadFile(launcher)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "sayso-wall"), b, 0o755)
	}
	return fmt.Errorf("no sayso on PATH %s", path)
}
