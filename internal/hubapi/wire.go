package hubapi

import "time"

// Paths of the hub's API for nodes.
const (
	PathJoin     = "/v1/join"
	PathBundle   = "/v1/node/bundle"
	PathHead     = "/v1/node/head"
	PathLedger   = "/v1/node/ledger"
	PathCards    = "/v1/node/cards" // POST a card; /ID/close; /ID/answers
	PathLeave    = "/v1/node/leave"
	PathLog      = "/v1/node/log"
	PathChanges  = "/v1/node/changes" // POST a change to offer; GET ?after=N the signed ones
	PathPasskeys = "/v1/node/passkeys"
	PathPrefix   = "/v1/node/"
	MaxBodySize  = 8 << 20
)

// JoinRequest redeems a join token: the node's name and the public half
// of the key it signs every later request with.
type JoinRequest struct {
	Token string `json:"token"`
	Name  string `json:"name"`
	Key   []byte `json:"key"`
}

// JoinReply is the node's identity at the hub.
type JoinReply struct {
	Node   int64  `json:"node"`
	Person string `json:"person"`
	CI     bool   `json:"ci"`
}

// Row is one ledger row as a node ships it: its number in the node's
// chain, the exact bytes of the row, and the chain's hashes.
type Row struct {
	Seq  int64  `json:"seq"`
	Body []byte `json:"body"`
	Prev []byte `json:"prev"`
	Hash []byte `json:"hash"`
}

// Head is the last row of the node's chain the hub holds.
type Head struct {
	Seq  int64  `json:"seq"`
	Hash []byte `json:"hash"`
}

// Card is a card the node posts: its id and the node's own bytes of it,
// which the person's passkey signs over.
type Card struct {
	ID   string `json:"id"`
	Body []byte `json:"body"`
}

// Confirm is a node's challenge for the second confirmation of one of its
// cards: a severe, ceiling or never step whose first yes it took. Empty
// withdraws it.
type Confirm struct {
	Challenge []byte `json:"challenge,omitempty"`
}

// Answer is an answer given at the hub to one of the node's cards, as the
// hub stores it: the node decides whether it is the person's.
type Answer struct {
	ID        int64     `json:"id"`
	Card      string    `json:"card"`
	Verdict   string    `json:"verdict"`
	Assertion []byte    `json:"assertion,omitempty"`
	Created   time.Time `json:"created"`
}

// Change is a change to the person's rules or environment note: one the
// node offers (its bytes alone), or one the person signed, as the hub
// stores it (then Signature numbers the signature and Assertion is it).
type Change struct {
	ID        int64  `json:"id,omitempty"`
	Body      []byte `json:"body"`
	Signature int64  `json:"signature,omitempty"`
	Assertion []byte `json:"assertion,omitempty"`
}

// Passkey is a passkey the node pinned for its person, told to the hub
// for routing: the page asks for a signature by each.
type Passkey struct {
	CredentialID []byte `json:"credential_id"`
	PublicKey    []byte `json:"public_key"`
}

// Problem is the body of every refusal.
type Problem struct {
	Error string `json:"error"`
}

// LogQuery asks for rows of the ledger of the node's own person, across
// their nodes, newest first. It names no person: the hub answers with the
// rows of the signing node's person, and no other's.
type LogQuery struct {
	Node     string    `json:"node,omitempty"` // a node's name
	Session  string    `json:"session,omitempty"`
	Words    []string  `json:"words,omitempty"`
	Kind     string    `json:"kind,omitempty"`
	Decision string    `json:"decision,omitempty"`
	Class    string    `json:"class,omitempty"`
	Since    time.Time `json:"since,omitzero"`
	Until    time.Time `json:"until,omitzero"`
	Received time.Time `json:"received,omitzero"` // only rows the hub took at or after it
	Before   string    `json:"before,omitempty"`  // the Next of the page before
	Limit    int       `json:"limit,omitempty"`
}

// LogRow is a ledger row as the hub holds it: the node that wrote it and
// the row's exact bytes, as that node chained them.
type LogRow struct {
	Node     int64     `json:"node"`
	NodeName string    `json:"node_name"`
	Seq      int64     `json:"seq"`
	Body     []byte    `json:"body"`
	Received time.Time `json:"received"`
}

// LogPage is one page of rows; Next, when set, asks for the page after.
type LogPage struct {
	Rows []LogRow `json:"rows"`
	Next string   `json:"next,omitempty"`
}
