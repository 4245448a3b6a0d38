package store

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// TestOutboxChain: a node in a team chains every ledger row into the
// outbox, in order; out of a team it chains nothing, and keeps what it
// chained.
func TestOutboxChain(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	if err := db.SetNote(ctx, "before joining"); err != nil {
		t.Fatal(err)
	}
	if rows, _ := db.Outbox(ctx, 10); len(rows) != 0 {
		t.Fatalf("out of a team the outbox holds %d rows", len(rows))
	}
	if err := db.SetChain(ctx, true); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"one", "two", "three"} {
		if err := db.SetNote(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.Outbox(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("outbox holds %d rows, want 3", len(rows))
	}
	prev := chainGenesis
	for i, r := range rows {
		var e Entry
		if err := json.Unmarshal(r.Body, &e); err != nil || e.Kind != KindSettingChanged {
			t.Fatalf("row %d body %s: %v", r.Seq, r.Body, err)
		}
		if r.Seq != int64(i+1) || !bytes.Equal(r.Prev, prev) || !bytes.Equal(r.Hash, chainHash(prev, r.Body)) {
			t.Fatalf("row %d does not chain", r.Seq)
		}
		prev = r.Hash
	}
	if err := db.Shipped(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if rows, _ := db.Outbox(ctx, 10); len(rows) != 1 || rows[0].Seq != 3 {
		t.Fatalf("after shipping 2 the outbox holds %v", rows)
	}
	if err := db.SetChain(ctx, false); err != nil {
		t.Fatal(err)
	}
	if err := db.SetNote(ctx, "after leaving"); err != nil {
		t.Fatal(err)
	}
	if rows, _ := db.Outbox(ctx, 10); len(rows) != 1 {
		t.Fatalf("after leaving the outbox holds %d unshipped rows, want the 1 chained before", len(rows))
	}
	if _, err := db.db.ExecContext(ctx, "UPDATE team_outbox SET body = 'x' WHERE seq = 1"); err == nil {
		t.Error("an outbox row was edited")
	}
	if _, err := db.db.ExecContext(ctx, "DELETE FROM team_outbox"); err == nil {
		t.Error("outbox rows were deleted")
	}
}
