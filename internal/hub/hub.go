package hub

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sayso-dev/sayso/internal/migration"
)

// Role is the database role the hub works as: it may only insert and read
// the ledger. The hub's login is a member of it and of nothing that owns
// the hub's tables.
const Role = "sayso_hub"

// Hub is an open hub database.
type Hub struct {
	pool *pgxpool.Pool

	sweep sync.Mutex
	swept time.Time // when old nonces were last forgotten
}

// ErrOwnerLogin is returned by Open for a login the hub must not serve as:
// one that owns the hub's tables or may act as their owner, a superuser,
// or one that passes row-level security or makes roles. From such a
// login a hub taken over could lift the ledger's triggers and rewrite it.
var ErrOwnerLogin = errors.New("the hub's login may act as the tables' owner")

// ErrSchema is returned by Open for a database whose migrations are not
// the ones this sayso has: 'sayso hub migrate' applies them.
var ErrSchema = errors.New("the hub's database is not migrated to this sayso")

// Open connects to the database at dsn as the hub's own login, which must
// not be able to act as the tables' owner (ErrOwnerLogin), to a database
// migrated to this sayso (ErrSchema), and works as Role on every
// connection. It applies no migration: the owner does, with Migrate.
func Open(ctx context.Context, dsn string) (*Hub, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("connect to hub database: %w", err)
	}
	err = checkLogin(ctx, conn)
	if err == nil {
		err = checkSchema(ctx, conn)
	}
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

// checkLogin refuses a login that could undo what guards the ledger: a
// superuser, one with BYPASSRLS or CREATEROLE (which grants itself any
// role), or a member of the role that owns a table, a function, a
// sequence or the schema of the hub (the schema's owner may drop what is
// in it; public's is the database's owner, pg_database_owner).
func checkLogin(ctx context.Context, conn *pgx.Conn) error {
	var who string
	var super, bypass, create, owns bool
	err := conn.QueryRow(ctx, `SELECT r.rolname, r.rolsuper, r.rolbypassrls, r.rolcreaterole,
		EXISTS (SELECT FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = 'public' AND pg_has_role(r.oid, c.relowner, 'MEMBER'))
		OR EXISTS (SELECT FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
			WHERE n.nspname = 'public' AND pg_has_role(r.oid, p.proowner, 'MEMBER'))
		OR EXISTS (SELECT FROM pg_namespace n WHERE n.nspname = 'public' AND pg_has_role(r.oid, n.nspowner, 'MEMBER'))
		OR pg_has_role(r.oid, (SELECT datdba FROM pg_database WHERE datname = current_database()), 'MEMBER')
		FROM pg_roles r WHERE r.rolname = session_user`).Scan(&who, &super, &bypass, &create, &owns)
	if err != nil {
		return fmt.Errorf("hub database: read the login's rights: %w", err)
	}
	switch {
	case super:
		return fmt.Errorf("%w: %s is a superuser", ErrOwnerLogin, who)
	case bypass:
		return fmt.Errorf("%w: %s passes row-level security (BYPASSRLS)", ErrOwnerLogin, who)
	case create:
		return fmt.Errorf("%w: %s makes roles (CREATEROLE), so it could grant itself the owner's", ErrOwnerLogin, who)
	case owns:
		return fmt.Errorf("%w: %s owns (or may act as the owner of) the database, its schema or a table of the hub: serve as a login that is only a member of %s", ErrOwnerLogin, who, Role)
	}
	return nil
}

// checkSchema refuses a database that lacks a migration of this sayso, or
// holds one this sayso does not know.
func checkSchema(ctx context.Context, conn *pgx.Conn) error {
	ms, err := migration.ReadNumbered(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	have, err := applied(ctx, conn)
	if err != nil {
		return fmt.Errorf("%w: %v (sayso hub migrate applies the migrations, as the tables' owner)", ErrSchema, err)
	}
	known := map[int]bool{}
	for _, m := range ms {
		known[m.Version] = true
		if !have[m.Version] {
			return fmt.Errorf("%w: it lacks %s (sayso hub migrate applies it, as the tables' owner)", ErrSchema, m.Name)
		}
	}
	for v := range have {
		if !known[v] {
			return fmt.Errorf("%w: it holds migration %d, which this sayso does not know (a newer sayso made it)", ErrSchema, v)
		}
	}
	return nil
}

// applied is the set of migrations schema_version records.
func applied(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}) (map[int]bool, error) {
	rows, err := q.Query(ctx, "SELECT version FROM schema_version")
	if err != nil {
		return nil, err
	}
	vs, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return nil, err
	}
	have := map[int]bool{}
	for _, v := range vs {
		have[v] = true
	}
	return have, nil
}

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrate connects to the database at dsn as the role that is to own the
// hub's tables and applies every migration the database lacks, each in
// its own transaction under one advisory lock, so migrations started at
// once apply each migration once. schema_version records each migration
// applied, so one whose number lands below another's is applied too.
// The hub never serves as this role (Open refuses it): only the owner
// can lift a trigger or row-level security.
func Migrate(ctx context.Context, dsn string) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return fmt.Errorf("connect to hub database: %w", err)
	}
	defer conn.Close(ctx)
	ms, err := migration.ReadNumbered(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version int NOT NULL)`); err != nil {
		return fmt.Errorf("hub schema version: %w", err)
	}
	known := map[int]bool{}
	for _, m := range ms {
		known[m.Version] = true
	}
	for _, m := range ms {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(7411, 0)"); err != nil {
				return err
			}
			have, err := applied(ctx, tx)
			if err != nil {
				return err
			}
			for v := range have {
				if !known[v] {
					return fmt.Errorf("the database holds migration %d, which this sayso does not know", v)
				}
			}
			if have[m.Version] {
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
