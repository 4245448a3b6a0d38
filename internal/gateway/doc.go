// Package gateway wires the pieces of a decision together: the hook's step,
// the person's policy files and kept rules, the session's state in the
// store, the reviewer, and — when sayso serve runs — the person's answer
// to a card.
//
// Decider decides one step: it loads the policy files, evaluates the step
// inside the store's write transaction (which consumes a lease and appends
// the ledger row with it), asks the reviewer outside that transaction when
// the diagnostic says it may waive the question, and, with Cards, waits
// for the person. Every error ends in deny: the hook turns it into the
// client's fail-closed answer.
//
// New wires what sayso serve runs: the hooks' unix socket (Handle), which
// answers steps and their events and nothing else; the person's socket
// (ServePerson), where the person's own CLI asks for a login link; the
// person's page over the store (Backend) and the hosts' API (API), which
// share one set of Cards. A host decides nothing for the person: it
// submits steps and messages with its token and reads its own cards.
package gateway
