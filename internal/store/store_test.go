package store

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOpenPragmas(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	latest := strconv.Itoa(len(ms))
	for pragma, want := range map[string]string{"journal_mode": "wal", "foreign_keys": "1", "busy_timeout": "5000", "user_version": latest} {
		var got string
		if err := db.db.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

func TestReopenKeepsRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetNote(ctx, "prod is fly.io app acme"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, _ := db.Note(ctx); n != "prod is fly.io app acme" {
		t.Errorf("Note after reopen = %q", n)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if _, err := db.db.ExecContext(ctx, "PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(ctx, db.Path()); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open of a newer schema: err = %v, want it refused", err)
	}
}

func TestMigrationsNumbered(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].version != 1 {
		t.Fatalf("migrations = %v", ms)
	}
}

func TestLedgerAppendOnly(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if err := db.SetNote(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"UPDATE ledger SET summary = 'forged'", "DELETE FROM ledger"} {
		_, err := db.db.ExecContext(ctx, q)
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: err = %v, want append-only", q, err)
		}
	}
	log, err := db.Log(ctx, LogFilter{})
	if err != nil || len(log) != 1 {
		t.Fatalf("Log = %v, %v", log, err)
	}
}

func TestNote(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if err := db.SetNote(ctx, strings.Repeat("é", MaxNote)); err != nil {
		t.Errorf("a note of exactly %d characters: %v", MaxNote, err)
	}
	err := db.SetNote(ctx, strings.Repeat("a", MaxNote+1))
	if err == nil || !strings.Contains(err.Error(), "at most 2000 characters") {
		t.Errorf("an oversized note: err = %v", err)
	}
	if n, _ := db.Note(ctx); n != strings.Repeat("é", MaxNote) {
		t.Error("an oversized note changed the note")
	}
}

func TestDatabaseFileNotWorldReadable(t *testing.T) {
	db := openTest(t)
	fi, err := os.Stat(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("database mode %v, want no access for group or others", fi.Mode().Perm())
	}
}
