package hub_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sayso-dev/sayso/internal/hub"
)

// TestAttackAsTheHubsRole: a hub whose process is taken over works as the
// hub's role. It cannot turn off what guards the ledger and the answers:
// the triggers, row-level security, the functions the triggers call; nor
// rewrite an answer, a card's bytes, a node's person or a passkey; nor
// append to a node's chain a row stamped with another person.
func TestAttackAsTheHubsRole(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	rows := chain(0, hub.Genesis, 2, "kept")
	if err := f.h.Append(ctx, f.adaNode, rows); err != nil {
		t.Fatal(err)
	}
	if err := f.h.PostCard(ctx, f.adaNode, "c1", []byte(`{"card":"c1","step":"git push --force"}`)); err != nil {
		t.Fatal(err)
	}
	if err := f.h.AddAnswer(ctx, "c1", "deny", nil); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, f.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// A row that continues ada's chain, stamped with bob.
	next := chain(2, rows[1].Hash, 1, "bob's")[0]
	stamped := fmt.Sprintf(`INSERT INTO ledger (node_id, seq, person_id, body, prev, hash) VALUES (%d, 3, %d, '\x%x', '\x%x', '\x%x')`,
		f.adaNode, f.bob, next.Body, next.Prev, next.Hash)
	for _, q := range []string{
		stamped,
		"ALTER TABLE ledger DISABLE TRIGGER ledger_no_update",
		"ALTER TABLE ledger DISABLE TRIGGER ALL",
		"DROP TRIGGER ledger_chain ON ledger",
		"ALTER TABLE ledger NO FORCE ROW LEVEL SECURITY",
		"ALTER TABLE ledger DISABLE ROW LEVEL SECURITY",
		"DROP POLICY ledger_read ON ledger",
		"CREATE POLICY everything ON ledger FOR ALL USING (true)",
		"CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'",
		"CREATE FUNCTION public.sha256(bytea) RETURNS bytea LANGUAGE sql AS 'SELECT $1'",
		"ALTER TABLE ledger OWNER TO sayso_hub",
		"UPDATE ledger SET body = 'x'",
		"UPDATE answers SET verdict = 'allow'",
		"DELETE FROM answers",
		"UPDATE cards SET body = 'x', digest = 'x'",
		"UPDATE nodes SET person_id = person_id",
		"UPDATE passkeys SET public_key = 'x'",
		"UPDATE bundles SET body = 'x'",
		"DELETE FROM bundles",
		"INSERT INTO answers (card_id, verdict) VALUES ('c1', 'ALLOW')",
		"INSERT INTO answers (card_id, verdict) VALUES ('c1', 'allow ')",
	} {
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "SET LOCAL ROLE "+hub.Role); err != nil {
			t.Fatal(err)
		}
		_, err = tx.Exec(ctx, q)
		tx.Rollback(ctx)
		// Refused for want of the right, or by a check: not for a typo.
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "42501" && pe.Code != "23514" {
			t.Errorf("as the hub's role, %q: %v; want it refused", q, err)
		}
	}
	// What the hub's role could do changed nothing.
	seq, hash, err := f.h.Head(ctx, f.adaNode)
	if err != nil || seq != 2 || string(hash) != string(rows[1].Hash) {
		t.Fatalf("the ledger's head is %d %x (%v), want row 2 as shipped", seq, hash, err)
	}
	as, err := f.h.Answers(ctx, "c1")
	if err != nil || len(as) != 1 || as[0].Verdict != "deny" {
		t.Fatalf("answers to c1: %+v, %v; want the one deny", as, err)
	}
}
