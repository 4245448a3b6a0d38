package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The lines of a Codex 0.169 session record, as its terminal UI wrote
// them: a typed turn, then a turn run from 'codex queue'.
const (
	sid          = "01a232ba-d4c5-7e32-b919-caacfae072cc"
	typedTurn    = "01a232ba-e9d5-7a62-8d62-1c1fa24763c0"
	queuedTurn   = "01a232bb-224c-7903-a21f-aa697a5c512e"
	metaTUI      = `{"timestamp":"2026-12-01T17:50:40.121Z","ordinal":0,"type":"session_meta","payload":{"account_scoped":true,"session_id":"` + sid + `","id":"` + sid + `","cwd":"/w/repo","originator":"codex-tui","cli_version":"0.169.0","source":"cli","thread_source":"user","model_provider":"fake"}}`
	startedTyped = `{"timestamp":"2026-12-01T17:50:41.000Z","type":"event_msg","payload":{"type":"task_started","turn_attribution":{"turn_id":"` + typedTurn + `","turn_trigger":"user","parent_turn_id":null}}}`
	startedQueue = `{"timestamp":"2026-12-01T17:50:55.000Z","type":"event_msg","payload":{"type":"task_started","turn_attribution":{"turn_id":"` + queuedTurn + `","turn_trigger":"queue","parent_turn_id":null}}}`
	userMessage  = `{"timestamp":"2026-12-01T17:50:41.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"turn_trigger user ` + queuedTurn + `"}]}}`
)

// TestSeed002CodexTypedTurn guards seed 002 §1 (direct human input, not
// delivery, opens the epoch) for Codex's record: only a turn the terminal
// UI started from the person typing is the person's.
func TestSeed002CodexTypedTurn(t *testing.T) {
	wait := codexRecordWait
	codexRecordWait = 0
	defer func() { codexRecordWait = wait }()
	for _, c := range []struct {
		name  string
		lines []string
		turn  string
		want  string // "" for evidence
	}{
		{"typed", []string{metaTUI, startedTyped}, typedTurn, ""},
		{"queued", []string{metaTUI, startedTyped, userMessage, startedQueue}, queuedTurn, `"queue"`},
		{"not recorded", []string{metaTUI, startedTyped}, queuedTurn, "recorded no start"},
		{"exec", []string{strings.Replace(metaTUI, `"source":"cli"`, `"source":"exec"`, 1), startedTyped}, typedTurn, "not a thread the person opened"},
		{"sub-agent", []string{strings.Replace(metaTUI, `"thread_source":"user"`, `"thread_source":"subagent"`, 1), startedTyped}, typedTurn, "not a thread the person opened"},
		{"sub-agent source", []string{strings.Replace(metaTUI, `"source":"cli"`, `"source":{"subagent":"review"}`, 1), startedTyped}, typedTurn, "not a thread the person opened"},
		{"another session's meta", []string{strings.Replace(metaTUI, `"id":"`+sid, `"id":"other`, 1), startedTyped}, typedTurn, "not a thread the person opened"},
		{"no meta", []string{startedTyped}, typedTurn, "not a thread the person opened"},
	} {
		home := t.TempDir()
		dir := filepath.Join(home, "sessions", "2026", "12", "01")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "rollout-2026-12-01T17-50-34-"+sid+".jsonl"), []byte(strings.Join(c.lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		err := codexRecorded(home, sid, c.turn)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if err := codexRecorded(t.TempDir(), sid, typedTurn); err == nil {
		t.Errorf("a session with no record is the person's")
	}
	for _, bad := range []string{"", "*", "../x", "a/b", "a b"} {
		if codexID(bad) {
			t.Errorf("codexID(%q) = true", bad)
		}
	}
}

// Codex's folder must be the one the wall keeps read-only.
func TestCodexHome(t *testing.T) {
	proc := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(proc, "7"), 0o700))
	p := Procs{Proc: proc, PID: 7, Home: "/home/p"}
	for env, want := range map[string]string{
		"HOME=/home/p\x00":                                 "/home/p/.codex",
		"CODEX_HOME=/home/p/.codex\x00":                    "/home/p/.codex",
		"CODEX_HOME=/home/p/.codex/\x00":                   "/home/p/.codex",
		"CODEX_HOME=/tmp/codex\x00":                        "",
		"CODEX_HOME=/home/p/.codex\x00CODEX_HOME=/tmp\x00": "",
	} {
		must(os.WriteFile(filepath.Join(proc, "7", "environ"), []byte(env), 0o600))
		got, err := p.codexHome()
		if want == "" && err == nil || want != "" && (err != nil || got != want) {
			t.Errorf("environ %q: %q, %v; want %q", env, got, err, want)
		}
	}
}
