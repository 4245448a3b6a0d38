package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// PageFilter selects one page of ledger rows, newest first, in SQL: the
// pages read a page at a time, never the whole ledger.
type PageFilter struct {
	Session  string
	Kind     string   // only rows of this kind
	Decision string   // only decisions with this decision; Missed: only missed cards
	Class    string   // only rows whose diagnostic names this class
	Words    []string // only rows whose summary or detail holds every word, in any case
	Before   int64    // only rows older than the row of this id (the next page's key)
	Limit    int      // at most this many; 0 is 100
}

// DecisionMissed is PageFilter's Decision for the cards that stopped
// waiting unanswered.
const DecisionMissed = "missed"

// Page returns one page of ledger rows, newest first. It reads the rows
// by the primary key (or a session's by ledger_session) from Before down
// and stops at Limit: a page costs the rows it reads past, not the
// ledger. Words are matched in SQL as ASCII case-insensitive.
func (db *DB) Page(ctx context.Context, f PageFilter) ([]Entry, error) {
	var where []string
	var args []any
	if f.Session != "" {
		where, args = append(where, "session = ?"), append(args, f.Session)
	}
	if f.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, f.Kind)
	}
	switch f.Decision {
	case "":
	case DecisionMissed:
		where, args = append(where, "kind = ?"), append(args, KindCardExpired)
	default:
		where, args = append(where, "kind <> ? AND json_extract(detail, '$.decision') = ?"), append(args, KindCardExpired, f.Decision)
	}
	if f.Class != "" {
		where = append(where, "EXISTS (SELECT 1 FROM json_each(detail, '$.diagnostic.classes') WHERE value = ?)")
		args = append(args, f.Class)
	}
	for _, w := range f.Words {
		where = append(where, "instr(lower(summary || ' ' || detail), ?) > 0")
		args = append(args, strings.ToLower(w))
	}
	if f.Before > 0 {
		where, args = append(where, "id < ?"), append(args, f.Before)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	q := "SELECT id, at, kind, session, summary, detail FROM ledger"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += fmt.Sprintf(" ORDER BY id DESC LIMIT %d", limit)
	return within(ctx, db.view, "read a page of the ledger", func(tx *tx) ([]Entry, error) {
		return tx.entries(ctx, q, args...)
	})
}

// outcomeReach bounds how many of its session's later rows are read for
// an ask's outcome. While its card waits the agent waits too, so the
// person's answer (or the card's end) comes before the session does much
// else; an ask with none within reach shows no outcome.
const outcomeReach = 200

// AskOutcome is what became of an asked step: the person's answer, or
// DecisionMissed, and why.
type AskOutcome struct {
	Answer string // allow-once, always, deny… or DecisionMissed
	Why    string // the person's answer in words, or why the card was missed
}

// Outcomes finds, for each ask among rows (decisions, as Page returns
// them), what became of it: the first answer or missed card of the same
// session and step after it, unless another ask of the same step came
// first and took it. Each ask costs one seek in ledger_session and at
// most outcomeReach rows.
func (db *DB) Outcomes(ctx context.Context, rows []Entry) (map[int64]AskOutcome, error) {
	out := map[int64]AskOutcome{}
	err := db.view(ctx, func(tx *tx) error {
		for _, r := range rows {
			var d struct {
				Decision string `json:"decision"`
				Step     string `json:"step"`
			}
			if r.Kind != KindDecision || json.Unmarshal(r.Detail, &d) != nil || d.Decision != "ask" {
				continue
			}
			o, err := tx.outcome(ctx, r.ID, r.Session, Cap(d.Step))
			if err != nil {
				return err
			}
			if o.Answer != "" {
				out[r.ID] = o
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the outcomes of asks: %w", err)
	}
	return out, nil
}

func (tx *tx) outcome(ctx context.Context, id int64, session, step string) (AskOutcome, error) {
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(`SELECT kind, detail FROM ledger
		WHERE session = ? AND id > ? ORDER BY id LIMIT %d`, outcomeReach), session, id)
	if err != nil {
		return AskOutcome{}, err
	}
	defer rows.Close()
	for rows.Next() {
		var kind, detail string
		if err := rows.Scan(&kind, &detail); err != nil {
			return AskOutcome{}, err
		}
		if kind != KindDecision && kind != KindAnswer && kind != KindCardExpired {
			continue
		}
		var d struct {
			Decision string `json:"decision"`
			Answer   string `json:"answer"`
			Step     string `json:"step"`
			Why      string `json:"why"`
		}
		if json.Unmarshal([]byte(detail), &d) != nil || Cap(d.Step) != step {
			continue
		}
		switch kind {
		case KindDecision:
			if d.Decision == "ask" {
				return AskOutcome{}, rows.Err() // a later ask of the same step takes what comes
			}
		case KindAnswer:
			return AskOutcome{d.Answer, "the person answered " + d.Answer}, nil
		case KindCardExpired:
			return AskOutcome{DecisionMissed, d.Why}, nil
		}
	}
	return AskOutcome{}, rows.Err()
}

// Activities reads every session's activity from the ledger in one
// statement: for each session, a seek per kind in ledger_session_kind.
func (db *DB) Activities(ctx context.Context) (map[string]Activity, error) {
	out := map[string]Activity{}
	err := db.view(ctx, func(tx *tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT s.id, s.ended_at,
			max(COALESCE((SELECT max(at) FROM ledger WHERE session = s.id AND kind = ?1), 0),
			    COALESCE((SELECT max(at) FROM ledger WHERE session = s.id AND kind = ?2), 0),
			    COALESCE((SELECT max(at) FROM ledger WHERE session = s.id AND kind = ?3), 0)),
			max(COALESCE((SELECT max(at) FROM ledger WHERE session = s.id AND kind = ?4), 0),
			    COALESCE((SELECT max(at) FROM ledger WHERE session = s.id AND kind = ?5), 0)),
			COALESCE((SELECT json_extract(detail, '$.cwd') FROM ledger
				WHERE session = s.id AND kind = ?1 AND COALESCE(json_extract(detail, '$.cwd'), '') <> ''
				ORDER BY at DESC, id DESC LIMIT 1), '')
			FROM sessions s`, KindDecision, KindMessage, KindTask, KindSessionEnded, KindTaskEnded)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var endedAt, last, end int64
			var a Activity
			if err := rows.Scan(&id, &endedAt, &last, &end, &a.Folder); err != nil {
				return err
			}
			out[id] = activityOf(a, endedAt, last, end)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read the sessions' activity: %w", err)
	}
	return out, nil
}
