package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sayso-dev/sayso/internal/cli"
	"github.com/sayso-dev/sayso/internal/testenv"
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
			// waitfile PATH waits for a file a command started in the
			// background writes once it is up.
			"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: waitfile PATH")
				}
				path := ts.MkAbs(args[0])
				wait(ts, path+" to appear", func() (bool, string) {
					_, err := os.Stat(path)
					return err == nil, fmt.Sprint(err)
				})
			},
			// waitgrep PATTERN FILE waits until FILE, which a command
			// started in the background writes, matches PATTERN (a
			// regular expression, in multi-line mode as grep's).
			"waitgrep": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: waitgrep PATTERN FILE")
				}
				re, err := regexp.Compile("(?m)" + args[0])
				ts.Check(err)
				path := ts.MkAbs(args[1])
				wait(ts, path+" to match "+args[0], func() (bool, string) {
					b, err := os.ReadFile(path)
					if err != nil {
						return false, err.Error()
					}
					return re.Match(b), fmt.Sprintf("%q", b)
				})
			},
			// waitserve waits until the sayso serve started in the
			// background serves: its page answers at the address it
			// announced in the state folder. It has then printed all it
			// says as it starts.
			"waitserve": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 0 {
					ts.Fatalf("usage: waitserve")
				}
				announced := filepath.Join(ts.Getenv("SAYSO_STATE_DIR"), "serve.json")
				wait(ts, "sayso serve's page to answer", func() (bool, string) {
					b, err := os.ReadFile(announced)
					if err != nil {
						return false, err.Error()
					}
					var r struct{ Page string }
					if err := json.Unmarshal(b, &r); err != nil || r.Page == "" {
						return false, fmt.Sprintf("%s: %v: %s", announced, err, b)
					}
					res, err := http.Get(r.Page)
					if err != nil {
						return false, err.Error()
					}
					res.Body.Close()
					return true, ""
				})
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

// wait polls ok until it holds, and fails the script when only a hang
// could have kept it from holding, with what ok last saw.
func wait(ts *testscript.TestScript, what string, ok func() (bool, string)) {
	start := time.Now()
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		done, saw := ok()
		if done {
			return
		}
		if time.Since(start) > testenv.Hang {
			ts.Fatalf("waited %v for %s; last saw: %s", time.Since(start).Round(time.Millisecond), what, saw)
		}
		time.Sleep(pause)
	}
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
