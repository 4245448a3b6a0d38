package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpEverywhere: every command, and sayso itself, answers --help, -h
// and "sayso help CMD" with its usage on stdout and exit 0, and changes
// nothing: no state or configuration folder is made, no link is minted,
// nothing is served or installed.
func TestHelpEverywhere(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	t.Setenv("SAYSO_STATE_DIR", filepath.Join(root, "state"))
	t.Setenv("SAYSO_CONFIG_DIR", filepath.Join(root, "config"))
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Main(args, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getwd: func() (string, error) { return root, nil }})
		return code, out.String(), errb.String()
	}
	calls := [][]string{{"--help"}, {"-h"}, {"help"}, {"help", "help"}, {"--version"}, {"version"}}
	for _, c := range commands {
		calls = append(calls, []string{c.name, "--help"}, []string{c.name, "-h"}, []string{"help", c.name})
	}
	calls = append(calls, []string{"lease", "grant", "--help"}, []string{"hook", "claude", "-h"}, []string{"rule", "forget", "--help"})
	for _, args := range calls {
		code, out, errs := run(args...)
		want := "usage:"
		if args[len(args)-1] == "version" || args[0] == "--version" {
			want = "sayso "
		}
		if code != ExitOK || !strings.Contains(out, want) || errs != "" {
			t.Errorf("sayso %s = exit %d, stdout %q, stderr %q; want 0 and %q on stdout", strings.Join(args, " "), code, firstLine(out), errs, want)
		}
		if strings.Contains(out, "token=") {
			t.Errorf("sayso %s minted a login link", strings.Join(args, " "))
		}
	}
	for _, d := range []string{"state", "config", "home"} {
		if _, err := os.Stat(filepath.Join(root, d)); err == nil {
			t.Errorf("help made %s", d)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
