package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/policy"
)

// Settings keys.
const (
	settingNote    = "environment_note"
	settingLogText = "log_text" // "on" keeps the words of messages in the ledger
)

// MaxNote is the most characters the environment note may hold.
const MaxNote = policy.MaxNote

// ErrNoteTooLong reports an environment note over MaxNote characters.
var ErrNoteTooLong = fmt.Errorf("the environment note holds at most %d characters", MaxNote)

func (tx *tx) setting(ctx context.Context, key string) (string, error) {
	var v string
	err := tx.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func (tx *tx) setSetting(ctx context.Context, key, value, summary string) error {
	if _, err := tx.ExecContext(ctx,
		"INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		key, value); err != nil {
		return err
	}
	_, err := tx.appendLedger(ctx, KindSettingChanged, "", summary, map[string]string{"setting": key})
	return err
}

// Note returns the environment note; "" when the person wrote none.
func (db *DB) Note(ctx context.Context) (string, error) {
	return within(ctx, db.view, "read environment note", func(tx *tx) (string, error) {
		return tx.setting(ctx, settingNote)
	})
}

// SetNote sets the environment note as the person typed it. Only the
// person may call it.
func (db *DB) SetNote(ctx context.Context, note string) error {
	if err := checkNote(note); err != nil {
		return fmt.Errorf("set environment note: %w", err)
	}
	return db.change(ctx, "set environment note", func(tx *tx) error {
		return tx.setSetting(ctx, settingNote, note, fmt.Sprintf("environment note set (%d characters)", utf8.RuneCountInString(note)))
	})
}

func checkNote(note string) error {
	if !utf8.ValidString(note) {
		return errors.New("the environment note is not UTF-8 text")
	}
	if n := utf8.RuneCountInString(note); n > MaxNote {
		return fmt.Errorf("%w; this one has %d", ErrNoteTooLong, n)
	}
	return nil
}

// LogText reports whether the ledger keeps the words of messages.
func (db *DB) LogText(ctx context.Context) (bool, error) {
	v, err := within(ctx, db.view, "read text logging", func(tx *tx) (string, error) {
		return tx.setting(ctx, settingLogText)
	})
	return v == "on", err
}

// SetLogText turns the keeping of messages' words in the ledger on or off.
func (db *DB) SetLogText(ctx context.Context, on bool) error {
	v := "off"
	if on {
		v = "on"
	}
	return db.change(ctx, "set text logging", func(tx *tx) error {
		return tx.setSetting(ctx, settingLogText, v, "text logging "+v)
	})
}
