// Package e2e drives the real agent clients — each one the client registry
// (internal/client) names, at the version .ci/install-clients pins —
// headless against the scripted fake model server on 127.0.0.1
// (internal/client/fakemodel), with 'sayso install' doing the hook set-up
// in a scratch home. Each test checks what really ran: a marker file, the
// tool output the client handed back to the model, or the store after the
// run.
//
// A client that tells its hooks a person attends the session only in its
// interactive terminal is driven in that terminal, in tmux, for the cases
// that need the person's words; without tmux they are skipped with a
// message.
//
// Each client is found through SAYSO_<NAME>_BIN (its name in capitals),
// else in ${SAYSO_CLIENTS_DIR:-~/.cache/sayso-clients}; a test whose
// client is not installed is skipped with a message. BenchmarkHookLatency,
// the hook's benchmark, runs only with -bench.
package e2e
