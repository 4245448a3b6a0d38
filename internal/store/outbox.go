package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Outbound is one ledger row chained for the hub: its number in this
// node's chain, the exact bytes hashed, and the chain's hashes.
type Outbound struct {
	Seq  int64
	Body []byte
	Prev []byte
	Hash []byte
}

// chainGenesis is the prev of the chain's first row.
var chainGenesis = make([]byte, sha256.Size)

// chainHash is sha256(prev || body): the hub's trigger checks the same.
func chainHash(prev, body []byte) []byte {
	h := sha256.New()
	h.Write(prev)
	h.Write(body)
	return h.Sum(nil)
}

// SetChain turns the chaining of ledger rows into the outbox on (the node
// joined a hub) or off (it left). Rows already chained stay.
func (db *DB) SetChain(ctx context.Context, on bool) error {
	return db.update(ctx, func(tx *tx) error {
		q := "DELETE FROM team_chain"
		if on {
			q = "INSERT OR IGNORE INTO team_chain (one) VALUES (1)"
		}
		_, err := tx.ExecContext(ctx, q)
		return err
	})
}

// Chained reports whether ledger rows are chained for a hub: the node
// joined one and has not left.
func (db *DB) Chained(ctx context.Context) (bool, error) {
	var on int
	err := db.view(ctx, func(tx *tx) error {
		return tx.QueryRowContext(ctx, "SELECT count(*) FROM team_chain").Scan(&on)
	})
	return on > 0, err
}

// chain adds the ledger row just written to the outbox when the node is in
// a team. It runs in the row's own transaction, which holds SQLite's write
// lock: the rows are numbered one after another, whatever races.
func (tx *tx) chain(ctx context.Context, e Entry) error {
	var on int
	err := tx.QueryRowContext(ctx, "SELECT count(*) FROM team_chain").Scan(&on)
	if err != nil || on == 0 {
		return err
	}
	body, err := json.Marshal(e)
	if err != nil {
		return err
	}
	var seq int64
	prev := chainGenesis
	err = tx.QueryRowContext(ctx, "SELECT seq, hash FROM team_outbox ORDER BY seq DESC LIMIT 1").Scan(&seq, &prev)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO team_outbox (seq, ledger_id, body, prev, hash) VALUES (?, ?, ?, ?, ?)",
		seq+1, e.ID, body, prev, chainHash(prev, body))
	if err != nil {
		return fmt.Errorf("chain ledger row %d: %w", e.ID, err)
	}
	return nil
}

// Outbox returns up to limit rows the hub does not hold yet, in order.
func (db *DB) Outbox(ctx context.Context, limit int) ([]Outbound, error) {
	return within(ctx, db.view, "read the outbox", func(tx *tx) ([]Outbound, error) {
		rows, err := tx.QueryContext(ctx, "SELECT seq, body, prev, hash FROM team_outbox WHERE shipped = 0 ORDER BY seq LIMIT ?", limit)
		if err != nil {
			return nil, err
		}
		return collect(rows, func(row scanner) (Outbound, error) {
			var o Outbound
			err := row.Scan(&o.Seq, &o.Body, &o.Prev, &o.Hash)
			return o, err
		})
	})
}

// Shipped marks the outbox's rows up to seq as held by the hub.
func (db *DB) Shipped(ctx context.Context, seq int64) error {
	return db.update(ctx, func(tx *tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE team_outbox SET shipped = 1 WHERE seq <= ? AND shipped = 0", seq)
		return err
	})
}
