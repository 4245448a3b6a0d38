package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/cli"
)

// TestCheckBadInput: input sayso cannot read gets a decision that is not
// allow, with a clear reason, never a crash or a hang.
func TestCheckBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, cmd, reason string }{
		{"empty", "", "empty command"},
		{"nul", "ls\x00rm -rf /", "NUL byte"},
		{"invalid utf-8", "ls \xff", "not valid UTF-8"},
		{"nested parentheses", strings.Repeat("(", 100000) + "ls" + strings.Repeat(")", 100000), "nests deeper"},
		{"10 MiB argument", "echo " + strings.Repeat("a", 10<<20), "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			// sayso's own folders in the test's, never the person's.
			state := []string{"--state-dir", dir + "/state", "--config-dir", dir + "/config"}
			code := cli.Main(append(state, "check", "--json", "--cwd", dir, "--root", dir, "--", tt.cmd), &cli.Env{Stdout: &out, Stderr: &errb})
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			var res struct {
				Decision string   `json:"decision"`
				Reasons  []string `json:"reasons"`
			}
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatal(err)
			}
			if res.Decision == "allow" {
				t.Errorf("decision = allow, want ask or deny")
			}
			if !strings.Contains(strings.Join(res.Reasons, " "), tt.reason) {
				t.Errorf("reasons %q do not say %q", res.Reasons, tt.reason)
			}
		})
	}
}
