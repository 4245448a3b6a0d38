// Package step says what a step does, in a form a person can judge: a
// file write or edit as its diff (or the new text), an MCP or other tool
// call as its arguments key by key, a sub-agent's prompt whole. The card
// shows it and the ledger row keeps it, so it is made once, here: bounded
// to MaxBytes, with every value the engine takes for a secret masked
// (place.SecretVar: a GITHUB_TOKEN=…, an "api_key": …).
//
// It is not the decision: nothing here classifies a step. It is pure: it
// reads no disk, the caller hands in the file's text on disk when it has
// it, and it knows the agents' tools only through risk's one table.
package step
