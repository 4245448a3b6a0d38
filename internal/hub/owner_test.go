package hub_test

import (
	"context"
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/pgtest"
)

// TestOwnerNotSuperuser: a hub whose database belongs to an ordinary role
// (as an admin sets one up: no superuser) keeps its nodes' chains. The
// chain's check and the head read the ledger as the owner, through the
// row-level security that is forced on the owner too.
func TestOwnerNotSuperuser(t *testing.T) {
	super := pgtest.Shared().Database(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, super)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	db := conn.Config().Database
	owner := "o_" + db
	for _, q := range []string{
		"CREATE ROLE " + owner + " LOGIN CREATEROLE NOSUPERUSER",
		"ALTER DATABASE " + db + " OWNER TO " + owner,
		"GRANT ALL ON SCHEMA public TO " + owner,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	dsn := strings.Replace(super, "user="+pgtest.Superuser, "user="+owner, 1)
	h, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ada, err := h.AddPerson(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _ := ed25519.GenerateKey(nil)
	node, err := h.AddNode(ctx, "ada-laptop", ada, false, pub)
	if err != nil {
		t.Fatal(err)
	}
	rows := chain(0, hub.Genesis, 2, "a")
	if err := h.Append(ctx, node, rows[:1]); err != nil {
		t.Fatal(err)
	}
	if err := h.Append(ctx, node, rows[1:]); err != nil {
		t.Fatalf("the second row of a chain, on a hub owned by an ordinary role: %v", err)
	}
	if seq, hash, err := h.Head(ctx, node); err != nil || seq != 2 || string(hash) != string(rows[1].Hash) {
		t.Fatalf("Head = %d, %x, %v; want 2, %x", seq, hash, err, rows[1].Hash)
	}
}
