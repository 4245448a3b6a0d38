package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/migration"
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
	ms, err := migration.Read(migrationFiles, "migrations")
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
	ms, err := migration.Read(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].Version != 1 {
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

// A megabyte-long step keeps MaxText bytes in its ledger row, with its
// length and SHA-256 beside them.
func TestLedgerCapsStepText(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	long := "echo " + strings.Repeat("é", 600000) + " ; rm -rf ~"
	if _, err := db.EnsureSession(ctx, NewSession{ID: "s1", Agent: "claude"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Answer(ctx, Answered{Session: "s1", Answer: card.Deny, Step: long}); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordCardExpired(ctx, Missed{Session: "s1", Step: long, Cause: MissedLeft, Why: "the hook went away"}); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(long))
	rows, err := db.Log(ctx, LogFilter{Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, r := range rows {
		if r.Kind != KindAnswer && r.Kind != KindCardExpired {
			continue
		}
		n++
		if len(r.Summary) > MaxText+200 || len(r.Detail) > 2*MaxText+400 {
			t.Errorf("%s row keeps %d + %d bytes", r.Kind, len(r.Summary), len(r.Detail))
		}
		if !strings.Contains(r.Summary, hex.EncodeToString(sum[:])) || !strings.Contains(r.Summary, fmt.Sprintf("%d bytes", len(long))) {
			t.Errorf("%s row %q does not name the step by its length and SHA-256", r.Kind, r.Summary[len(r.Summary)-120:])
		}
		if !utf8.ValidString(r.Summary) {
			t.Errorf("%s row cut a character", r.Kind)
		}
	}
	if n != 2 {
		t.Errorf("rows = %d, want the answer and the expiry", n)
	}
}
