package team

import (
	"bytes"
	"context"
	"fmt"

	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/store"
)

// Sink is where a node's ledger goes: the hub.
type Sink interface {
	Head(ctx context.Context, node int64) (int64, []byte, error)
	Append(ctx context.Context, node int64, rows []hubapi.Row) error
}

// Ship sends the outbox's rows to the hub in batches until it is empty,
// and returns how many the hub took. Rows the hub already holds (a crash
// between sending and marking) are marked, once their hash is the hub's;
// a chain that does not continue the hub's is an error, and nothing of it
// is sent.
func Ship(ctx context.Context, db *store.DB, sink Sink, node int64, batch int) (int, error) {
	sent := 0
	for {
		out, err := db.Outbox(ctx, batch)
		if err != nil || len(out) == 0 {
			return sent, err
		}
		seq, hash, err := sink.Head(ctx, node)
		if err != nil {
			return sent, err
		}
		// The batch must hold one chain; where it reaches back into rows
		// the hub holds, it must meet the hub's last row exactly.
		all := make([]hubapi.Row, 0, len(out))
		for _, o := range out {
			all = append(all, hubapi.Row{Seq: o.Seq, Body: o.Body, Prev: o.Prev, Hash: o.Hash})
		}
		if err := hubapi.Verify(all[0].Seq-1, all[0].Prev, all); err != nil {
			return sent, err
		}
		rows := all
		if all[0].Seq <= seq {
			i := int(seq - all[0].Seq)
			if i >= len(all) || !bytes.Equal(all[i].Hash, hash) {
				return sent, fmt.Errorf("%w: the hub's row %d is not this node's", hubapi.ErrChain, seq)
			}
			rows = all[i+1:]
		}
		if err := hubapi.Verify(seq, hash, rows); err != nil {
			return sent, err
		}
		if err := sink.Append(ctx, node, rows); err != nil {
			return sent, err
		}
		sent += len(rows)
		if err := db.Shipped(ctx, out[len(out)-1].Seq); err != nil {
			return sent, err
		}
	}
}
