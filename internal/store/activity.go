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
	return within(ctx, db.view, "read the activity of session "+id, func(tx *tx) (Activity, error) {
		return tx.activity(ctx, id)
	})
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
	var last, end int64
	// Each max is one seek in ledger_session_kind.
	if err := tx.QueryRowContext(ctx, `SELECT
		max(COALESCE((SELECT max(at) FROM ledger WHERE session = ?1 AND kind = ?2), 0),
		    COALESCE((SELECT max(at) FROM ledger WHERE session = ?1 AND kind = ?3), 0),
		    COALESCE((SELECT max(at) FROM ledger WHERE session = ?1 AND kind = ?4), 0)),
		max(COALESCE((SELECT max(at) FROM ledger WHERE session = ?1 AND kind = ?5), 0),
		    COALESCE((SELECT max(at) FROM ledger WHERE session = ?1 AND kind = ?6), 0))`,
		id, KindDecision, KindMessage, KindTask, KindSessionEnded, KindTaskEnded).Scan(&last, &end); err != nil {
		return a, err
	}
	err = tx.QueryRowContext(ctx, `SELECT json_extract(detail, '$.cwd') FROM ledger
		WHERE session = ? AND kind = ? AND COALESCE(json_extract(detail, '$.cwd'), '') <> ''
		ORDER BY at DESC, id DESC LIMIT 1`, id, KindDecision).Scan(&a.Folder)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return a, err
	}
	return activityOf(a, endedAt, last, end), nil
}

// activityOf completes a: the session's last step, message or task at
// last, its end recorded in sessions (endedAt) or the ledger (end).
func activityOf(a Activity, endedAt, last, end int64) Activity {
	endAt := max(endedAt, end)
	a.Last = instant(last)
	if endAt != 0 && endAt >= last {
		a.Ended, a.EndedAt = true, instant(endAt)
	}
	return a
}

// ErrSessionEnded: the session has ended, so nothing granted to it could
// ever be used.
var ErrSessionEnded = errors.New("the session has ended")
