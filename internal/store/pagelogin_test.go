package store

import (
	"context"
	"crypto/sha256"
	"path/filepath"
	"testing"
	"time"
)

// The page's logins outlive the process that kept them, by hash only;
// an ended one and a forgotten one are gone, with their tabs.
func TestPageLogins(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	h := func(s string) [sha256.Size]byte { return sha256.Sum256([]byte(s)) }
	for _, k := range []struct {
		session, tab string
		until        time.Time
	}{
		{"live", "tab-1", now.Add(time.Hour)},
		{"live", "tab-2", now.Add(time.Hour)},
		{"ended", "tab-3", now.Add(-time.Second)},
		{"out", "tab-4", now.Add(time.Hour)},
	} {
		if err := db.KeepPageLogin(ctx, h(k.session), h(k.tab), k.until); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.ForgetPageLogin(ctx, h("out")); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Now = func() time.Time { return now }
	ls, err := db.PageLogins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 1 || ls[0].Session != h("live") || !ls[0].Until.Equal(now.Add(time.Hour)) || len(ls[0].Tabs) != 2 {
		t.Fatalf("PageLogins = %+v, want the live session with its two tabs", ls)
	}
	for _, tab := range ls[0].Tabs {
		if tab != h("tab-1") && tab != h("tab-2") {
			t.Errorf("tab %x is not one of the live session's", tab)
		}
	}
	var tabs int
	if err := db.db.QueryRowContext(ctx, "SELECT count(*) FROM page_tabs").Scan(&tabs); err != nil || tabs != 2 {
		t.Errorf("page_tabs holds %d rows (%v), want the live session's 2: an ended or forgotten session keeps no tab", tabs, err)
	}
}
