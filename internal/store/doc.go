// Package store keeps sayso's state in one SQLite database: sessions and
// the source of every message, owner words and the frozen copy a task
// takes from its parent, epochs, one-shot leases, held sessions and the
// breaker's counters, the environment note, the person's rules, and the
// append-only ledger.
//
// It is the only package that imports database/sql. It uses the pure-Go
// modernc.org/sqlite driver (no cgo, so sayso stays one static binary),
// in WAL mode with foreign keys and a busy timeout, so that many
// short-lived hook processes can share one database at once. Every write
// runs in one BEGIN IMMEDIATE transaction whose clock is read once, from
// DB.Now; reads run in a snapshot that never holds up a writer.
//
// The store decides nothing: Decide loads a session's state, hands it to
// the caller's pure evaluate function, and records what it returns — the
// lease it consumes and the ledger row — in the same transaction.
package store
