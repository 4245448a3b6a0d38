package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Ledger kinds.
const (
	KindDecision       = "decision"
	KindMessage        = "message"
	KindTask           = "task"
	KindAnswer         = "answer"
	KindRuleKept       = "rule-kept"
	KindRuleForgotten  = "rule-forgotten"
	KindLeaseGranted   = "lease-granted"
	KindLeaseConsumed  = "lease-consumed"
	KindLeaseRevoked   = "lease-revoked"
	KindSettingChanged = "setting-changed"
	KindSessionHeld    = "session-held"
	KindSessionRelease = "session-released"
	KindModeChanged    = "mode-changed"
	KindRestore        = "restore"
)

// Entry is one row of the ledger.
type Entry struct {
	ID      int64           `json:"id"`
	At      time.Time       `json:"at"`
	Kind    string          `json:"kind"`
	Session string          `json:"session,omitempty"`
	Summary string          `json:"summary"`
	Detail  json.RawMessage `json:"detail"`
}

// LogFilter selects ledger rows. The zero value selects every row.
type LogFilter struct {
	Session string    // only this session's rows
	Since   time.Time // only rows at or after this instant
	Limit   int       // at most this many, the newest; 0 is no limit
}

// appendLedger writes one ledger row. detail is marshalled to JSON; nil is
// an empty object, and json.RawMessage is stored as it is.
func (tx *tx) appendLedger(ctx context.Context, kind, session, summary string, detail any) (int64, error) {
	text := "{}"
	switch d := detail.(type) {
	case nil:
	case json.RawMessage:
		if len(d) > 0 {
			if !json.Valid(d) {
				return 0, fmt.Errorf("append %s to ledger: detail is not JSON", kind)
			}
			text = string(d)
		}
	default:
		b, err := json.Marshal(d)
		if err != nil {
			return 0, fmt.Errorf("append %s to ledger: %w", kind, err)
		}
		text = string(b)
	}
	res, err := tx.ExecContext(ctx,
		"INSERT INTO ledger (at, kind, session, summary, detail) VALUES (?, ?, ?, ?, ?)",
		nanos(tx.now), kind, session, summary, text)
	if err != nil {
		return 0, fmt.Errorf("append %s to ledger: %w", kind, err)
	}
	return res.LastInsertId()
}

// Log returns ledger rows in the order they were written.
func (db *DB) Log(ctx context.Context, f LogFilter) ([]Entry, error) {
	var where []string
	var args []any
	if f.Session != "" {
		where = append(where, "session = ?")
		args = append(args, f.Session)
	}
	if !f.Since.IsZero() {
		where = append(where, "at >= ?")
		args = append(args, nanos(f.Since))
	}
	q := "SELECT id, at, kind, session, summary, detail FROM ledger"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id DESC"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	var out []Entry
	err := db.view(ctx, func(tx *tx) error {
		out = out[:0]
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e Entry
			var at int64
			var detail string
			if err := rows.Scan(&e.ID, &at, &e.Kind, &e.Session, &e.Summary, &detail); err != nil {
				return err
			}
			e.At, e.Detail = instant(at), json.RawMessage(detail)
			out = append(out, e)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read ledger: %w", err)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}
