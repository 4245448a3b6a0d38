package hub

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Genesis is the prev of a node's first ledger row.
var Genesis = make([]byte, sha256.Size)

// Chain is the hash of a ledger row: sha256(prev || body).
func Chain(prev, body []byte) []byte {
	h := sha256.New()
	h.Write(prev)
	h.Write(body)
	return h.Sum(nil)
}

// Row is one ledger row as a node ships it: its number in the node's
// chain, the exact bytes of the row, and the chain's hashes.
type Row struct {
	Seq  int64
	Body []byte
	Prev []byte
	Hash []byte
}

// Entry is a ledger row as the hub keeps it.
type Entry struct {
	Node     int64
	Row      Row
	Received time.Time
}

// ErrChain is returned when rows do not continue a node's chain: a gap, an
// edited row, or one shipped twice.
var ErrChain = errors.New("ledger rows do not continue the node's chain")

// Verify checks that rows continue a chain whose last row is (seq, hash):
// numbered one after another, each prev the hash before, each hash its own.
func Verify(seq int64, hash []byte, rows []Row) error {
	for _, r := range rows {
		if r.Seq != seq+1 {
			return fmt.Errorf("%w: row %d after row %d", ErrChain, r.Seq, seq)
		}
		if !bytes.Equal(r.Prev, hash) {
			return fmt.Errorf("%w: row %d does not chain to row %d", ErrChain, r.Seq, seq)
		}
		if !bytes.Equal(r.Hash, Chain(r.Prev, r.Body)) {
			return fmt.Errorf("%w: row %d does not match its hash", ErrChain, r.Seq)
		}
		seq, hash = r.Seq, r.Hash
	}
	return nil
}

// AddPerson adds a person and returns their id.
func (h *Hub) AddPerson(ctx context.Context, name string) (int64, error) {
	var id int64
	err := h.pool.QueryRow(ctx, "INSERT INTO people (name) VALUES ($1) RETURNING id", name).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("add person %s: %w", name, err)
	}
	return id, nil
}

// AddNode adds a node of a person, with its public key, and returns its id.
func (h *Hub) AddNode(ctx context.Context, name string, person int64, ci bool, key ed25519.PublicKey) (int64, error) {
	var id int64
	err := h.pool.QueryRow(ctx, "INSERT INTO nodes (name, person_id, ci, node_key) VALUES ($1, $2, $3, $4) RETURNING id",
		name, person, ci, []byte(key)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("add node %s: %w", name, err)
	}
	return id, nil
}

// Head is the last row of a node's chain: (0, Genesis) before its first.
func (h *Hub) Head(ctx context.Context, node int64) (int64, []byte, error) {
	var seq *int64
	var hash []byte
	if err := h.pool.QueryRow(ctx, "SELECT seq, hash FROM ledger_head($1)", node).Scan(&seq, &hash); err != nil {
		return 0, nil, fmt.Errorf("ledger head of node %d: %w", node, err)
	}
	if seq == nil {
		return 0, Genesis, nil
	}
	return *seq, hash, nil
}

// Append stores a node's rows, in one transaction: all or none. The
// database itself refuses rows that do not continue the node's chain.
func (h *Hub) Append(ctx context.Context, node int64, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	err := pgx.BeginFunc(ctx, h.pool, func(tx pgx.Tx) error {
		var person int64
		var left *time.Time
		if err := tx.QueryRow(ctx, "SELECT person_id, left_at FROM nodes WHERE id = $1", node).Scan(&person, &left); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return ErrNotFound
			}
			return err
		}
		if left != nil {
			return fmt.Errorf("node %d has left", node)
		}
		b := &pgx.Batch{}
		for _, r := range rows {
			b.Queue("INSERT INTO ledger (node_id, seq, person_id, body, prev, hash) VALUES ($1, $2, $3, $4, $5, $6)",
				node, r.Seq, person, r.Body, r.Prev, r.Hash)
		}
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		if isChainError(err) {
			return fmt.Errorf("append to the ledger of node %d: %w: %v", node, ErrChain, err)
		}
		return fmt.Errorf("append to the ledger of node %d: %w", node, err)
	}
	return nil
}

// Ledger returns a person's ledger rows across their nodes, newest first,
// at most limit. Row-level security in the database keeps it to the
// person's own rows.
func (h *Hub) Ledger(ctx context.Context, person int64, limit int) ([]Entry, error) {
	var out []Entry
	err := pgx.BeginFunc(ctx, h.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT set_config('sayso.person', $1, true)", personSetting(person)); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "SELECT node_id, seq, body, prev, hash, received_at FROM ledger ORDER BY received_at DESC, node_id, seq DESC LIMIT $1", limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e Entry
			if err := rows.Scan(&e.Node, &e.Row.Seq, &e.Row.Body, &e.Row.Prev, &e.Row.Hash, &e.Received); err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read the ledger of person %d: %w", person, err)
	}
	return out, nil
}
