package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Epoch is a control epoch: every person message opens one, bound to its
// session and turn. The session holding the newest epoch is the current
// controller.
type Epoch struct {
	ID      int64     `json:"id"`
	Session string    `json:"session"`
	Turn    string    `json:"turn"`
	At      time.Time `json:"at"`
}

// newEpoch opens an epoch for (session, turn) and revokes every unconsumed
// lease, in every session.
func (tx *tx) newEpoch(ctx context.Context, session, turn string) error {
	res, err := tx.ExecContext(ctx, "INSERT INTO epochs (session, turn, created_at) VALUES (?, ?, ?)", session, turn, nanos(tx.now))
	if err != nil {
		return err
	}
	id, _ := res.LastInsertId()
	why := fmt.Sprintf("a new person message in session %s (epoch %d)", session, id)
	return tx.revokeOpen(ctx, why)
}

// currentEpoch is the newest epoch; the zero Epoch when there is none.
func (tx *tx) currentEpoch(ctx context.Context) (Epoch, error) {
	var e Epoch
	var at int64
	err := tx.QueryRowContext(ctx, "SELECT id, session, turn, created_at FROM epochs ORDER BY id DESC LIMIT 1").Scan(&e.ID, &e.Session, &e.Turn, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Epoch{}, nil
	}
	e.At = instant(at)
	return e, err
}

// CurrentEpoch returns the newest epoch, and so the current controller;
// the zero Epoch when no person message has been seen.
func (db *DB) CurrentEpoch(ctx context.Context) (Epoch, error) {
	return within(ctx, db.view, "read current epoch", func(tx *tx) (Epoch, error) {
		return tx.currentEpoch(ctx)
	})
}
