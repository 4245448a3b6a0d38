package hub

import (
	"context"
	"embed"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sayso-dev/sayso/internal/migration"
)

// Role is the database role the hub works as: it may only insert and read
// the ledger.
const Role = "sayso_hub"

// Hub is an open hub database.
type Hub struct {
	pool *pgxpool.Pool
}

// Open connects to the database at dsn, applies the migrations it lacks
// with the connection's own role, then works as Role on every connection.
func Open(ctx context.Context, dsn string) (*Hub, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("connect to hub database: %w", err)
	}
	err = migrate(ctx, conn)
	conn.Close(ctx)
	if err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("hub database: %w", err)
	}
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, "SET ROLE "+Role)
		return err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("hub database: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("hub database as %s: %w", Role, err)
	}
	return &Hub{pool: pool}, nil
}

// Close closes the hub's connections.
func (h *Hub) Close() { h.pool.Close() }

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrate applies every migration the database has not recorded, each in
// its own transaction under one advisory lock, so hubs starting at once
// apply each migration once. Each version applied is recorded: a number
// left free by other work on the schema and filled later is applied then.
func migrate(ctx context.Context, conn *pgx.Conn) error {
	ms, err := migration.Read(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version int NOT NULL)`); err != nil {
		return fmt.Errorf("hub schema version: %w", err)
	}
	for _, m := range ms {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(7411, 0)"); err != nil {
				return err
			}
			var v int
			var done bool
			err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0), coalesce(bool_or(version = $1), false) FROM schema_version", m.Version).Scan(&v, &done)
			if err != nil {
				return err
			}
			if v > migration.Last(ms) {
				return fmt.Errorf("schema version %d is newer than this sayso (%d)", v, migration.Last(ms))
			}
			if done {
				return nil
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			_, err = tx.Exec(ctx, "INSERT INTO schema_version VALUES ($1)", m.Version)
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate hub %s: %w", m.Name, err)
		}
	}
	return nil
}

// ErrNotFound is returned when a person, node or card does not exist.
var ErrNotFound = errors.New("not found")
