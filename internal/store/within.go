package store

import (
	"context"
	"database/sql"
	"fmt"
)

// within runs f in the transaction run makes (db.view or db.update) and
// returns what f returned; an error says what was being done, and the
// value is then the zero value.
func within[T any](ctx context.Context, run func(context.Context, func(*tx) error) error, what string, f func(*tx) (T, error)) (T, error) {
	var v T
	err := run(ctx, func(t *tx) (err error) {
		v, err = f(t)
		return err
	})
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

// collect reads every row of rows with scan, in order, and closes rows.
func collect[T any](rows *sql.Rows, scan func(scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// change runs fn in one update transaction; an error says what was being
// done.
func (db *DB) change(ctx context.Context, what string, fn func(*tx) error) error {
	if err := db.update(ctx, fn); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
