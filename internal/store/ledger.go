package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Ledger kinds.
const (
	KindDecision       = "decision"
	KindMessage        = "message"
	KindTask           = "task"
	KindTaskEnded      = "task-ended"
	KindSessionEnded   = "session-ended"
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
	KindCardExpired    = "card-expired"
	KindHookFailed     = "hook-failed"    // the hook failed closed: the real error
	KindEgressRefused  = "egress-refused" // the wall refused a walled step's connection
	KindAnswerRefused  = "answer-refused" // an answer relayed by the hub that the node did not take
	KindChangeRefused  = "change-refused" // a change to the person's rules or note relayed by the hub that the node did not take
)

// MaxText bounds the text a ledger row keeps of a step: a command can be a
// megabyte long. A longer text keeps its first MaxText bytes and, beside
// them, its length and SHA-256, which name the whole of it.
const MaxText = 2048

// Cap returns s, or its first MaxText bytes (whole characters) followed
// by its length and SHA-256 when it is longer.
func Cap(s string) string { return capAt(s, MaxText) }

// maxSummary bounds a row's whole summary: a capped step and a reason.
const maxSummary = 4 * MaxText

func capAt(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%s… [%d bytes, sha256 %s]", s[:cut], len(s), hex.EncodeToString(sum[:]))
}

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
	After   int64     // only rows written after the row of this id
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
	summary = capAt(summary, maxSummary)
	res, err := tx.ExecContext(ctx,
		"INSERT INTO ledger (at, kind, session, summary, detail) VALUES (?, ?, ?, ?, ?)",
		nanos(tx.now), kind, session, summary, text)
	if err != nil {
		return 0, fmt.Errorf("append %s to ledger: %w", kind, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	e := Entry{ID: id, At: tx.now, Kind: kind, Session: session, Summary: summary, Detail: json.RawMessage(text)}
	if err := tx.chain(ctx, e); err != nil {
		return 0, fmt.Errorf("append %s to ledger: %w", kind, err)
	}
	return id, nil
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
	if f.After > 0 {
		where = append(where, "id > ?")
		args = append(args, f.After)
	}
	q := "SELECT id, at, kind, session, summary, detail FROM ledger"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id DESC"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	out, err := within(ctx, db.view, "read ledger", func(tx *tx) ([]Entry, error) {
		return tx.entries(ctx, q, args...)
	})
	if err != nil {
		return nil, err
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// entries are the ledger rows query q selects (id, at, kind, session,
// summary, detail), in its order.
func (tx *tx) entries(ctx context.Context, q string, args ...any) ([]Entry, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanEntry)
}

// scanEntry reads one ledger row: id, at, kind, session, summary, detail.
func scanEntry(row scanner) (Entry, error) {
	var e Entry
	var at int64
	var detail string
	err := row.Scan(&e.ID, &at, &e.Kind, &e.Session, &e.Summary, &detail)
	e.At, e.Detail = instant(at), json.RawMessage(detail)
	return e, err
}

// Failure is a step the hook answered without a decision: it could not
// read the input or decide, and failed closed. Err is the real error
// behind the short reason the agent was told.
type Failure struct {
	Session string `json:"session,omitempty"`
	Agent   string `json:"agent"`
	Event   string `json:"event,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Step    string `json:"step,omitempty"`
	Answer  string `json:"answer"` // what the agent was told: deny, or ask
	Reason  string `json:"reason"` // the short reason the agent was told
	Err     string `json:"error"`
}

// RecordFailure records a step the hook failed closed on, with its real
// error.
func (db *DB) RecordFailure(ctx context.Context, f Failure) error {
	f.Step, f.Reason, f.Err = Cap(f.Step), Cap(f.Reason), Cap(f.Err)
	what := f.Step
	if what == "" {
		what = f.Agent + " " + f.Event
	}
	return db.change(ctx, "record the hook's failure", func(tx *tx) error {
		_, err := tx.appendLedger(ctx, KindHookFailed, f.Session, "hook failed closed ("+f.Answer+"): "+what+": "+f.Err, f)
		return err
	})
}
