// Package hubapi is the wire between a node and the hub: the requests and
// replies of the hub's HTTP API, how a node signs each request with its own
// ed25519 key, and the node's client, which speaks TLS only to the
// certificate whose fingerprint it pinned at join.
//
// A signed request proves which node sent it and nothing more: what the
// hub relays to a node (a bundle, an answer) is taken there only when it
// carries the org's or the person's own signature, checked by the node.
// It is not the server (package hubserver) and holds no database.
package hubapi
