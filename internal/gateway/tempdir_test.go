package gateway

import (
	"context"
	"testing"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// TestTempDirReachesTheEngine: $TMPDIR in the client's environment is read
// by the adapter into the step and by the request into the engine's
// context, so a deletion under it is judged where it lies; without it,
// $TMPDIR/x may be /x and the deletion stays destructive.
func TestTempDirReachesTheEngine(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d := &Decider{DB: openTestStore(t), Home: dir, ConfigDir: dir, Walls: hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: dir}}
	in := []byte(`{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"` + dir + `","tool_name":"Bash","tool_input":{"command":"rm -rf \"$TMPDIR/build-cache\""}}`)
	for _, tt := range []struct {
		tmpdir string
		want   risk.Class
	}{
		{"/tmp", risk.LocalWrite},
		{"/var/tmp", risk.LocalWrite},
		{"", risk.Destructive},
		{"/srv/scratch", risk.Destructive}, // not a temporary folder
	} {
		env := client.Env{Home: dir, Getenv: func(k string) string {
			if k == "TMPDIR" {
				return tt.tmpdir
			}
			return ""
		}}
		got, err := client.Claude{}.Read(in, env)
		if err != nil || got.Step == nil {
			t.Fatalf("Read: %v", err)
		}
		if got.Step.TempDir != tt.tmpdir {
			t.Errorf("TMPDIR=%q: step's TempDir = %q", tt.tmpdir, got.Step.TempDir)
		}
		req, err := d.Request(ctx, *got.Step, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, diag := policy.Evaluate(req)
		cls := diag.Assessment.Classes
		if !cls.Has(tt.want) || tt.want == risk.LocalWrite && !risk.Safe(cls) {
			t.Errorf("TMPDIR=%q: rm -rf $TMPDIR/build-cache = %v, want %v", tt.tmpdir, cls, tt.want)
		}
	}
}
