package hub

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/hubapi"
)

// Entry is a ledger row as the hub keeps it.
type Entry struct {
	Node     int64
	NodeName string
	Row      hubapi.Row
	Received time.Time
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
		return 0, hubapi.Genesis, nil
	}
	return *seq, hash, nil
}

// Append stores a node's rows, in one transaction: all or none. The
// database itself refuses rows that do not continue the node's chain.
func (h *Hub) Append(ctx context.Context, node int64, rows []hubapi.Row) error {
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
			return fmt.Errorf("append to the ledger of node %d: %w: %v", node, hubapi.ErrChain, err)
		}
		return fmt.Errorf("append to the ledger of node %d: %w", node, err)
	}
	return nil
}

// Ledger returns a person's ledger rows across their nodes, newest first,
// at most limit. Row-level security in the database keeps it to the
// person's own rows.
func (h *Hub) Ledger(ctx context.Context, person int64, limit int) ([]Entry, error) {
	return h.Search(ctx, person, Search{Limit: limit})
}

// Search selects a person's ledger rows. The zero value selects the
// newest hundred.
type Search struct {
	Node     int64    // only this node's rows; 0 is every node's
	NodeName string   // only the rows of the node of this name
	Session  string   // only this session's rows
	Words    []string // only rows whose summary or detail holds every word, in any case
	Kind     string   // only rows of this kind
	Decision string   // only decisions with this decision; "missed": only cards that ran out
	Class    string   // only rows whose diagnostic names this class
	Since    time.Time
	Until    time.Time // only rows the node wrote at or after Since and before Until
	// Received: only rows the hub took at or after it.
	Received time.Time
	Before   *Cursor // only rows older than this one: the next page
	Limit    int     // at most this many; 0 is 100
}

// MaxSearch bounds the rows one search of a page or a node returns.
const MaxSearch = 1000

// Cursor names a row of the hub's ledger in the order Search reads it.
type Cursor struct {
	Received time.Time
	Node     int64
	Seq      int64
}

// String is the cursor as the page and the API for nodes carry it.
func (c Cursor) String() string {
	return fmt.Sprintf("%d.%d.%d", c.Received.UnixMicro(), c.Node, c.Seq)
}

// ParseCursor reads a Cursor's String.
func ParseCursor(s string) (Cursor, error) {
	var us, node, seq int64
	if n, err := fmt.Sscanf(s, "%d.%d.%d", &us, &node, &seq); err != nil || n != 3 || fmt.Sprintf("%d.%d.%d", us, node, seq) != s {
		return Cursor{}, fmt.Errorf("%q is not a cursor of the ledger", s)
	}
	return Cursor{time.UnixMicro(us), node, seq}, nil
}

// Cursor is the key of the page after e.
func (e Entry) Cursor() Cursor { return Cursor{e.Received, e.Node, e.Row.Seq} }

// Search returns the person's rows the search selects, across their
// nodes, newest first. Every query runs with the person set for the
// ledger's row-level security: whatever the search names, the database
// hands over no row of another person.
func (h *Hub) Search(ctx context.Context, person int64, s Search) ([]Entry, error) {
	where := []string{"true"}
	var args []any
	arg := func(v any) string { args = append(args, v); return fmt.Sprintf("$%d", len(args)) }
	if s.Node != 0 {
		where = append(where, "l.node_id = "+arg(s.Node))
	}
	if s.NodeName != "" {
		where = append(where, "n.name = "+arg(s.NodeName))
	}
	if s.Session != "" {
		where = append(where, "j->>'session' = "+arg(s.Session))
	}
	for _, w := range s.Words {
		where = append(where, "strpos(lower(coalesce(j->>'summary', '') || ' ' || coalesce(j->>'detail', '')), "+arg(strings.ToLower(w))+") > 0")
	}
	if s.Kind != "" {
		where = append(where, "j->>'kind' = "+arg(s.Kind))
	}
	switch s.Decision {
	case "":
	case "missed":
		where = append(where, "j->>'kind' = 'card-expired'")
	default:
		where = append(where, "j->>'kind' <> 'card-expired' AND j->'detail'->>'decision' = "+arg(s.Decision))
	}
	if s.Class != "" {
		where = append(where, "j->'detail'->'diagnostic'->'classes' @> jsonb_build_array("+arg(s.Class)+"::text)")
	}
	if !s.Since.IsZero() {
		where = append(where, "ledger_at(j) >= "+arg(s.Since))
	}
	if !s.Until.IsZero() {
		where = append(where, "ledger_at(j) < "+arg(s.Until))
	}
	if !s.Received.IsZero() {
		where = append(where, "l.received_at >= "+arg(s.Received))
	}
	if c := s.Before; c != nil {
		where = append(where, fmt.Sprintf("(l.received_at, l.node_id, l.seq) < (%s, %s, %s)", arg(c.Received), arg(c.Node), arg(c.Seq)))
	}
	limit := s.Limit
	if limit <= 0 {
		limit = 100
	}
	q := `SELECT l.node_id, n.name, l.seq, l.body, l.prev, l.hash, l.received_at
		FROM ledger l JOIN nodes n ON n.id = l.node_id, LATERAL (SELECT ledger_json(l.body) AS j) r
		WHERE l.person_id = nullif(current_setting('sayso.person', true), '')::bigint AND ` + strings.Join(where, " AND ") + `
		ORDER BY l.received_at DESC, l.node_id DESC, l.seq DESC LIMIT ` + arg(limit)
	var out []Entry
	err := pgx.BeginFunc(ctx, h.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT set_config('sayso.person', $1, true)", personSetting(person)); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e Entry
			if err := rows.Scan(&e.Node, &e.NodeName, &e.Row.Seq, &e.Row.Body, &e.Row.Prev, &e.Row.Hash, &e.Received); err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("search the ledger of person %d: %w", person, err)
	}
	return out, nil
}

// Nodes returns the nodes of a person, by name, those that left too.
func (h *Hub) Nodes(ctx context.Context, person int64) ([]Node, error) {
	rows, err := h.pool.Query(ctx, "SELECT id, name, person_id, ci, left_at IS NOT NULL FROM nodes WHERE person_id = $1 ORDER BY name", person)
	if err != nil {
		return nil, fmt.Errorf("nodes of person %d: %w", person, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Node, error) {
		var n Node
		err := r.Scan(&n.ID, &n.Name, &n.Person, &n.CI, &n.Left)
		return n, err
	})
	if err != nil {
		return nil, fmt.Errorf("nodes of person %d: %w", person, err)
	}
	return out, nil
}
