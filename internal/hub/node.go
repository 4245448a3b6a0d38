package hub

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Node is a machine of the team as the hub knows it.
type Node struct {
	ID     int64
	Name   string
	Person int64
	// PersonName is the name the node's person enrolled their passkeys
	// under: the node checks each yes against the keys of that name.
	PersonName string
	CI         bool
	Key        ed25519.PublicKey
	Left       bool
}

// ErrToken is returned for a join token the hub never made, already used,
// or expired.
var ErrToken = errors.New("the join token is unknown, used or expired")

// ErrNameTaken is returned for a join under the name of a node the hub
// already holds: the token stays unused.
var ErrNameTaken = errors.New("a node of that name already joined")

// MakeToken makes a one-time join token for person (added when new),
// good until ttl from now; ci marks the node that redeems it as one no
// person sits at. The hub keeps only the token's SHA-256.
func (h *Hub) MakeToken(ctx context.Context, person string, ci bool, ttl time.Duration) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(b[:])
	d := sha256.Sum256([]byte(token))
	err := pgx.BeginFunc(ctx, h.pool, func(tx pgx.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, "SELECT id FROM people WHERE name = $1", person).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			err = tx.QueryRow(ctx, "INSERT INTO people (name) VALUES ($1) RETURNING id", person).Scan(&id)
		}
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "INSERT INTO join_tokens (digest, person_id, ci, expires_at) VALUES ($1, $2, $3, now() + $4::interval)",
			d[:], id, ci, fmt.Sprintf("%d milliseconds", ttl.Milliseconds()))
		return err
	})
	if err != nil {
		return "", fmt.Errorf("make a join token for %s: %w", person, err)
	}
	return token, nil
}

// Join redeems a join token, once: the node named name is added for the
// token's person with key, the one it signs its requests with.
func (h *Hub) Join(ctx context.Context, token, name string, key ed25519.PublicKey) (Node, error) {
	if len(key) != ed25519.PublicKeySize {
		return Node{}, fmt.Errorf("join %s: the node key is not an ed25519 public key", name)
	}
	d := sha256.Sum256([]byte(token))
	n := Node{Name: name, Key: key}
	err := pgx.BeginFunc(ctx, h.pool, func(tx pgx.Tx) error {
		// The row lock makes one of two joins at once the winner.
		err := tx.QueryRow(ctx, `SELECT t.person_id, t.ci, p.name FROM join_tokens t JOIN people p ON p.id = t.person_id
			WHERE t.digest = $1 AND t.used_at IS NULL AND t.expires_at > now() FOR UPDATE OF t`, d[:]).Scan(&n.Person, &n.CI, &n.PersonName)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrToken
		}
		if err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, "INSERT INTO nodes (name, person_id, ci, node_key) VALUES ($1, $2, $3, $4) RETURNING id",
			name, n.Person, n.CI, []byte(key)).Scan(&n.ID); err != nil {
			if isUnique(err) {
				return ErrNameTaken
			}
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE join_tokens SET used_at = now(), node_id = $2 WHERE digest = $1", d[:], n.ID)
		return err
	})
	if err != nil {
		return Node{}, fmt.Errorf("join %s: %w", name, err)
	}
	return n, nil
}

// NodeByID returns a node, whether or not it has left.
func (h *Hub) NodeByID(ctx context.Context, id int64) (Node, error) {
	n := Node{ID: id}
	var key []byte
	var left *time.Time
	err := h.pool.QueryRow(ctx, `SELECT n.name, n.person_id, p.name, n.ci, n.node_key, n.left_at FROM nodes n JOIN people p ON p.id = n.person_id WHERE n.id = $1`, id).
		Scan(&n.Name, &n.Person, &n.PersonName, &n.CI, &key, &left)
	if errors.Is(err, pgx.ErrNoRows) {
		return n, fmt.Errorf("node %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return n, fmt.Errorf("node %d: %w", id, err)
	}
	n.Key, n.Left = key, left != nil
	return n, nil
}

// CardNode returns the node a card waits on.
func (h *Hub) CardNode(ctx context.Context, card string) (int64, error) {
	var node int64
	err := h.pool.QueryRow(ctx, "SELECT node_id FROM cards WHERE id = $1", card).Scan(&node)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("card %s: %w", card, ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("card %s: %w", card, err)
	}
	return node, nil
}

// Bundle is a signed org bundle as the hub keeps it. The hub does not
// open it: each node checks the signature against the org key it pinned.
type Bundle struct {
	Seq       int64
	Body      []byte
	Signature []byte
	Expires   time.Time
}

// PublishBundle keeps a signed bundle under its sequence number; a number
// already taken is refused.
func (h *Hub) PublishBundle(ctx context.Context, b Bundle) error {
	_, err := h.pool.Exec(ctx, "INSERT INTO bundles (seq, body, signature, expires_at) VALUES ($1, $2, $3, $4)", b.Seq, b.Body, b.Signature, b.Expires)
	if err != nil {
		return fmt.Errorf("publish bundle #%d: %w", b.Seq, err)
	}
	return nil
}

// LatestBundle returns the bundle with the highest sequence number.
func (h *Hub) LatestBundle(ctx context.Context) (Bundle, error) {
	var b Bundle
	err := h.pool.QueryRow(ctx, "SELECT seq, body, signature, expires_at FROM bundles ORDER BY seq DESC LIMIT 1").Scan(&b.Seq, &b.Body, &b.Signature, &b.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return b, fmt.Errorf("no bundle published: %w", ErrNotFound)
	}
	if err != nil {
		return b, fmt.Errorf("latest bundle: %w", err)
	}
	return b, nil
}

// Leave marks a node gone: it signs no request from now on. Its ledger
// rows stay.
func (h *Hub) Leave(ctx context.Context, node int64) error {
	if _, err := h.pool.Exec(ctx, "UPDATE nodes SET left_at = now() WHERE id = $1 AND left_at IS NULL", node); err != nil {
		return fmt.Errorf("node %d leaves: %w", node, err)
	}
	return nil
}

// Nonce keeps a signed request's nonce for node until its time is no
// longer accepted, and reports whether it is new: a request seen before,
// by this hub or by the one before it restarted, is a replay. Nonces
// past their time are forgotten as of now, at most once a minute.
func (h *Hub) Nonce(ctx context.Context, node int64, nonce string, until, now time.Time) (bool, error) {
	h.sweep.Lock()
	sweep := now.Sub(h.swept) > time.Minute
	if sweep {
		h.swept = now
	}
	h.sweep.Unlock()
	if sweep {
		if _, err := h.pool.Exec(ctx, "DELETE FROM node_nonces WHERE expires_at < $1", now); err != nil {
			return false, fmt.Errorf("forget old nonces: %w", err)
		}
	}
	tag, err := h.pool.Exec(ctx, "INSERT INTO node_nonces (node_id, nonce, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", node, nonce, until)
	if err != nil {
		return false, fmt.Errorf("keep the nonce of node %d: %w", node, err)
	}
	return tag.RowsAffected() == 1, nil
}
