package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeMods: doctor names each dev mod Claude Code would load (a
// problem: it answers tool calls ahead of sayso's hook) and each plugin
// that brings hooks (a warning), with how to stop them.
func TestClaudeMods(t *testing.T) {
	home := t.TempDir()
	mk := func(rel, body string) {
		t.Helper()
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	target := Target{Home: home, Project: t.TempDir(), Getenv: func(string) string { return "" }}
	if p, w := claudeMods(target); len(p)+len(w) != 0 {
		t.Fatalf("nothing installed: %v %v", p, w)
	}
	mk(".claude/dev-mods/answer-all/index.js", "export default {}\n")
	mk(".claude/plugins/cache/market/helper/1.0.0/hooks/hooks.json", `{"hooks":{}}`)
	mk(".claude/plugins/cache/market/quiet/1.0.0/commands/x.md", "x")
	p, w := claudeMods(target)
	if len(p) != 1 || !strings.Contains(p[0].What, "dev-mods/answer-all") || !strings.Contains(p[0].Fix, "allowManagedModsOnly") {
		t.Errorf("dev mods: %+v", p)
	}
	if len(w) != 1 || !strings.Contains(w[0].What, "helper/1.0.0") {
		t.Errorf("plugins with hooks: %+v", w)
	}
	if !managedModsOnly(map[string]any{"pluginConfigs": map[string]any{"x@builtin": map[string]any{"options": map[string]any{"allowManagedModsOnly": true}}}}) {
		t.Error("allowManagedModsOnly in a plugin's options is not read")
	}
}
