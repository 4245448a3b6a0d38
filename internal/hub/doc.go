// Package hub is the team's server side on PostgreSQL: the org's signed
// policy bundles, the people and their nodes, the cards waiting for each
// person, their answers, and one append-only ledger of every node.
//
// The hub routes; it never decides. A node decides every step on its own
// SQLite store and takes from the hub only what narrows (a bundle signed
// with the org key it pinned) or what the person signed (an answer or rule
// carrying their passkey's assertion, checked against the keys the node
// pinned). The hub works as the database role sayso_hub, which may only
// insert and read the ledger; a trigger refuses any update or delete of it
// to every role, and another refuses a row that does not continue its
// node's hash chain. It is not the node's store: package store is.
package hub
