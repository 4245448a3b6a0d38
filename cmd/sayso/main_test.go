package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sayso-dev/sayso/internal/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sayso": func() {
			os.Exit(cli.Main(os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
		},
		"fake-reviewer": func() { os.Exit(fakeReviewer()) },
		"claude":        func() { os.Exit(fakeClient("claude")) },
		"codex":         func() { os.Exit(fakeClient("codex")) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script. Each sets
// HOME, SAYSO_CONFIG_DIR and SAYSO_STATE_DIR inside its own work folder.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(e *testscript.Env) error {
			e.Setenv("HOME", e.WorkDir+"/home")
			e.Setenv("SAYSO_CONFIG_DIR", e.WorkDir+"/home/.config/sayso")
			e.Setenv("SAYSO_STATE_DIR", e.WorkDir+"/home/.local/state/sayso")
			e.Setenv("XDG_CONFIG_HOME", "")
			e.Setenv("XDG_STATE_HOME", "")
			return os.MkdirAll(e.WorkDir+"/home", 0o755)
		},
	})
}
