package store

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyStoreImportsSQL keeps database/sql in this package: everything
// else reaches the database through the store's API.
func TestOnlyStoreImportsSQL(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/sayso-dev/sayso/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 5 {
		t.Fatalf("go list found %d packages: %q", len(lines), out)
	}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] == "github.com/sayso-dev/sayso/internal/store" || strings.Contains(f[0], "/internal/store/testdata/") {
			continue
		}
		for _, imp := range f[1:] {
			if imp == "database/sql" || strings.HasPrefix(imp, "modernc.org/sqlite") {
				t.Errorf("%s imports %s: only internal/store may", f[0], imp)
			}
		}
	}
}
