package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sayso-dev/sayso/internal/policy"
)

// Modes a session can be in. The store keeps them as text; an unknown or
// empty mode reads as ModeAsk, the most careful.
const (
	ModeAsk       = "ask"
	ModeAuto      = "auto"
	ModeAutopilot = "autopilot"
)

// modeRank orders modes as policy does, ask lowest; an unknown mode is
// ask.
func modeRank(m string) int {
	pm, _ := policy.ParseMode(m)
	return int(pm)
}

// CheckMode reports an error unless m is a mode policy knows.
func CheckMode(m string) error {
	_, err := policy.ParseMode(m)
	return err
}

// Session is one agent conversation or task, as listings show it: never
// with the words of its messages.
type Session struct {
	ID        string    `json:"id"`
	Agent     string    `json:"agent,omitempty"`
	Parent    string    `json:"parent,omitempty"` // set for a task
	Scoped    bool      `json:"scoped,omitempty"`
	Mode      string    `json:"mode"` // its own mode; a task also follows its parent's
	Held      bool      `json:"held"`
	HeldWhy   string    `json:"held_why,omitempty"`
	Turn      string    `json:"turn"`  // the current turn: the agent's id for it, or the count of messages
	Turns     int       `json:"turns"` // messages received
	Tainted   bool      `json:"tainted"`
	CopyWhy   string    `json:"copy_why,omitempty"` // for a task: why it holds no copy of its parent's words
	CreatedAt time.Time `json:"created_at"`

	releasedAt int64
}

// NewSession is a session the store sees for the first time.
type NewSession struct {
	ID    string
	Agent string
	Mode  string // the policy file's default_mode; empty is auto
}

const sessionColumns = "id, agent, COALESCE(parent, ''), scoped, mode, held, held_why, released_at, turn, turns, tainted, copy_why, created_at"

func scanSession(row scanner) (Session, error) {
	var s Session
	var created int64
	err := row.Scan(&s.ID, &s.Agent, &s.Parent, &s.Scoped, &s.Mode, &s.Held, &s.HeldWhy,
		&s.releasedAt, &s.Turn, &s.Turns, &s.Tainted, &s.CopyWhy, &created)
	s.CreatedAt = instant(created)
	return s, err
}

func (tx *tx) session(ctx context.Context, id string) (Session, error) {
	s, err := scanSession(tx.QueryRowContext(ctx, "SELECT "+sessionColumns+" FROM sessions WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	return s, err
}

// ensureSession returns the session, creating it when it is new.
func (tx *tx) ensureSession(ctx context.Context, n NewSession) (Session, error) {
	if n.ID == "" {
		return Session{}, errors.New("session has no id")
	}
	mode := n.Mode
	if mode == "" {
		mode = ModeAuto
	}
	if err := CheckMode(mode); err != nil {
		return Session{}, err
	}
	if _, err := tx.ExecContext(ctx,
		"INSERT INTO sessions (id, agent, mode, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
		n.ID, n.Agent, mode, nanos(tx.now)); err != nil {
		return Session{}, err
	}
	return tx.session(ctx, n.ID)
}

// EnsureSession returns the session, creating it in n.Mode when the store
// has not seen it before.
func (db *DB) EnsureSession(ctx context.Context, n NewSession) (Session, error) {
	return within(ctx, db.update, "open session "+n.ID, func(tx *tx) (Session, error) {
		return tx.ensureSession(ctx, n)
	})
}

// Session returns one session.
func (db *DB) Session(ctx context.Context, id string) (Session, error) {
	return within(ctx, db.view, "read session "+id, func(tx *tx) (Session, error) {
		return tx.session(ctx, id)
	})
}

// Sessions lists every session and task, oldest first, without the words
// of any message.
func (db *DB) Sessions(ctx context.Context) ([]Session, error) {
	return within(ctx, db.view, "list sessions", func(tx *tx) ([]Session, error) {
		rows, err := tx.QueryContext(ctx, "SELECT "+sessionColumns+" FROM sessions ORDER BY created_at, id")
		if err != nil {
			return nil, err
		}
		return collect(rows, scanSession)
	})
}

// Live is a session's mode and hold as its steps see them: a task follows
// its parent live and never has more than its parent.
type Live struct {
	Mode    string `json:"mode"`
	Held    bool   `json:"held"`
	HeldWhy string `json:"held_why,omitempty"`
}

// live walks from the session up through its parents: the most careful
// mode wins, and any held ancestor holds it.
func (tx *tx) live(ctx context.Context, s Session) (Live, error) {
	l := Live{Mode: s.Mode, Held: s.Held, HeldWhy: s.HeldWhy}
	if CheckMode(l.Mode) != nil {
		l.Mode = ModeAsk
	}
	seen := map[string]bool{s.ID: true}
	for p := s.Parent; p != ""; {
		if seen[p] {
			return Live{Mode: ModeAsk, Held: true, HeldWhy: "its parents form a loop"}, nil
		}
		seen[p] = true
		ps, err := tx.session(ctx, p)
		if err != nil {
			return Live{}, err
		}
		if modeRank(ps.Mode) < modeRank(l.Mode) {
			l.Mode = ps.Mode
			if CheckMode(l.Mode) != nil {
				l.Mode = ModeAsk
			}
		}
		if ps.Held && !l.Held {
			l.Held, l.HeldWhy = true, "its parent "+ps.ID+" is held: "+ps.HeldWhy
		}
		p = ps.Parent
	}
	return l, nil
}

// parents returns the session's parents, nearest first; a loop ends the
// walk where it closes.
func (tx *tx) parents(ctx context.Context, s Session) ([]string, error) {
	var out []string
	for p := s.Parent; p != "" && p != s.ID && !slices.Contains(out, p); {
		out = append(out, p)
		ps, err := tx.session(ctx, p)
		if err != nil {
			return nil, err
		}
		p = ps.Parent
	}
	return out, nil
}

// Live returns the mode and hold the session's steps are decided in.
func (db *DB) Live(ctx context.Context, id string) (Live, error) {
	var l Live
	err := db.view(ctx, func(tx *tx) error {
		s, err := tx.session(ctx, id)
		if err != nil {
			return err
		}
		l, err = tx.live(ctx, s)
		return err
	})
	if err != nil {
		return Live{}, fmt.Errorf("read session %s: %w", id, err)
	}
	return l, nil
}

// Hold stops a session: its non-read steps are denied until the person
// releases it.
func (db *DB) Hold(ctx context.Context, id, why string) error {
	if why == "" {
		why = "stopped by the person"
	}
	err := db.update(ctx, func(tx *tx) error { return tx.hold(ctx, id, why) })
	if err != nil {
		return fmt.Errorf("hold session %s: %w", id, err)
	}
	return nil
}

func (tx *tx) hold(ctx context.Context, id, why string) error {
	res, err := tx.ExecContext(ctx, "UPDATE sessions SET held = 1, held_why = ? WHERE id = ?", why, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	_, err = tx.appendLedger(ctx, KindSessionHeld, id, "session held: "+why, nil)
	return err
}

// Release lets a held session go on, and restarts its breaker's counters.
func (db *DB) Release(ctx context.Context, id string) error {
	return db.change(ctx, "release session "+id, func(tx *tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE sessions SET held = 0, held_why = '', released_at = ? WHERE id = ?", nanos(tx.now), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		_, err = tx.appendLedger(ctx, KindSessionRelease, id, "session released by the person", nil)
		return err
	})
}

// SetMode sets a session's own mode.
func (db *DB) SetMode(ctx context.Context, id, mode string) error {
	if err := CheckMode(mode); err != nil {
		return fmt.Errorf("set mode of %s: %w", id, err)
	}
	return db.change(ctx, "set mode of "+id, func(tx *tx) error {
		s, err := tx.session(ctx, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE sessions SET mode = ? WHERE id = ?", mode, id); err != nil {
			return err
		}
		_, err = tx.appendLedger(ctx, KindModeChanged, id, fmt.Sprintf("mode %s → %s", s.Mode, mode),
			map[string]string{"from": s.Mode, "to": mode})
		return err
	})
}
