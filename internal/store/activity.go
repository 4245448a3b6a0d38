package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Activity is what the ledger says of a session's life: the folder its
// latest step ran in, when it last did anything, and whether it has ended
// since. A session ends when its agent says so (for a task, also when its
// parent ends); a step or a message after that — a resumed conversation —
// makes it live again.
type Activity struct {
	Folder  string    `json:"folder,omitempty"`
	Last    time.Time `json:"last_active,omitzero"`
	Ended   bool      `json:"ended"`
	EndedAt time.Time `json:"ended_at,omitzero"`
}

// Activity reads a session's activity from the ledger.
func (db *DB) Activity(ctx context.Context, id string) (Activity, error) {
	var a Activity
	err := db.view(ctx, func(tx *tx) (err error) {
		a, err = tx.activity(ctx, id)
		return err
	})
	if err != nil {
		return Activity{}, fmt.Errorf("read the activity of session %s: %w", id, err)
	}
	return a, nil
}

func (tx *tx) activity(ctx context.Context, id string) (Activity, error) {
	var a Activity
	var endedAt int64
	err := tx.QueryRowContext(ctx, "SELECT ended_at FROM sessions WHERE id = ?", id).Scan(&endedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return a, fmt.Errorf("session %s: %w", id, ErrNotFound)
	} else if err != nil {
		return a, err
	}
	var last, end sql.NullInt64
	if err := tx.QueryRowContext(ctx, "SELECT max(at) FROM ledger WHERE session = ? AND kind IN (?, ?, ?)",
		id, KindDecision, KindMessage, KindTask).Scan(&last); err != nil {
		return a, err
	}
	if err := tx.QueryRowContext(ctx, "SELECT max(at) FROM ledger WHERE session = ? AND kind IN (?, ?)",
		id, KindSessionEnded, KindTaskEnded).Scan(&end); err != nil {
		return a, err
	}
	err = tx.QueryRowContext(ctx, `SELECT json_extract(detail, '$.cwd') FROM ledger
		WHERE session = ? AND kind = ? AND COALESCE(json_extract(detail, '$.cwd'), '') <> ''
		ORDER BY id DESC LIMIT 1`, id, KindDecision).Scan(&a.Folder)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return a, err
	}
	endAt := max(endedAt, end.Int64)
	a.Last = instant(last.Int64)
	if endAt != 0 && endAt >= last.Int64 {
		a.Ended, a.EndedAt = true, instant(endAt)
	}
	return a, nil
}

// ErrSessionEnded: the session has ended, so nothing granted to it could
// ever be used.
var ErrSessionEnded = errors.New("the session has ended")
