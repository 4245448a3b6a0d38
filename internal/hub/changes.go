package hub

import (
	"context"
	"crypto/sha256"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/hubapi"
)

// Change is a change to a person's rules or environment note, as a node
// offered it: the node's bytes, which the person's passkey signs over.
// Signature and Assertion are set once the person signed it (the
// signature's number orders what nodes read); the hub checks none of it:
// each node does, against the passkeys it pinned.
type Change struct {
	ID        int64
	Node      int64 // the node that offered it
	Person    int64
	Body      []byte
	Signature int64
	Assertion []byte
	Created   time.Time
}

// OfferChange records a change node offers for its person to sign. The
// same bytes offered again are kept as they were.
func (h *Hub) OfferChange(ctx context.Context, node int64, body []byte) error {
	d := sha256.Sum256(body)
	_, err := h.pool.Exec(ctx, `INSERT INTO changes (person_id, node_id, body, digest)
		SELECT person_id, id, $2, $3 FROM nodes WHERE id = $1 AND left_at IS NULL
		ON CONFLICT (person_id, digest) DO NOTHING`, node, body, d[:])
	if err != nil {
		return fmt.Errorf("offer a change of node %d: %w", node, err)
	}
	return nil
}

// OfferedChanges returns the changes offered for person that no page has
// signed yet, oldest first.
func (h *Hub) OfferedChanges(ctx context.Context, person int64) ([]Change, error) {
	rows, err := h.pool.Query(ctx, `SELECT c.id, c.node_id, c.person_id, c.body, 0, ''::bytea, c.created_at FROM changes c
		WHERE c.person_id = $1 AND NOT EXISTS (SELECT FROM change_signatures s WHERE s.change_id = c.id)
		ORDER BY c.id`, person)
	return collectChanges(rows, err, person)
}

// SignChange records the person's signatures, as their page posted them,
// of one of the changes offered for them: one by each passkey their nodes
// pinned, in one transaction, so a node reads them together.
//
// Signings take turns (signLock): a node reads the signatures after the
// last number it read, so a signature must never be committed after one
// numbered above it, which two signings at once could do.
func (h *Hub) SignChange(ctx context.Context, person, change int64, assertions [][]byte) error {
	return pgx.BeginFunc(ctx, h.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, $2)", signLock[0], signLock[1]); err != nil {
			return fmt.Errorf("sign change %d: take the signing turn: %w", change, err)
		}
		for _, a := range assertions {
			tag, err := tx.Exec(ctx, `INSERT INTO change_signatures (change_id, assertion)
				SELECT id, $3 FROM changes WHERE id = $2 AND person_id = $1`, person, change, a)
			if err != nil {
				return fmt.Errorf("sign change %d: %w", change, err)
			}
			if tag.RowsAffected() == 0 {
				return fmt.Errorf("change %d of person %d: %w", change, person, ErrNotFound)
			}
		}
		return nil
	})
}

// signLock is the advisory lock signings take turns by (migrations take
// 7411, 0).
var signLock = [2]int32{7411, 1}

// SignedChanges returns the signed changes of person whose signature's
// number is after after, in the order the hub took the signatures.
func (h *Hub) SignedChanges(ctx context.Context, person, after int64) ([]Change, error) {
	rows, err := h.pool.Query(ctx, `SELECT c.id, c.node_id, c.person_id, c.body, s.id, s.assertion, c.created_at
		FROM change_signatures s JOIN changes c ON c.id = s.change_id
		WHERE c.person_id = $1 AND s.id > $2 ORDER BY s.id LIMIT 1000`, person, after)
	return collectChanges(rows, err, person)
}

func collectChanges(rows pgx.Rows, err error, person int64) ([]Change, error) {
	if err != nil {
		return nil, fmt.Errorf("changes of person %d: %w", person, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Change, error) {
		var c Change
		err := r.Scan(&c.ID, &c.Node, &c.Person, &c.Body, &c.Signature, &c.Assertion, &c.Created)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("changes of person %d: %w", person, err)
	}
	return out, nil
}

// SetPasskeys records the passkeys node pins, for its person: the whole
// set, replacing the one it told before. A passkey the hub already holds
// for the person is kept as it was.
func (h *Hub) SetPasskeys(ctx context.Context, node int64, keys []hubapi.Passkey) error {
	return pgx.BeginFunc(ctx, h.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM node_passkeys WHERE node_id = $1", node); err != nil {
			return fmt.Errorf("passkeys of node %d: %w", node, err)
		}
		for _, k := range keys {
			_, err := tx.Exec(ctx, `INSERT INTO passkeys (person_id, credential_id, public_key)
				SELECT person_id, $2, $3 FROM nodes WHERE id = $1 AND left_at IS NULL
				ON CONFLICT (person_id, credential_id) DO NOTHING`, node, k.CredentialID, k.PublicKey)
			if err != nil {
				return fmt.Errorf("passkeys of node %d: %w", node, err)
			}
			_, err = tx.Exec(ctx, `INSERT INTO node_passkeys (node_id, passkey_id)
				SELECT n.id, p.id FROM nodes n JOIN passkeys p ON p.person_id = n.person_id
				WHERE n.id = $1 AND n.left_at IS NULL AND p.credential_id = $2
				ON CONFLICT DO NOTHING`, node, k.CredentialID)
			if err != nil {
				return fmt.Errorf("passkeys of node %d: %w", node, err)
			}
		}
		return nil
	})
}

// PasskeyIDs returns the credential ids of the passkeys person's nodes
// pin, as they told the hub: those of nodes that left, and those every
// node removed, are not among them.
func (h *Hub) PasskeyIDs(ctx context.Context, person int64) ([][]byte, error) {
	rows, err := h.pool.Query(ctx, `SELECT p.credential_id FROM passkeys p
		WHERE p.person_id = $1 AND EXISTS (SELECT 1 FROM node_passkeys np JOIN nodes n ON n.id = np.node_id
			WHERE np.passkey_id = p.id AND n.left_at IS NULL)
		ORDER BY p.id`, person)
	if err != nil {
		return nil, fmt.Errorf("passkeys of person %d: %w", person, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return nil, fmt.Errorf("passkeys of person %d: %w", person, err)
	}
	return out, nil
}
