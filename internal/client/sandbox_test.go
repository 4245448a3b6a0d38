package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
)

// TestCodexSlashTmp: Codex's workspace-write lets its programs write /tmp
// unless exclude_slash_tmp says not, wherever this machine's temporary
// folder is. The sayso folder under /tmp is a name only: nothing is made
// there, and no $TMPDIR is set, so /tmp is the one root that can hold it.
func TestCodexSlashTmp(t *testing.T) {
	codex := t.TempDir()
	env := map[string]string{"CODEX_HOME": codex}
	target := Target{Home: t.TempDir(), Project: t.TempDir(), Getenv: func(k string) string { return env[k] }}
	dir := filepath.Join("/tmp", "sayso-test-not-made", "state")
	for _, tc := range []struct {
		config string
		want   bool
	}{
		{"sandbox_mode = \"workspace-write\"\n", true},
		{"sandbox_mode = \"workspace-write\"\n\n[sandbox_workspace_write]\nexclude_slash_tmp = true\n", false},
		{"sandbox_mode = \"read-only\"\n", false},
	} {
		if err := os.WriteFile(filepath.Join(codex, "config.toml"), []byte(tc.config), 0o600); err != nil {
			t.Fatal(err)
		}
		got := false
		for _, p := range Sandboxes(map[string]bool{"codex": true}, target, []string{dir}, policy.Wall{On: true}) {
			got = got || strings.Contains(p.What, "writable root /tmp:")
		}
		if got != tc.want {
			t.Errorf("config %q: a warning that /tmp holds %s = %v, want %v", tc.config, dir, got, tc.want)
		}
	}
}

// TestSandboxOffWithTheWall: a client's sandbox being off means what
// sayso's wall leaves open. With the wall working here, a shell step
// sayso lets run cannot write sayso's folders: the warning names what
// runs outside the wall. Without it, every program the agent runs can.
func TestSandboxOffWithTheWall(t *testing.T) {
	target := Target{Home: t.TempDir(), Project: t.TempDir(), Getenv: func(string) string { return "" }}
	for _, tc := range []struct {
		wall      policy.Wall
		want, not string
	}{
		{policy.Wall{On: true}, "the shell steps sayso lets run are inside sayso's wall, but what runs outside it can write anywhere you can, sayso's folders included: the client itself, its MCP servers and plugins, and a step you allow to run as root (sudo)", "a program the agent runs"},
		{policy.Wall{Why: "no user namespaces for this user"}, "and sayso's wall does not work here (no user namespaces for this user): a program the agent runs can write anywhere you can, sayso's folders included", "inside sayso's wall"},
	} {
		ps := Sandboxes(map[string]bool{"claude": true, "gemini": true}, target, nil, tc.wall)
		if len(ps) != 2 {
			t.Fatalf("wall %+v: %d warnings, want one for each client's sandbox off: %+v", tc.wall, len(ps), ps)
		}
		for _, p := range ps {
			if !strings.HasSuffix(p.What, tc.want) || strings.Contains(p.What, tc.not) {
				t.Errorf("wall %+v: %s warns %q; want it to end %q", tc.wall, p.Agent, p.What, tc.want)
			}
		}
	}
}
