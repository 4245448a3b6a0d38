package gateway_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/step"
	"github.com/sayso-dev/sayso/internal/store"
)

// A write's decision row keeps what the write does: its diff against the
// file on disk, with the token it writes masked.
func TestLedgerKeepsWhatAWriteDoes(t *testing.T) {
	f := startGateway(t, 200*time.Millisecond)
	file := filepath.Join(f.project, "deploy.conf")
	if err := os.WriteFile(file, []byte("region = fra\nreplicas = 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const token = "ghp_0123456789abcdefSECRET"
	in, _ := json.Marshal(map[string]any{
		"session_id": "s-shows", "transcript_path": "/t", "cwd": f.project, "hook_event_name": "PreToolUse",
		"permission_mode": "default", "tool_name": "Write", "tool_use_id": "toolu_1",
		"tool_input": map[string]string{"file_path": file, "content": "region = fra\nreplicas = 3\nDEPLOY_TOKEN = " + token + "\n"},
	})
	if _, err := f.ask("claude", in); err != nil {
		t.Fatal(err)
	}
	rows, err := f.db.Log(context.Background(), store.LogFilter{Session: "s-shows"})
	if err != nil {
		t.Fatal(err)
	}
	var shown *step.Shown
	for _, r := range rows {
		if strings.Contains(string(r.Detail), token) {
			t.Errorf("the %s row keeps the token: %s", r.Kind, r.Detail)
		}
		var d struct {
			Shows *step.Shown `json:"shows"`
		}
		if r.Kind == store.KindDecision && json.Unmarshal(r.Detail, &d) == nil && d.Shows != nil {
			shown = d.Shows
		}
	}
	if shown == nil {
		t.Fatalf("no decision row keeps what the write does: %+v", rows)
	}
	var got []string
	for _, l := range shown.Lines {
		got = append(got, string(l.Op)+l.Text)
	}
	want := []string{"=region = fra", "-replicas = 2", "+replicas = 3", "+DEPLOY_TOKEN = " + step.Masked}
	if strings.Join(got, "|") != strings.Join(want, "|") || shown.New || shown.Path != file || shown.Masked != 1 {
		t.Errorf("the row keeps %q (new %v, path %s, masked %d), want %q against the file on disk", got, shown.New, shown.Path, shown.Masked, want)
	}
}
