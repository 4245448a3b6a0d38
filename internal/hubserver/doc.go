// Package hubserver is sayso hub's HTTP API for nodes, over TLS: a node
// joins with a one-time token and the ed25519 key it signs every later
// request with; it then fetches the org's bundle, ships its ledger rows,
// posts its cards and reads the answers to them.
//
// The server routes and can refuse; it never approves. It hands a node the
// bundle and the answers as the database holds them, and the node takes a
// bundle only under the org key it pinned and a yes only under the
// person's own passkey. Each request is checked before any handler runs:
// its node's signature, its time, a nonce seen once; a node reads and
// writes only its own chain and cards. The database work is package hub's.
//
// On the same port is the person's page (page.go): their open cards, each
// answered there with the passkey they pinned on its node.
package hubserver
