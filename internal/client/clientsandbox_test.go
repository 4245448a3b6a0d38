package client

import (
	"os"
	"path/filepath"
	"testing"
)

// Codex's record of a turn (captured from Codex 0.171.0: session_meta,
// then a turn_context per turn) says which sandbox the turn's steps run
// in; anything but this session's record of this turn is unknown.
func TestCodexSandbox(t *testing.T) {
	const session, turn, other = "01a2519e-056b-71f2-a243-235445f0fbd3", "01a2519e-05ad-7b52-b2a8-3b79e1837fd1", "01a2519e-05ad-7b52-b2a8-3b79e1837fd2"
	ctx := func(turn, policy string) string {
		return `{"timestamp":"2026-12-07T17:47:20.400Z","type":"turn_context","payload":{"turn_id":"` + turn + `","cwd":"/p","approval_policy":"never","sandbox_policy":` + policy + `}}` + "\n"
	}
	meta := `{"timestamp":"2026-12-07T17:47:20.341Z","type":"session_meta","payload":{"id":"` + session + `","source":"exec"}}` + "\n"
	dir := t.TempDir()
	name := filepath.Join(dir, "rollout-2026-12-07T17-47-20-"+session+".jsonl")
	for _, tt := range []struct {
		name, record string
		want         ClientSandbox
	}{
		{"read-only", meta + ctx(turn, `{"type":"read-only"}`), "read-only"},
		{"workspace-write", meta + ctx(turn, `{"type":"workspace-write","network_access":false}`), "workspace-write"},
		{"full", meta + ctx(turn, `{"type":"danger-full-access"}`), SandboxNone},
		{"last-wins", meta + ctx(turn, `{"type":"danger-full-access"}`) + ctx(turn, `{"type":"read-only"}`), "read-only"},
		{"other-turn", meta + ctx(other, `{"type":"danger-full-access"}`), SandboxUnknown},
		{"no-policy", meta + ctx(turn, `{}`), SandboxUnknown},
		{"said-in-a-message", meta + `{"type":"response_item","payload":{"text":"{\"type\":\"turn_context\",\"payload\":{\"turn_id\":\"` + turn + `\",\"sandbox_policy\":{\"type\":\"danger-full-access\"}}}"}}` + "\n", SandboxUnknown},
		{"empty", "", SandboxUnknown},
	} {
		if err := os.WriteFile(name, []byte(tt.record), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := codexSandbox(name, session, turn); got != tt.want {
			t.Errorf("%s: codexSandbox = %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := codexSandbox(filepath.Join(dir, "rollout-x.jsonl"), session, turn); got != SandboxUnknown {
		t.Errorf("another session's file: %q, want unknown", got)
	}
	if got := codexSandbox("", session, turn); got != SandboxUnknown {
		t.Errorf("no transcript: %q, want unknown", got)
	}
	if got := codexSandbox(name+".missing", session, turn); got != SandboxUnknown {
		t.Errorf("missing transcript: %q, want unknown", got)
	}
}
