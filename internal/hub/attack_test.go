package hub_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hubapi"
)

// TestAttackAsTheHubsRole: a hub whose process is taken over works as the
// hub's role. It cannot turn off what guards the ledger and the answers:
// the triggers, row-level security, the functions the triggers call; nor
// rewrite an answer, a card's bytes, a node's person or a passkey; nor
// append to a node's chain a row stamped with another person.
func TestAttackAsTheHubsRole(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	rows := chain(0, hubapi.Genesis, 2, "kept")
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
		"UPDATE answers SET verdict = 'allow-once'",
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

// TestAttackAsTheHubsLogin: a hub whose process is taken over holds its
// own login, and RESET ROLE takes it out of the hub's role. From there it
// still cannot lift the ledger's triggers or row-level security, drop,
// truncate or rewrite the ledger, nor lead the owner's functions to a
// table of its own. The statements are the ones the tables' owner can
// run (checked first, then rolled back), so each refusal is the login's
// want of the right, not a typo; and what is judged at the end is the
// database: the ledger's rows, triggers and row-level security as they
// were.
func TestAttackAsTheHubsLogin(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	rows := chain(0, hubapi.Genesis, 2, "kept")
	if err := f.h.Append(ctx, f.adaNode, rows); err != nil {
		t.Fatal(err)
	}
	next := chain(2, rows[1].Hash, 1, "bob's")[0]
	insert := func(seq int64, person int64, r hubapi.Row) string {
		return fmt.Sprintf(`INSERT INTO public.ledger (node_id, seq, person_id, body, prev, hash) VALUES (%d, %d, %d, '\x%x', '\x%x', '\x%x')`,
			f.adaNode, seq, person, r.Body, r.Prev, r.Hash)
	}
	gap := chain(99, hubapi.Genesis, 1, "after a gap")[0]
	attacks := [][]string{
		{"ALTER TABLE ledger DISABLE TRIGGER ledger_no_update"},
		{"ALTER TABLE ledger DISABLE TRIGGER USER"},
		{"ALTER TABLE ledger DISABLE TRIGGER ledger_no_update", "UPDATE ledger SET body = 'rewritten'"},
		{"ALTER TABLE ledger DISABLE TRIGGER ledger_no_update", "DELETE FROM ledger"},
		{"ALTER TABLE ledger NO FORCE ROW LEVEL SECURITY"},
		{"ALTER TABLE ledger DISABLE ROW LEVEL SECURITY"},
		{"DROP POLICY ledger_read ON ledger"},
		{"DROP TRIGGER ledger_chain ON ledger"},
		{"DROP TABLE ledger CASCADE"},
		{"TRUNCATE ledger"},
		{"UPDATE ledger SET body = 'rewritten'"},
		{"DELETE FROM ledger"},
		{"ALTER TABLE ledger OWNER TO " + f.db.ServeRole},
		{"GRANT " + f.db.OwnerRole + " TO " + f.db.ServeRole},
		{"SET ROLE " + f.db.OwnerRole},
		// The owner's functions read the real nodes and ledger, not a
		// temporary table of the same name.
		{"CREATE TEMP TABLE nodes (id bigint, person_id bigint)", "GRANT SELECT ON pg_temp.nodes TO PUBLIC",
			fmt.Sprintf("INSERT INTO nodes VALUES (%d, %d)", f.adaNode, f.bob),
			insert(3, f.bob, next)},
		{"CREATE TEMP TABLE ledger (node_id bigint, seq bigint, hash bytea)", "GRANT SELECT ON pg_temp.ledger TO PUBLIC",
			fmt.Sprintf(`INSERT INTO pg_temp.ledger VALUES (%d, 99, '\x%x')`, f.adaNode, hubapi.Genesis),
			insert(100, f.ada, gap)},
	}
	owner, err := pgx.Connect(ctx, f.db.Owner)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	// The first statement of each is the owner's to run: the test can fail.
	for _, a := range attacks[:9] {
		tx, err := owner.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tx.Exec(ctx, a[0])
		tx.Rollback(ctx)
		if err != nil {
			t.Fatalf("as the tables' owner, %q: %v; the test means statements the owner can run", a[0], err)
		}
	}
	// Each attack on a connection of its own: a function's plan, cached
	// by an earlier statement of the session, would hide what a fresh
	// session's search path does.
	for _, a := range attacks {
		login, err := pgx.Connect(ctx, f.db.Serve)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := login.Exec(ctx, "RESET ROLE"); err != nil {
			t.Fatal(err)
		}
		var last error
		for _, q := range a {
			if _, err := login.Exec(ctx, q); err != nil {
				last = err
				break
			}
		}
		if last == nil {
			t.Errorf("as the hub's login, %q all ran", a)
		}
		login.Close(ctx)
	}
	// The world as it was: the rows as shipped, none stamped with another
	// person nor past a gap, every trigger on, row-level security forced.
	su, err := pgx.Connect(ctx, f.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer su.Close(ctx)
	var n int
	var bodies string
	if err := su.QueryRow(ctx, "SELECT count(*), string_agg(convert_from(body, 'UTF8'), ' ' ORDER BY seq) FROM ledger").Scan(&n, &bodies); err != nil {
		t.Fatal(err)
	}
	if want := string(rows[0].Body) + " " + string(rows[1].Body); n != 2 || bodies != want {
		t.Errorf("the ledger holds %d rows: %s; want the 2 shipped: %s", n, bodies, want)
	}
	var off int
	var forced bool
	var owned string
	if err := su.QueryRow(ctx, `SELECT (SELECT count(*) FROM pg_trigger WHERE tgrelid = 'ledger'::regclass AND NOT tgisinternal AND tgenabled = 'D'),
		relforcerowsecurity AND relrowsecurity, pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'ledger'::regclass`).Scan(&off, &forced, &owned); err != nil {
		t.Fatal(err)
	}
	if off != 0 || !forced || owned != f.db.OwnerRole {
		t.Errorf("the ledger has %d triggers off, row-level security forced %v, owner %s; want none off, forced, %s", off, forced, owned, f.db.OwnerRole)
	}
	var mine bool
	if err := su.QueryRow(ctx, "SELECT pg_has_role($1, $2, 'MEMBER')", f.db.ServeRole, f.db.OwnerRole).Scan(&mine); err != nil || mine {
		t.Errorf("the hub's login is a member of the owner's role: %v %v", mine, err)
	}
}
