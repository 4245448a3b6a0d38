package hub_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hubapi"
)

// TestOwnerNotSuperuser: a hub whose tables belong to an ordinary role
// (as an admin sets one up: no superuser) keeps its nodes' chains. The
// chain's check and the head read the ledger as the owner, through the
// row-level security that is forced on the owner too.
func TestOwnerNotSuperuser(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	rows := chain(0, hubapi.Genesis, 2, "a")
	if err := f.h.Append(ctx, f.adaNode, rows[:1]); err != nil {
		t.Fatal(err)
	}
	if err := f.h.Append(ctx, f.adaNode, rows[1:]); err != nil {
		t.Fatalf("the second row of a chain, on a hub owned by an ordinary role: %v", err)
	}
	if seq, hash, err := f.h.Head(ctx, f.adaNode); err != nil || seq != 2 || string(hash) != string(rows[1].Hash) {
		t.Fatalf("Head = %d, %x, %v; want 2, %x", seq, hash, err, rows[1].Hash)
	}
}

// TestOpenRefusesTheOwner: the hub does not serve as a login that could
// lift what guards the ledger — the tables' owner, a member of it, the
// database's owner, a superuser, one that makes roles or passes
// row-level security — nor on a database the owner has not migrated.
func TestOpenRefusesTheOwner(t *testing.T) {
	db := hubtest.Database(t)
	ctx := context.Background()
	su, err := pgx.Connect(ctx, db.Super)
	if err != nil {
		t.Fatal(err)
	}
	defer su.Close(ctx)
	for _, c := range []struct{ role, make string }{
		{"owner_member", "CREATE ROLE %s LOGIN IN ROLE " + db.OwnerRole + ", " + hub.Role},
		{"maker", "CREATE ROLE %s LOGIN CREATEROLE IN ROLE " + hub.Role},
		{"bypasser", "CREATE ROLE %s LOGIN BYPASSRLS IN ROLE " + hub.Role},
	} {
		role := c.role + "_" + db.ServeRole
		if _, err := su.Exec(ctx, fmt.Sprintf(c.make, role)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { su.Exec(context.Background(), "DROP ROLE "+role) })
		if h, err := hub.Open(ctx, hubtest.As(db.Super, role)); !errors.Is(err, hub.ErrOwnerLogin) {
			if err == nil {
				h.Close()
			}
			t.Errorf("Open as %s: %v, want ErrOwnerLogin", c.role, err)
		}
	}
	for name, dsn := range map[string]string{"the owner": db.Owner, "the superuser": db.Super} {
		if h, err := hub.Open(ctx, dsn); !errors.Is(err, hub.ErrOwnerLogin) {
			if err == nil {
				h.Close()
			}
			t.Errorf("Open as %s: %v, want ErrOwnerLogin", name, err)
		}
	}
	bare := hubtest.Roles(t)
	if h, err := hub.Open(ctx, bare.Serve); !errors.Is(err, hub.ErrSchema) {
		if err == nil {
			h.Close()
		}
		t.Errorf("Open on a database not migrated: %v, want ErrSchema", err)
	}
	if err := hub.Migrate(ctx, bare.Serve); err == nil {
		t.Error("the hub's login migrated a database it does not own")
	}
}
