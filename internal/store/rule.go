package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Rule is an "always allow" rule the person pressed.
type Rule struct {
	ID        int64     `json:"id"`
	Tool      string    `json:"tool"`
	Unit      string    `json:"unit"` // command or verb
	Pattern   string    `json:"pattern"`
	Cwd       string    `json:"cwd"`
	CreatedAt time.Time `json:"created_at"`
}

func (r Rule) same(o Rule) bool {
	return r.Tool == o.Tool && r.Unit == o.Unit && r.Pattern == o.Pattern && r.Cwd == o.Cwd
}

// Rules lists the rules, oldest first. A caller re-validates each before
// it uses it.
func (db *DB) Rules(ctx context.Context) ([]Rule, error) {
	return within(ctx, db.view, "list rules", func(tx *tx) ([]Rule, error) {
		return tx.rules(ctx)
	})
}

func (tx *tx) rules(ctx context.Context) ([]Rule, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id, tool, unit, pattern, cwd, created_at FROM rules ORDER BY id")
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (Rule, error) {
		var r Rule
		var at int64
		err := row.Scan(&r.ID, &r.Tool, &r.Unit, &r.Pattern, &r.Cwd, &at)
		r.CreatedAt = instant(at)
		return r, err
	})
}

// AddRule keeps a rule the person pressed on a card; the caller has
// validated it. Keeping a rule already kept returns the one kept.
func (db *DB) AddRule(ctx context.Context, r Rule) (Rule, error) {
	err := db.update(ctx, func(tx *tx) (err error) {
		r, err = tx.addRule(ctx, r, "kept")
		return err
	})
	if err != nil {
		return Rule{}, fmt.Errorf("keep rule %q: %w", r.Pattern, err)
	}
	return r, nil
}

func (tx *tx) addRule(ctx context.Context, r Rule, how string) (Rule, error) {
	if r.Unit == "" {
		r.Unit = "command"
	}
	var at int64
	err := tx.QueryRowContext(ctx,
		`INSERT INTO rules (tool, unit, pattern, cwd, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (tool, unit, pattern, cwd) DO UPDATE SET tool = excluded.tool RETURNING id, created_at`,
		r.Tool, r.Unit, r.Pattern, r.Cwd, nanos(tx.now)).Scan(&r.ID, &at)
	if err != nil {
		return Rule{}, err
	}
	r.CreatedAt = instant(at)
	_, err = tx.appendLedger(ctx, KindRuleKept, "", fmt.Sprintf("rule %d %s: %s %q in %s", r.ID, how, r.Tool, r.Pattern, r.Cwd), r)
	return r, err
}

// ForgetRule forgets a rule.
func (db *DB) ForgetRule(ctx context.Context, id int64) error {
	return db.change(ctx, fmt.Sprintf("forget rule %d", id), func(tx *tx) error {
		var r Rule
		err := tx.QueryRowContext(ctx, "DELETE FROM rules WHERE id = ? RETURNING id, tool, unit, pattern, cwd", id).
			Scan(&r.ID, &r.Tool, &r.Unit, &r.Pattern, &r.Cwd)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("rule %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		_, err = tx.appendLedger(ctx, KindRuleForgotten, "", fmt.Sprintf("rule %d forgotten: %s %q in %s", r.ID, r.Tool, r.Pattern, r.Cwd), r)
		return err
	})
}
