package hub_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hub/pgtest"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// open opens a fresh hub database, as an admin sets one up; db.Super is
// the superuser's way in.
func open(t *testing.T) (*hub.Hub, hubtest.DB) {
	t.Helper()
	return hubtest.Open(t)
}

// chain makes n rows continuing (seq, prev).
func chain(seq int64, prev []byte, n int, text string) []hubapi.Row {
	var rows []hubapi.Row
	for i := 0; i < n; i++ {
		seq++
		body := []byte(fmt.Sprintf(`{"n":%d,"text":%q}`, seq, text))
		r := hubapi.Row{Seq: seq, Body: body, Prev: prev, Hash: hubapi.Chain(prev, body)}
		rows = append(rows, r)
		prev = r.Hash
	}
	return rows
}

type fixture struct {
	h                *hub.Hub
	dsn              string // the superuser's
	db               hubtest.DB
	ada, bob         int64
	adaNode, bobNode int64
}

func setup(t *testing.T) fixture {
	t.Helper()
	h, db := open(t)
	ctx := context.Background()
	f := fixture{h: h, dsn: db.Super, db: db}
	var err error
	if f.ada, err = h.AddPerson(ctx, "ada"); err != nil {
		t.Fatal(err)
	}
	if f.bob, err = h.AddPerson(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	pub, _, _ := ed25519.GenerateKey(nil)
	if f.adaNode, err = h.AddNode(ctx, "ada-laptop", f.ada, false, pub); err != nil {
		t.Fatal(err)
	}
	if f.bobNode, err = h.AddNode(ctx, "build-1", f.bob, true, pub); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestMigrateTwice(t *testing.T) {
	_, db := open(t)
	if err := hub.Migrate(context.Background(), db.Owner); err != nil {
		t.Fatalf("second migration: %v", err)
	}
	h, err := hub.Open(context.Background(), db.Serve)
	if err != nil {
		t.Fatalf("second open: %v", err)
	}
	h.Close()
}

func TestLedgerChain(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	rows := chain(0, hubapi.Genesis, 3, "a")
	if err := f.h.Append(ctx, f.adaNode, rows); err != nil {
		t.Fatal(err)
	}
	seq, hash, err := f.h.Head(ctx, f.adaNode)
	if err != nil || seq != 3 || string(hash) != string(rows[2].Hash) {
		t.Fatalf("Head = %d, %x, %v; want 3, %x", seq, hash, err, rows[2].Hash)
	}
	next := chain(3, rows[2].Hash, 2, "b")
	for _, c := range []struct {
		name string
		rows []hubapi.Row
	}{
		{"a gap", next[1:]},
		{"a row shipped twice", rows[2:]},
		{"an edited row", func() []hubapi.Row {
			r := next[0]
			r.Body = []byte(`{"n":4,"text":"edited"}`)
			return []hubapi.Row{r}
		}()},
		{"an edited row with its hash made again", func() []hubapi.Row {
			r := next[0]
			r.Body = []byte(`{"n":4,"text":"edited"}`)
			r.Prev = hubapi.Genesis
			r.Hash = hubapi.Chain(r.Prev, r.Body)
			return []hubapi.Row{r}
		}()},
		{"a good row then a bad one", []hubapi.Row{next[0], {Seq: 5, Body: next[1].Body, Prev: next[1].Prev, Hash: hubapi.Genesis}}},
	} {
		err := f.h.Append(ctx, f.adaNode, c.rows)
		if !errors.Is(err, hubapi.ErrChain) {
			t.Errorf("%s: Append = %v, want ErrChain", c.name, err)
		}
	}
	if seq, _, _ := f.h.Head(ctx, f.adaNode); seq != 3 {
		t.Fatalf("after refused appends the head is row %d, want 3: a refused batch left rows", seq)
	}
	if err := f.h.Append(ctx, f.adaNode, next); err != nil {
		t.Fatalf("the true next rows: %v", err)
	}
}

// TestLedgerAppendOnly: no role — not the hub's, not the tables' owner,
// not a superuser — can update, delete or truncate a ledger row.
func TestLedgerAppendOnly(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	if err := f.h.Append(ctx, f.adaNode, chain(0, hubapi.Genesis, 2, "kept")); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, f.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, role := range []string{hub.Role, f.db.OwnerRole, pgtest.Superuser} {
		if _, err := conn.Exec(ctx, "SET ROLE "+role); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			"UPDATE ledger SET body = 'x'",
			"DELETE FROM ledger",
			"TRUNCATE ledger",
		} {
			// Refused, or (row-level security hiding every row from
			// the owner's update) touching none.
			if tag, err := conn.Exec(ctx, q); err == nil && tag.RowsAffected() != 0 {
				t.Errorf("as %s, %q changed %d rows", role, q, tag.RowsAffected())
			}
		}
	}
	if _, err := conn.Exec(ctx, "RESET ROLE"); err != nil {
		t.Fatal(err)
	}
	var n int
	var body string
	if err := conn.QueryRow(ctx, "SELECT count(*), min(convert_from(body, 'UTF8')) FROM ledger").Scan(&n, &body); err != nil {
		t.Fatal(err)
	}
	if n != 2 || !strings.Contains(body, "kept") {
		t.Fatalf("the ledger holds %d rows (%s), want the 2 kept ones unchanged", n, body)
	}
	// A hand-made row that does not continue the chain is refused too.
	_, err = conn.Exec(ctx, "INSERT INTO ledger (node_id, seq, person_id, body, prev, hash) VALUES ($1, 3, $2, 'forged', $3, $3)", f.adaNode, f.ada, hubapi.Genesis)
	if err == nil {
		t.Error("a forged row was inserted by hand")
	}
}

// TestLedgerPerPerson: row-level security keeps each person to their own
// rows, whatever the query.
func TestLedgerPerPerson(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	if err := f.h.Append(ctx, f.adaNode, chain(0, hubapi.Genesis, 3, "ada")); err != nil {
		t.Fatal(err)
	}
	if err := f.h.Append(ctx, f.bobNode, chain(0, hubapi.Genesis, 2, "bob")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		person int64
		want   int
		text   string
	}{{f.ada, 3, "ada"}, {f.bob, 2, "bob"}, {999, 0, ""}} {
		rows, err := f.h.Ledger(ctx, c.person, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != c.want {
			t.Errorf("person %d reads %d rows, want %d", c.person, len(rows), c.want)
		}
		for _, r := range rows {
			if !strings.Contains(string(r.Row.Body), c.text) {
				t.Errorf("person %d reads another's row %s", c.person, r.Row.Body)
			}
		}
	}
	// As the hub's role with no person set, a plain SELECT reads nothing.
	conn, err := pgx.Connect(ctx, f.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SET ROLE "+hub.Role); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM ledger").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("the hub's role with no person reads %d rows, want 0", n)
	}
}

// TestPasskeyOfAnotherPerson: a node that tells the hub of a passkey id
// of another person's first (the ids are no secret) takes nothing from
// that person: the hub still routes their signatures by it.
func TestPasskeyOfAnotherPerson(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	ids := func(person int64) [][]byte {
		t.Helper()
		got, err := f.h.PasskeyIDs(ctx, person)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	adas := hubapi.Passkey{CredentialID: []byte("ada's credential"), PublicKey: []byte("ada's key")}
	if err := f.h.SetPasskeys(ctx, f.bobNode, []hubapi.Passkey{{CredentialID: adas.CredentialID, PublicKey: []byte("bob's key")}}); err != nil {
		t.Fatal(err)
	}
	if err := f.h.SetPasskeys(ctx, f.adaNode, []hubapi.Passkey{adas}); err != nil {
		t.Fatal(err)
	}
	if got := ids(f.ada); len(got) != 1 || string(got[0]) != string(adas.CredentialID) {
		t.Fatalf("ada's passkeys at the hub after bob's node named hers first: %q", got)
	}
	// Told again, each person's is kept once.
	if err := f.h.SetPasskeys(ctx, f.adaNode, []hubapi.Passkey{adas}); err != nil {
		t.Fatal(err)
	}
	if got := ids(f.ada); len(got) != 1 {
		t.Fatalf("ada's passkeys told twice: %q", got)
	}
}

// TestPasskeysRemoved: a node tells the hub its whole set of pinned
// passkeys; a passkey no node of the person's pins any more (removed on
// each, or pinned only by a node that left) is no longer routed.
func TestPasskeysRemoved(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	desk, err := f.h.AddNode(ctx, "ada-desk", f.ada, false, make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	ids := func() string {
		t.Helper()
		got, err := f.h.PasskeyIDs(ctx, f.ada)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, id := range got {
			s = append(s, string(id))
		}
		return strings.Join(s, " ")
	}
	set := func(node int64, names ...string) {
		t.Helper()
		var ks []hubapi.Passkey
		for _, n := range names {
			ks = append(ks, hubapi.Passkey{CredentialID: []byte(n), PublicKey: []byte(n + "-key")})
		}
		if err := f.h.SetPasskeys(ctx, node, ks); err != nil {
			t.Fatal(err)
		}
	}
	set(f.adaNode, "phone", "laptop")
	set(desk, "phone", "desk")
	if got := ids(); got != "phone laptop desk" {
		t.Fatalf("ada's passkeys: %q", got)
	}
	set(f.adaNode, "laptop") // the phone's removed on the laptop: the desk still pins it
	if got := ids(); got != "phone laptop desk" {
		t.Fatalf("after the laptop removed the phone's: %q", got)
	}
	set(desk, "desk") // and on the desk
	if got := ids(); got != "laptop desk" {
		t.Fatalf("after both removed the phone's: %q", got)
	}
	set(desk, "phone", "desk") // pinned again
	if got := ids(); got != "phone laptop desk" {
		t.Fatalf("after the desk pinned the phone's again: %q", got)
	}
	if err := f.h.Leave(ctx, desk); err != nil {
		t.Fatal(err)
	}
	if got := ids(); got != "laptop" {
		t.Fatalf("after the desk left: %q", got)
	}
	set(f.adaNode) // the last removed
	if got := ids(); got != "" {
		t.Fatalf("after the laptop removed its last: %q", got)
	}
}

// TestSignaturesCommitInOrder: a node reads the signatures numbered after
// the last it read, so no signature may be committed while one numbered
// below it is still being written. The person signs two changes at once
// (two tabs): the first signing is held mid-write (its row numbered, its
// reference to the change waiting on a lock the test holds), and the
// second must not be committed before it.
func TestSignaturesCommitInOrder(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	for _, b := range []string{`{"change":1}`, `{"change":2}`} {
		if err := f.h.OfferChange(ctx, f.adaNode, []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := f.h.OfferedChanges(ctx, f.ada)
	if err != nil || len(cs) != 2 {
		t.Fatalf("the changes offered: %+v %v", cs, err)
	}
	holder, err := pgx.Connect(ctx, f.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	watcher, err := pgx.Connect(ctx, f.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close(ctx)
	if _, err := tx.Exec(ctx, "SELECT FROM changes WHERE id = $1 FOR UPDATE", cs[0].ID); err != nil {
		t.Fatal(err)
	}
	first, second := make(chan error, 1), make(chan error, 1)
	go func() { first <- f.h.SignChange(ctx, f.ada, cs[0].ID, [][]byte{[]byte("first")}) }()
	waiting := func(n int) func() (bool, string) {
		return func() (bool, string) {
			var got int
			if err := watcher.QueryRow(ctx, "SELECT count(*) FROM pg_locks WHERE NOT granted").Scan(&got); err != nil {
				t.Fatal(err)
			}
			return got >= n, fmt.Sprintf("%d waiting", got)
		}
	}
	testenv.Wait(t, "the first signing to wait, its row numbered", waiting(1))
	go func() { second <- f.h.SignChange(ctx, f.ada, cs[1].ID, [][]byte{[]byte("second")}) }()
	testenv.Wait(t, "the second signing to wait its turn or end", func() (bool, string) {
		select {
		case err := <-second:
			second <- err
			return true, ""
		default:
		}
		return waiting(2)()
	})
	if got, err := f.h.SignedChanges(ctx, f.ada, 0); err != nil || len(got) != 0 {
		t.Fatalf("while the first signing is being written, a node reads %+v (%v); a node that read the second now would never read the first", got, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []chan error{first, second} {
		if err := <-c; err != nil {
			t.Fatal(err)
		}
	}
	got, err := f.h.SignedChanges(ctx, f.ada, 0)
	if err != nil || len(got) != 2 || got[0].ID != cs[0].ID || got[1].ID != cs[1].ID {
		t.Fatalf("the signed changes: %+v %v", got, err)
	}
}

// TestMigrateAnswerText: a hub whose answers say "allow" (before the
// answer had one text form) migrates to "allow-once" keeping every row,
// its assertion and its order; the old word is refused from then on.
func TestMigrateAnswerText(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	if err := f.h.PostCard(ctx, f.adaNode, "c1", []byte(`{"card":"c1"}`)); err != nil {
		t.Fatal(err)
	}
	owner, err := pgx.Connect(ctx, f.db.Owner)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	// The database as migration 012 left it, with an answer of each word.
	for _, q := range []string{
		"ALTER TABLE answers DROP CONSTRAINT answers_verdict_check",
		"ALTER TABLE answers ADD CONSTRAINT answers_verdict_check CHECK (verdict IN ('allow', 'always', 'deny', 'confirm'))",
		"DELETE FROM schema_version WHERE version = 13",
		`INSERT INTO answers (card_id, verdict, assertion) VALUES ('c1', 'allow', 'a1'), ('c1', 'always', 'a2'), ('c1', 'deny', NULL), ('c1', 'confirm', 'a4'), ('c1', 'allow', 'a5')`,
	} {
		if _, err := owner.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := hub.Migrate(ctx, f.db.Owner); err != nil {
		t.Fatal(err)
	}
	as, err := f.h.Answers(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range as {
		got = append(got, a.Verdict+":"+string(a.Assertion))
	}
	if want := "allow-once:a1 always:a2 deny: confirm:a4 allow-once:a5"; strings.Join(got, " ") != want {
		t.Errorf("answers after the migration: %q, want %q", strings.Join(got, " "), want)
	}
	if err := f.h.AddAnswer(ctx, "c1", "allow", []byte("a6")); err == nil {
		t.Error("the hub took an answer saying allow: the answer's text is allow-once")
	}
	if err := f.h.AddAnswer(ctx, "c1", "allow-once", []byte("a6")); err != nil {
		t.Errorf("an allow-once: %v", err)
	}
}
