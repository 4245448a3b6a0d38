package store

import (
	"context"
	"embed"
	"fmt"

	"github.com/sayso-dev/sayso/internal/migration"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrate applies every migration newer than the database, each in its own
// transaction. The version is read again inside the transaction, so
// processes opening a new database at once apply each migration once.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migration.Read(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	var current int
	if err := retry(ctx, func() error {
		return db.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current)
	}); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > migration.Last(ms) {
		return fmt.Errorf("schema version %d is newer than this sayso (%d)", current, migration.Last(ms))
	}
	for _, m := range ms {
		if m.Version <= current {
			continue
		}
		err := db.update(ctx, func(tx *tx) error {
			var v int
			if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
				return err
			}
			if v >= m.Version {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.Version))
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate %s: %w", m.Name, err)
		}
	}
	return nil
}
