package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// Category is the kind of ceiling step a lease lets through once.
type Category string

// Categories.
const (
	RemoteWrite     Category = "remote-write"
	Merge           Category = "merge"
	ForceRemote     Category = "force-remote"
	Publish         Category = "publish"
	Deploy          Category = "deploy"
	Destructive     Category = "destructive"
	ContainerRemove Category = "container-remove"
	Privilege       Category = "privilege"
	NewRemote       Category = "new-remote"
)

// Categories lists every lease category: the classes risk's table of
// class gates makes leasable, by their names.
var Categories = categories()

func categories() []Category {
	var out []Category
	for _, c := range risk.Leasable().Classes() {
		out = append(out, Category(c.String()))
	}
	return out
}

// ParseCategory returns the category named s.
func ParseCategory(s string) (Category, error) {
	for _, c := range Categories {
		if string(c) == s {
			return c, nil
		}
	}
	names := make([]string, len(Categories))
	for i, c := range Categories {
		names[i] = string(c)
	}
	return "", fmt.Errorf("unknown lease category %q (want one of %s)", s, strings.Join(names, ", "))
}

// MaxLeaseTTL is the longest a lease lives, and the default.
const MaxLeaseTTL = policy.MaxLeaseTTL

// Lease is a one-shot permission for one category of ceiling step, bound
// to an epoch, a session, a turn and an exact working folder.
type Lease struct {
	ID         int64     `json:"id"`
	Category   Category  `json:"category"`
	Epoch      int64     `json:"epoch"`
	Session    string    `json:"session"`
	Turn       string    `json:"turn"`
	Cwd        string    `json:"cwd"`
	CreatedAt  time.Time `json:"created_at"`
	ExpiresAt  time.Time `json:"expires_at"`
	ConsumedAt time.Time `json:"consumed_at,omitzero"`
	ConsumedBy int64     `json:"consumed_by,omitempty"` // the ledger row of the step that consumed it
	RevokedAt  time.Time `json:"revoked_at,omitzero"`
	RevokedWhy string    `json:"revoked_why,omitempty"`
}

// Live reports whether the lease can still cover a step at now.
func (l Lease) Live(now time.Time) bool {
	return l.ConsumedAt.IsZero() && l.RevokedAt.IsZero() && now.Before(l.ExpiresAt)
}

// State names the lease's state at now: live, consumed, revoked or expired.
func (l Lease) State(now time.Time) string {
	switch {
	case !l.ConsumedAt.IsZero():
		return "consumed"
	case !l.RevokedAt.IsZero():
		return "revoked"
	case !now.Before(l.ExpiresAt):
		return "expired"
	}
	return "live"
}

// Grant is a lease the person grants.
type Grant struct {
	Category Category
	Session  string
	Cwd      string        // the exact working folder the step must run in
	TTL      time.Duration // at most MaxLeaseTTL; 0 is MaxLeaseTTL
}

// GrantLease grants a lease bound to the current epoch and the session's
// current turn. Only the person may call it.
func (db *DB) GrantLease(ctx context.Context, g Grant) (Lease, error) {
	g, err := checkGrant(g)
	if err != nil {
		return Lease{}, fmt.Errorf("grant lease: %w", err)
	}
	var l Lease
	err = db.update(ctx, func(tx *tx) (err error) {
		l, err = tx.grantLease(ctx, g)
		return err
	})
	if err != nil {
		return Lease{}, fmt.Errorf("grant lease: %w", err)
	}
	return l, nil
}

func checkGrant(g Grant) (Grant, error) {
	if _, err := ParseCategory(string(g.Category)); err != nil {
		return g, err
	}
	switch {
	case g.TTL == 0:
		g.TTL = MaxLeaseTTL
	case g.TTL < 0 || g.TTL > MaxLeaseTTL:
		return g, fmt.Errorf("ttl %v is not between 0 and %v", g.TTL, MaxLeaseTTL)
	}
	if !filepath.IsAbs(g.Cwd) {
		return g, fmt.Errorf("cwd %q is not an absolute path", g.Cwd)
	}
	g.Cwd = filepath.Clean(g.Cwd)
	return g, nil
}

func (tx *tx) grantLease(ctx context.Context, g Grant) (Lease, error) {
	s, err := tx.session(ctx, g.Session)
	if err != nil {
		return Lease{}, err
	}
	// A lease is bound to the session's current turn: one that has ended
	// takes no step for it, and the person meant another.
	if a, err := tx.activity(ctx, s.ID); err != nil {
		return Lease{}, err
	} else if a.Ended {
		return Lease{}, fmt.Errorf("session %s ended at %s: %w", s.ID, a.EndedAt.Format(time.RFC3339), ErrSessionEnded)
	}
	e, err := tx.currentEpoch(ctx)
	if err != nil {
		return Lease{}, err
	}
	expires := tx.now.Add(g.TTL)
	res, err := tx.ExecContext(ctx,
		"INSERT INTO leases (category, epoch, session, turn, cwd, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
		string(g.Category), e.ID, s.ID, s.Turn, g.Cwd, nanos(tx.now), nanos(expires))
	if err != nil {
		return Lease{}, err
	}
	id, _ := res.LastInsertId()
	l := Lease{ID: id, Category: g.Category, Epoch: e.ID, Session: s.ID, Turn: s.Turn, Cwd: g.Cwd, CreatedAt: tx.now, ExpiresAt: expires}
	_, err = tx.appendLedger(ctx, KindLeaseGranted, s.ID,
		fmt.Sprintf("lease %d granted: %s in %s, turn %s, until %s", id, g.Category, g.Cwd, s.Turn, expires.Format(time.RFC3339)), l)
	return l, err
}

// LeaseLine reads a prompt line that grants a lease: exactly
// "/sayso lease CATEGORY", alone in the message. Nothing is ever inferred
// from prose.
func LeaseLine(text string) (Category, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "/sayso lease ")
	if !ok {
		return "", false
	}
	c, err := ParseCategory(rest)
	return c, err == nil
}

const leaseColumns = "id, category, epoch, session, turn, cwd, created_at, expires_at, COALESCE(consumed_at, 0), COALESCE(consumed_by, 0), COALESCE(revoked_at, 0), revoked_why"

func scanLease(row scanner) (Lease, error) {
	var l Lease
	var created, expires, consumed, revoked int64
	err := row.Scan(&l.ID, &l.Category, &l.Epoch, &l.Session, &l.Turn, &l.Cwd, &created, &expires, &consumed, &l.ConsumedBy, &revoked, &l.RevokedWhy)
	l.CreatedAt, l.ExpiresAt, l.ConsumedAt, l.RevokedAt = instant(created), instant(expires), instant(consumed), instant(revoked)
	return l, err
}

func (tx *tx) leases(ctx context.Context, where string, args ...any) ([]Lease, error) {
	rows, err := tx.QueryContext(ctx, "SELECT "+leaseColumns+" FROM leases "+where, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanLease)
}

// Leases lists leases, newest last: the live ones, or with all every
// lease ever granted.
func (db *DB) Leases(ctx context.Context, all bool) ([]Lease, error) {
	return within(ctx, db.view, "list leases", func(tx *tx) ([]Lease, error) {
		if all {
			return tx.leases(ctx, "ORDER BY id")
		}
		return tx.leases(ctx, "WHERE consumed_at IS NULL AND revoked_at IS NULL AND expires_at > ? ORDER BY id", nanos(tx.now))
	})
}

// RevokeLease revokes a lease that has not been consumed.
func (db *DB) RevokeLease(ctx context.Context, id int64) error {
	return db.change(ctx, fmt.Sprintf("revoke lease %d", id), func(tx *tx) error {
		l, err := scanLease(tx.QueryRowContext(ctx, "SELECT "+leaseColumns+" FROM leases WHERE id = ?", id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("lease %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if st := l.State(tx.now); st == "consumed" || st == "revoked" {
			return fmt.Errorf("lease %d is already %s", id, st)
		}
		return tx.revoke(ctx, l, "revoked by the person")
	})
}

func (tx *tx) revoke(ctx context.Context, l Lease, why string) error {
	if _, err := tx.ExecContext(ctx, "UPDATE leases SET revoked_at = ?, revoked_why = ? WHERE id = ?", nanos(tx.now), why, l.ID); err != nil {
		return err
	}
	_, err := tx.appendLedger(ctx, KindLeaseRevoked, l.Session, fmt.Sprintf("lease %d revoked: %s", l.ID, why),
		map[string]any{"lease": l.ID, "category": l.Category, "why": why})
	return err
}

// revokeOpen revokes every lease neither consumed nor revoked that has not
// yet expired, in every session.
func (tx *tx) revokeOpen(ctx context.Context, why string) error {
	open, err := tx.leases(ctx, "WHERE consumed_at IS NULL AND revoked_at IS NULL AND expires_at > ?", nanos(tx.now))
	if err != nil {
		return err
	}
	for _, l := range open {
		if err := tx.revoke(ctx, l, why); err != nil {
			return err
		}
	}
	return nil
}

// consume marks a live lease consumed by a ledger row. It reports false
// when another step got there first.
func (tx *tx) consume(ctx context.Context, id, by int64) (bool, error) {
	res, err := tx.ExecContext(ctx,
		"UPDATE leases SET consumed_at = ?, consumed_by = ? WHERE id = ? AND consumed_at IS NULL AND revoked_at IS NULL AND expires_at > ?",
		nanos(tx.now), by, id, nanos(tx.now))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
