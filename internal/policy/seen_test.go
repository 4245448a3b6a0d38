package policy

import (
	"path/filepath"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

// TestResolveSeen: Resolve sums what the step runs by path and the
// project's manifests, and Evaluate hands the sums on in the diagnostic.
func TestResolveSeen(t *testing.T) {
	root := "/home/p/proj"
	summed := map[string]bool{}
	disk := Disk{
		EvalSymlinks: func(p string) (string, error) { return p, nil },
		Sum: func(p string) string {
			summed[p] = true
			return "sum-of-" + filepath.Base(p)
		},
	}
	req := Request{Command: "./scripts/release.sh && npm run build", Context: risk.Context{Root: root, Cwd: root, Home: "/home/p"}}
	Resolve(&req, disk)
	for _, p := range []string{root + "/scripts/release.sh", root + "/package.json", root + "/Makefile", root + "/pyproject.toml"} {
		if !summed[p] || req.Seen[p] == "" {
			t.Errorf("%s not summed: %v", p, req.Seen)
		}
	}
	_, diag := Evaluate(req)
	if diag.Seen[root+"/scripts/release.sh"] != "sum-of-release.sh" {
		t.Errorf("the diagnostic lost the sums: %v", diag.Seen)
	}
}
