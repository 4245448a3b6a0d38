package store

import (
	"context"
)

// Egress is a connection the wall refused a walled step: the host it asked
// for, the step (its command) and its session, as the wall reports them.
type Egress struct {
	Session string `json:"session"`
	Host    string `json:"host"`
	Step    string `json:"step"`
	Cwd     string `json:"cwd,omitempty"`
}

// RecordEgressRefused keeps a refused connection in the ledger, where the
// person reads which host a step tried to reach. The wall reports it:
// what it says grants nothing.
func (db *DB) RecordEgressRefused(ctx context.Context, e Egress) error {
	e.Host, e.Step = Cap(e.Host), Cap(e.Step)
	return db.change(ctx, "record a refused connection", func(tx *tx) error {
		_, err := tx.appendLedger(ctx, KindEgressRefused, e.Session, "egress refused: "+e.Host+" (step: "+e.Step+")", e)
		return err
	})
}
