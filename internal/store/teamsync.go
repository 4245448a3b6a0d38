package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Synced is what this node holds of one subject of the person's signed
// changes (a rule, or the environment note): the newest change it took,
// and the newest it offered for signing. Each state is the digest of what
// the change sets.
type Synced struct {
	Subject      string
	Version      int64
	State        []byte
	Offered      int64
	OfferedState []byte
}

// SyncedAll returns what the node holds of each subject.
func (db *DB) SyncedAll(ctx context.Context) (map[string]Synced, error) {
	out := map[string]Synced{}
	err := db.view(ctx, func(tx *tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT subject, version, state, offered, offered_state FROM team_changes")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s Synced
			if err := rows.Scan(&s.Subject, &s.Version, &s.State, &s.Offered, &s.OfferedState); err != nil {
				return err
			}
			out[s.Subject] = s
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read the synced changes: %w", err)
	}
	return out, nil
}

// Offer records that the node offered the hub a change of subject, at
// version, setting state: it is not offered again while it waits.
func (db *DB) Offer(ctx context.Context, subject string, version int64, state []byte) error {
	return db.change(ctx, "record an offered change", func(tx *tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO team_changes (subject, offered, offered_state) VALUES (?, ?, ?)
			ON CONFLICT (subject) DO UPDATE SET offered = excluded.offered, offered_state = excluded.offered_state`, subject, version, state)
		return err
	})
}

// SignedChange is a change the person signed, checked by the caller
// against the node's pinned passkeys: exactly one of Rule (kept when
// Keep, else forgotten) and Note.
type SignedChange struct {
	Subject string
	Version int64
	State   []byte
	Rule    *Rule
	Keep    bool
	Note    *string
}

// ErrStale is returned for a signed change no newer than the one the node
// took of the same subject.
var ErrStale = errors.New("no newer than the change this node holds")

// TakeChange applies a signed change and records its version, in one
// transaction, only when it is newer than the one held of its subject.
// The same change again takes nothing and is no error.
func (db *DB) TakeChange(ctx context.Context, c SignedChange) error {
	if (c.Rule == nil) == (c.Note == nil) || c.Subject == "" || c.Version <= 0 {
		return errors.New("take a change: it changes one rule or the note")
	}
	if c.Note != nil {
		if err := checkNote(*c.Note); err != nil {
			return fmt.Errorf("take a change: %w", err)
		}
	}
	return db.change(ctx, "take a change", func(tx *tx) error {
		var held, offered int64
		var state []byte
		err := tx.QueryRowContext(ctx, "SELECT version, state, offered FROM team_changes WHERE subject = ?", c.Subject).Scan(&held, &state, &offered)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if c.Version <= held {
			if c.Version == held && string(state) == string(c.State) {
				return nil
			}
			return fmt.Errorf("version %d of %s: %w (%d)", c.Version, c.Subject, ErrStale, held)
		}
		if c.Version < offered {
			// Done here after it: this machine's own change of the
			// subject, newer, waits for the person.
			return fmt.Errorf("version %d of %s: %w: this machine's own change %d, newer, waits for the person", c.Version, c.Subject, ErrStale, offered)
		}
		switch {
		case c.Note != nil:
			err = tx.setSetting(ctx, settingNote, *c.Note, fmt.Sprintf("environment note set (%d characters), signed by the person for all their machines", utf8.RuneCountInString(*c.Note)))
		case c.Keep:
			_, err = tx.addRule(ctx, *c.Rule, "kept, signed by the person for all their machines,")
		default:
			r := *c.Rule
			if r.Unit == "" {
				r.Unit = "command"
			}
			err = tx.QueryRowContext(ctx, "DELETE FROM rules WHERE tool = ? AND unit = ? AND pattern = ? AND cwd = ? RETURNING id",
				r.Tool, r.Unit, r.Pattern, r.Cwd).Scan(&r.ID)
			if errors.Is(err, sql.ErrNoRows) {
				err = nil
			}
			if err == nil {
				_, err = tx.appendLedger(ctx, KindRuleForgotten, "", fmt.Sprintf("rule forgotten, signed by the person for all their machines: %s %q in %s", r.Tool, r.Pattern, r.Cwd), r)
			}
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO team_changes (subject, version, state) VALUES (?, ?, ?)
			ON CONFLICT (subject) DO UPDATE SET version = excluded.version, state = excluded.state`, c.Subject, c.Version, c.State)
		return err
	})
}

// RecordChangeRefused writes why the node did not take a change the hub
// relayed.
func (db *DB) RecordChangeRefused(ctx context.Context, change int64, why string) error {
	return db.change(ctx, "record a refused change", func(tx *tx) error {
		_, err := tx.appendLedger(ctx, KindChangeRefused, "", fmt.Sprintf("change %d refused: %s", change, why), map[string]any{"change": change, "why": why})
		return err
	})
}
