package policy

import (
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

// TestTempThroughLinks: deleting below /tmp is local work, unless a link
// there, seen on the disk, leads into the home, the project or sayso's
// folders: then the target is judged.
func TestTempThroughLinks(t *testing.T) {
	fake := map[string]string{
		"/tmp":        "/tmp",
		"/tmp/plain":  "/tmp/plain",
		"/tmp/home":   "/home/user",
		"/tmp/proj":   "/home/user/project",
		"/tmp/state":  "/home/user/.local/state/sayso",
		"/tmp/docs":   "/home/user/docs",
		"/tmp/inside": "/home/user/project/build",
	}
	eval := func(p string) (string, error) {
		if r, ok := fake[p]; ok {
			return r, nil
		}
		return "", errNotExist
	}
	for _, tt := range []struct {
		cmd  string
		want risk.Class // the class that must be found
		safe bool       // and nothing beyond local work
	}{
		{"rm -rf /tmp/plain/cache", risk.LocalWrite, true},
		{"rm -rf /tmp/inside/x", risk.LocalWrite, true},
		{"rm -rf /tmp/home/", risk.Destructive, false},
		{"rm -rf /tmp/docs/old", risk.Destructive, false},
		{"rm -rf /tmp/proj", risk.Destructive, false},
		{"rm -rf /tmp/state/x", risk.Protected, false},
	} {
		req := Request{Command: tt.cmd, Context: testContext, Mode: ModeAuto}
		Resolve(&req, Disk{EvalSymlinks: eval})
		_, _, diag := decided(req)
		got := diag.Assessment.Classes
		if !got.Has(tt.want) || tt.safe != risk.Safe(got) {
			t.Errorf("%s = %v, want %v (safe %v)", tt.cmd, got, tt.want, tt.safe)
		}
	}
}
