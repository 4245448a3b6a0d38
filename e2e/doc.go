// Package e2e drives the real agent clients — Claude Code, Codex CLI and
// Gemini CLI, at the versions .ci/install-clients pins — headless against a
// scripted fake model server on 127.0.0.1, with 'sayso install' doing the
// hook set-up in a scratch home. Each test checks what really ran: a
// marker file, the tool output the client handed back to the model, or
// the store after the run.
//
// Claude Code tells its hooks that a person attends the session only in
// its interactive terminal (its -p runs force CLAUDE_CODE_SESSION_ATTENDED
// to 0), so the cases that need the person's words drive that terminal in
// tmux; without tmux they are skipped with a message.
//
// The clients are found through SAYSO_CLAUDE_BIN, SAYSO_CODEX_BIN and
// SAYSO_GEMINI_BIN, else in ${SAYSO_CLIENTS_DIR:-~/.cache/sayso-clients};
// a test whose client is not installed is skipped with a message.
// BenchmarkHookLatency, the hook's benchmark, runs only with -bench.
package e2e
