package wall

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// launcherEnv makes the test binary act as the launcher, so that the
// tests run the launcher's own code without building it.
const launcherEnv = "SAYSO_WALL_TEST_LAUNCHER"

// helperEnv makes the test binary a small client run inside a wall:
// "dial ADDRESS" connects to a unix socket (a leading @ is abstract) and
// exits 0 when it could.
const helperEnv = "SAYSO_WALL_TEST_HELPER"

// programTestEnv with the one argument "parent" makes the test binary a
// program that says who started it and what bash set for it: its
// parent's name, then SHLVL and _ from its environment, a line each.
const programTestEnv = "SAYSO_WALL_TEST_PROGRAM"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(helper(os.Args[1:]))
	}
	if os.Getenv(programTestEnv) == "1" && len(os.Args) == 2 && os.Args[1] == "parent" {
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", os.Getppid()))
		fmt.Printf("%s%s\n%s\n", comm, os.Getenv("SHLVL"), os.Getenv("_"))
		os.Exit(0)
	}
	if os.Getenv(launcherEnv) == "1" {
		os.Exit(Main(os.Args[1:], os.Stderr))
	}
	os.Exit(m.Run())
}

func helper(args []string) int {
	if len(args) == 2 && args[0] == "dial" {
		c, err := net.Dial("unix", args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		c.Close()
		return 0
	}
	if len(args) == 2 && args[0] == "serve" {
		// serve ADDRESS answers "pong" to every line, until killed.
		ln, err := net.Listen("tcp", args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		for {
			c, err := ln.Accept()
			if err != nil {
				return 1
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 64)
				if n, _ := c.Read(buf); n > 0 {
					c.Write([]byte("pong\n"))
				}
			}()
		}
	}
	fmt.Fprintln(os.Stderr, "unknown helper", args)
	return 2
}

// need skips a test the kernel cannot run, or fails it under SAYSO_CI=1.
func need(t testing.TB) {
	t.Helper()
	if err := Probe(); err != nil {
		testenv.Missing(t, "the wall cannot be applied here: %v", err)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		testenv.Missing(t, "bash is not installed: %v", err)
	}
}

// launcher is the path of this test binary, run as the launcher.
func launcher(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// result is what a client's shell saw of one line.
type result struct {
	stdout, stderr string
	code           int
	cwd            string // the final folder the client recorded, "" if none
}

// client runs line as Claude Code runs a step: in its own bash, under
// eval, from dir, recording the final physical folder when it ends.
func client(t testing.TB, dir, line, stdin string, env ...string) result {
	t.Helper()
	cwdFile := filepath.Join(t.TempDir(), "cwd")
	script := `__d=$1 __l=$2 __c=$3; set --; cd "$__d" || exit 99; eval "$__l" && pwd -P >| "$__c"`
	cmd := exec.Command("bash", "-c", script, "bash", dir, line, cwdFile)
	cmd.Env = append(os.Environ(), launcherEnv+"=1")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run bash: %v", err)
	}
	if b, err := os.ReadFile(cwdFile); err == nil {
		r.cwd = string(b)
	}
	return r
}
