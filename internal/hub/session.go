package hub

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrSession is returned for a browser the person's page does not know:
// no session, another tab's key, logged out or expired.
var ErrSession = errors.New("no such session of the person's page")

// Session is a browser let in to a person's page.
type Session struct {
	Person  int64
	Name    string
	Expires time.Time
}

func secret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

func digest(s string) []byte {
	d := sha256.Sum256([]byte(s))
	return d[:]
}

// StartSession lets a browser in to person's page until ttl from now: it
// returns the session's cookie and its tab's key. The hub keeps only
// their SHA-256, so the session outlives a restart of the hub and no copy
// of the database opens it. Sessions past their time are swept.
func (h *Hub) StartSession(ctx context.Context, person int64, ttl time.Duration) (cookie, tab string, err error) {
	if cookie, err = secret(); err != nil {
		return "", "", err
	}
	if tab, err = secret(); err != nil {
		return "", "", err
	}
	err = pgx.BeginFunc(ctx, h.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM page_sessions WHERE expires_at <= now()"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "INSERT INTO page_sessions (digest, tab, person_id, expires_at) VALUES ($1, $2, $3, now() + $4::interval)",
			digest(cookie), digest(tab), person, fmt.Sprintf("%d milliseconds", ttl.Milliseconds()))
		return err
	})
	if err != nil {
		return "", "", fmt.Errorf("start a page session of person %d: %w", person, err)
	}
	return cookie, tab, nil
}

// Session is the person of a request of the page: its session's cookie
// and that session's tab's key, within the session's time.
func (h *Hub) Session(ctx context.Context, cookie, tab string) (Session, error) {
	var s Session
	if cookie == "" || tab == "" {
		return s, ErrSession
	}
	err := h.pool.QueryRow(ctx, `SELECT p.id, p.name, s.expires_at FROM page_sessions s JOIN people p ON p.id = s.person_id
		WHERE s.digest = $1 AND s.tab = $2 AND s.expires_at > now()`, digest(cookie), digest(tab)).Scan(&s.Person, &s.Name, &s.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, ErrSession
	}
	if err != nil {
		return s, fmt.Errorf("page session: %w", err)
	}
	return s, nil
}

// EndSession logs a browser out: its session's row is deleted.
func (h *Hub) EndSession(ctx context.Context, cookie string) error {
	if _, err := h.pool.Exec(ctx, "DELETE FROM page_sessions WHERE digest = $1", digest(cookie)); err != nil {
		return fmt.Errorf("end a page session: %w", err)
	}
	return nil
}
