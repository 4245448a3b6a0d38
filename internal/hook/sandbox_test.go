package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		for _, p := range Sandboxes(map[string]bool{"codex": true}, target, []string{dir}) {
			got = got || strings.Contains(p.What, "writable root /tmp:")
		}
		if got != tc.want {
			t.Errorf("config %q: a warning that /tmp holds %s = %v, want %v", tc.config, dir, got, tc.want)
		}
	}
}
