// Package card is the person's card about one step and their answer to
// it: the one Answer with its one text form (the page's form, the
// store's rows, the hub's wire and what a passkey signs over all read
// it), and the one copy of the rules for answering a card — when an
// answer counts, which answers keep what, which steps are allowed only
// deliberately and when a confirmation of such a yes is due. It is pure:
// no disk, network, process or clock; the caller hands in the time.
// It is not the waiting: the gateway holds the cards that wait, the
// store keeps what an answer keeps, the page and the hub show them.
package card
