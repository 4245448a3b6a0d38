package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
)

// Answered is the person's answer to a card about a step, and what it
// keeps.
type Answered struct {
	Session string
	Step    string
	Answer  card.Answer
	// Rules are the card's offer, kept by AlwaysAllow; any other answer
	// keeps none.
	Rules []Rule
	// HeldWhy is why DenyAndHold holds the session ("" says so plainly);
	// any other answer holds nothing.
	HeldWhy string
}

// answerDetail is an answer's ledger detail.
type answerDetail struct {
	Answer card.Answer `json:"answer"`
	Step   string      `json:"step"`
}

// Answer keeps the person's answer to a card in one transaction: the
// rules "always" keeps, the hold of "deny-hold", a deny's count toward
// the session's breaker, and the answer's ledger row. All of it is kept,
// or none.
func (db *DB) Answer(ctx context.Context, a Answered) error {
	err := db.update(ctx, func(tx *tx) error {
		if !a.Answer.Known() {
			return fmt.Errorf("%w %d", card.ErrUnknownAnswer, uint8(a.Answer))
		}
		if _, err := tx.session(ctx, a.Session); err != nil {
			return err
		}
		if a.Answer.Keeps() {
			for _, r := range a.Rules {
				if _, err := tx.addRule(ctx, r, "kept"); err != nil {
					return err
				}
			}
		}
		if a.Answer.Holds() {
			why := a.HeldWhy
			if why == "" {
				why = "the person denied " + a.Step + " and held the session"
			}
			if err := tx.hold(ctx, a.Session, why); err != nil {
				return err
			}
		}
		if !a.Answer.Allows() {
			if _, err := tx.ExecContext(ctx, "INSERT INTO breaker (session, kind, created_at) VALUES (?, 'decline', ?)", a.Session, nanos(tx.now)); err != nil {
				return err
			}
		}
		step := Cap(a.Step)
		_, err := tx.appendLedger(ctx, KindAnswer, a.Session, a.Answer.String()+": "+step, answerDetail{a.Answer, step})
		return err
	})
	if err != nil {
		return fmt.Errorf("record answer in %s: %w", a.Session, err)
	}
	return nil
}

// RefusedAnswer is an answer the hub relayed to a card that the node did not
// take: not signed by the card's person over exactly that card and
// verdict, or its signature taken once already. It allowed nothing.
type RefusedAnswer struct {
	Card    string `json:"card"`
	Answer  int64  `json:"answer"` // the hub's id of the answer
	Verdict string `json:"verdict"`
	Step    string `json:"step"`
	Why     string `json:"why"`
}

// RecordAnswerRefused records an answer the node refused, in the ledger
// of the card's session.
func (db *DB) RecordAnswerRefused(ctx context.Context, session string, r RefusedAnswer) error {
	err := db.update(ctx, func(tx *tx) error {
		if _, err := tx.session(ctx, session); err != nil {
			return err
		}
		r.Step = Cap(r.Step)
		_, err := tx.appendLedger(ctx, KindAnswerRefused, session, "answer refused: "+r.Verdict+" to "+r.Step+": "+r.Why, r)
		return err
	})
	if err != nil {
		return fmt.Errorf("record refused answer in %s: %w", session, err)
	}
	return nil
}

// How a card stopped waiting unanswered: the word a missed card's row
// keeps in its detail as "cause".
const (
	// MissedTimeout: sayso stopped waiting, its client's wait for the
	// hook about to run out (or the person's --card-timeout).
	MissedTimeout = "timeout"
	// MissedLeft: the agent stopped waiting first: its client ended the
	// hook (the person answered in the terminal, the turn was interrupted,
	// the session ended) or the hook went away.
	MissedLeft = "left"
	// MissedStopped: sayso serve stopped while the card waited.
	MissedStopped = "stopped"
)

// Missed is a card that stopped waiting without an answer the hook took:
// a card-expired row of the ledger.
type Missed struct {
	Row      int64     `json:"row"` // the ledger row, 0 until recorded
	At       time.Time `json:"at"`  // when it stopped waiting
	Card     string    `json:"card"`
	Session  string    `json:"session"`
	Agent    string    `json:"agent,omitempty"`
	Tool     string    `json:"tool,omitempty"`
	Step     string    `json:"step"`
	Cwd      string    `json:"cwd,omitempty"`
	Posted   time.Time `json:"posted,omitzero"`
	Deadline time.Time `json:"deadline,omitzero"` // when it was to stop waiting
	Cause    string    `json:"cause"`             // MissedTimeout, MissedLeft or MissedStopped
	Why      string    `json:"why"`               // the cause in words
}

// RecordCardExpired records that a card stopped waiting without an answer
// the hook took: it timed out, the hook went away, or the gateway
// stopped. Nothing was kept.
func (db *DB) RecordCardExpired(ctx context.Context, m Missed) error {
	switch m.Cause {
	case MissedTimeout, MissedLeft, MissedStopped:
	default:
		return fmt.Errorf("record expired card in %s: unknown cause %q", m.Session, m.Cause)
	}
	err := db.update(ctx, func(tx *tx) error {
		if _, err := tx.session(ctx, m.Session); err != nil {
			return err
		}
		m.Step = Cap(m.Step)
		m.Row, m.At = 0, tx.now
		_, err := tx.appendLedger(ctx, KindCardExpired, m.Session, "card expired: "+m.Step+": "+m.Why, m)
		return err
	})
	if err != nil {
		return fmt.Errorf("record expired card in %s: %w", m.Session, err)
	}
	return nil
}

// MissedCards returns the cards that stopped waiting unanswered, newest
// first, at most limit (0: 100).
func (db *DB) MissedCards(ctx context.Context, limit int) ([]Missed, error) {
	if limit <= 0 {
		limit = 100
	}
	var out []Missed
	err := db.view(ctx, func(tx *tx) error {
		out = out[:0]
		rows, err := tx.QueryContext(ctx, "SELECT id, at, session, detail FROM ledger WHERE kind = ? ORDER BY id DESC LIMIT ?", KindCardExpired, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m Missed
			var at int64
			var session, detail string
			if err := rows.Scan(&m.Row, &at, &session, &detail); err != nil {
				return err
			}
			row := m.Row
			if err := json.Unmarshal([]byte(detail), &m); err != nil {
				return fmt.Errorf("row %d: %w", row, err)
			}
			m.Row, m.At, m.Session = row, instant(at), session
			if m.Cause == "" { // a row from before causes were kept
				m.Cause = MissedLeft
				if strings.Contains(m.Why, "did not answer within") {
					m.Cause = MissedTimeout
				}
			}
			out = append(out, m)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read missed cards: %w", err)
	}
	return out, nil
}
