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

// ErrLogin is returned for a page login link the hub never made, already
// used, or expired.
var ErrLogin = errors.New("the login link is unknown, used or expired")

// MakeLogin makes a one-time login link's token to the person's page at
// the hub, good until ttl from now. The person must have joined a node.
// The hub keeps only the token's SHA-256.
func (h *Hub) MakeLogin(ctx context.Context, person string, ttl time.Duration) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(b[:])
	d := sha256.Sum256([]byte(token))
	tag, err := h.pool.Exec(ctx, `INSERT INTO page_logins (digest, person_id, expires_at)
		SELECT $1, id, now() + $3::interval FROM people WHERE name = $2`, d[:], person, fmt.Sprintf("%d milliseconds", ttl.Milliseconds()))
	if err != nil {
		return "", fmt.Errorf("make a login link for %s: %w", person, err)
	}
	if tag.RowsAffected() != 1 {
		return "", fmt.Errorf("make a login link for %s: %w", person, ErrNotFound)
	}
	return token, nil
}

// SpendLogin spends a login link's token, once, and returns its person.
func (h *Hub) SpendLogin(ctx context.Context, token string) (id int64, name string, err error) {
	d := sha256.Sum256([]byte(token))
	err = h.pool.QueryRow(ctx, `UPDATE page_logins l SET used_at = now() FROM people p
		WHERE l.digest = $1 AND l.used_at IS NULL AND l.expires_at > now() AND p.id = l.person_id
		RETURNING p.id, p.name`, d[:]).Scan(&id, &name)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, "", ErrLogin
	}
	if err != nil {
		return 0, "", fmt.Errorf("spend a login link: %w", err)
	}
	return id, name, nil
}
