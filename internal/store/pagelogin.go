package store

import (
	"context"
	"crypto/sha256"
	"fmt"
	"time"
)

// PageLogin is a browser session the person's page let in, with its
// tabs, kept by hash only: the secrets themselves stay in the browser, so
// reading this lets nobody in.
type PageLogin struct {
	Session [sha256.Size]byte   // SHA-256 of the cookie
	Until   time.Time           // when it ends
	Tabs    [][sha256.Size]byte // SHA-256 of each tab's key
}

// PageLogins returns the browser sessions that have not ended, with
// their tabs, and forgets those that have.
func (db *DB) PageLogins(ctx context.Context) ([]PageLogin, error) {
	var out []PageLogin
	err := db.update(ctx, func(tx *tx) error {
		out = nil
		if _, err := tx.ExecContext(ctx, "DELETE FROM page_logins WHERE until <= ?", nanos(tx.now)); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT l.session, l.until, t.tab FROM page_logins l
			LEFT JOIN page_tabs t ON t.session = l.session ORDER BY l.session`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s, tab []byte
			var until int64
			if err := rows.Scan(&s, &until, &tab); err != nil {
				return err
			}
			if len(s) != sha256.Size || (tab != nil && len(tab) != sha256.Size) {
				continue // not a hash sayso wrote: it lets nobody in
			}
			if n := len(out); n == 0 || out[n-1].Session != [sha256.Size]byte(s) {
				out = append(out, PageLogin{Session: [sha256.Size]byte(s), Until: instant(until)})
			}
			if tab != nil {
				l := &out[len(out)-1]
				l.Tabs = append(l.Tabs, [sha256.Size]byte(tab))
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read the page's logins: %w", err)
	}
	return out, nil
}

// KeepPageLogin keeps a browser session and one of its tabs.
func (db *DB) KeepPageLogin(ctx context.Context, session, tab [sha256.Size]byte, until time.Time) error {
	return db.change(ctx, "keep the page's login", func(tx *tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO page_logins (session, until) VALUES (?, ?) ON CONFLICT (session) DO NOTHING",
			session[:], nanos(until)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO page_tabs (tab, session) VALUES (?, ?) ON CONFLICT (tab) DO NOTHING", tab[:], session[:])
		return err
	})
}

// ForgetPageLogin forgets a browser session and its tabs: the person
// logged out.
func (db *DB) ForgetPageLogin(ctx context.Context, session [sha256.Size]byte) error {
	return db.change(ctx, "forget the page's login", func(tx *tx) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM page_logins WHERE session = ?", session[:])
		return err
	})
}
