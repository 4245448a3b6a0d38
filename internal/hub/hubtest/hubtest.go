// Package hubtest makes a hub's database for a test as an admin sets one
// up: a fresh database of the test PostgreSQL (package pgtest) owned by a
// role of its own, which applies the migrations, and a login for the hub
// that is only a member of hub.Role. Tests that need the database's
// superuser (to look at or edit it by hand) have its connection string
// too.
package hubtest

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/pgtest"
)

// DB is a hub's database and the ways into it.
type DB struct {
	Super string // the cluster's superuser
	Owner string // the role that owns the hub's tables and migrates them
	Serve string // the hub's login: a member of hub.Role, owning nothing
	// OwnerRole and ServeRole are the two roles' names.
	OwnerRole, ServeRole string
}

// Roles makes a fresh database owned by a role of its own and a login for
// the hub, not yet migrated.
func Roles(t testing.TB) DB {
	t.Helper()
	super := pgtest.Shared().Database(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, super)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	name := conn.Config().Database
	db := DB{Super: super, OwnerRole: "o_" + name, ServeRole: "s_" + name}
	owner, serve := pgx.Identifier{db.OwnerRole}.Sanitize(), pgx.Identifier{db.ServeRole}.Sanitize()
	for _, q := range []string{
		// hub.Role is the cluster's, made once by its superuser; tests
		// running at once may race to make it.
		`DO $$ BEGIN CREATE ROLE ` + hub.Role + ` NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
		"CREATE ROLE " + owner + " LOGIN NOSUPERUSER NOCREATEROLE",
		"ALTER DATABASE " + pgx.Identifier{name}.Sanitize() + " OWNER TO " + owner,
		"CREATE ROLE " + serve + " LOGIN NOSUPERUSER NOCREATEROLE IN ROLE " + hub.Role,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Owner = As(super, db.OwnerRole)
	db.Serve = As(super, db.ServeRole)
	return db
}

// Database is Roles, migrated by the owner.
func Database(t testing.TB) DB {
	t.Helper()
	db := Roles(t)
	if err := hub.Migrate(context.Background(), db.Owner); err != nil {
		t.Fatalf("migrate as the owner: %v", err)
	}
	return db
}

// Open opens a fresh hub over Database, closed when t ends.
func Open(t testing.TB) (*hub.Hub, DB) {
	t.Helper()
	db := Database(t)
	h, err := hub.Open(context.Background(), db.Serve)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h, db
}

// As is dsn with its user replaced by role.
func As(dsn, role string) string {
	return strings.Replace(dsn, "user="+pgtest.Superuser+" ", "user="+role+" ", 1)
}
