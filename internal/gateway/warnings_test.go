package gateway

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/hook"
)

// TestWarnings: the page warns while the person's file lets auto run
// without the wall, and says why it matters here.
func TestWarnings(t *testing.T) {
	dir := t.TempDir()
	d := &Decider{ConfigDir: dir, Walls: hook.Walls{Off: "no Landlock"}}
	if w := d.warnings(); len(w) != 0 {
		t.Fatalf("warnings with no policy file: %q", w)
	}
	if err := os.WriteFile(filepath.Join(dir, "policy.toml"), []byte("auto_without_wall = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := d.warnings()
	if len(w) != 1 || !strings.Contains(w[0], "auto_without_wall") || !strings.Contains(w[0], "no Landlock") {
		t.Errorf("warnings = %q, want one naming the setting and why there is no wall", w)
	}
}
