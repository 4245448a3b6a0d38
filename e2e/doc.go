// Package e2e drives the real agent clients — Claude Code, Codex CLI and
// Gemini CLI, at the versions .ci/install-clients pins — headless against a
// scripted fake model server on 127.0.0.1, with 'sayso install' doing the
// hook set-up in a scratch home. Each test checks what really ran: a
// marker file, or the tool output the client handed back to the model.
//
// The clients are found through SAYSO_CLAUDE_BIN, SAYSO_CODEX_BIN and
// SAYSO_GEMINI_BIN, else in ${SAYSO_CLIENTS_DIR:-~/.cache/sayso-clients};
// a test whose client is not installed is skipped with a message.
package e2e
