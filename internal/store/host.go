package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Ledger kinds of hosts.
const (
	KindHostAdded   = "host-added"
	KindHostRemoved = "host-removed"
)

// TokenPrefix starts every host token, so that a leaked one is easy to
// recognise.
const TokenPrefix = "sayso_host_"

// Host is an agent host other than the three clients that uses the
// gateway's API with a token the person made.
type Host struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Person    bool      `json:"person"` // may label a message as the person's
	CreatedAt time.Time `json:"created_at"`
}

// NewHost is a host the person adds.
type NewHost struct {
	Name   string
	Person bool
	// Agents are the agent clients' names: a host may not take one, so
	// no host's step reads in the ledger as a client's.
	Agents []string
}

// ErrHostExists reports a host name already in use.
var ErrHostExists = errors.New("a host of that name exists")

// reservedHosts are the names a host may not take besides the agents':
// the socket's own.
var reservedHosts = map[string]bool{"login": true, "person": true, "sayso": true}

// CheckHostName reports whether name may name a host: 1 to 40 lowercase
// letters, digits and dashes, starting with a letter, and none of the
// agents' names.
func CheckHostName(name string, agents []string) error {
	if name == "" || len(name) > 40 {
		return fmt.Errorf("host name %q: want 1 to 40 characters", name)
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z':
		case i > 0 && (r >= '0' && r <= '9' || r == '-'):
		default:
			return fmt.Errorf("host name %q: want lowercase letters, digits and dashes, starting with a letter", name)
		}
	}
	if reservedHosts[name] || slices.Contains(agents, name) {
		return fmt.Errorf("host name %q is reserved", name)
	}
	return nil
}

// tokenHash is what the store keeps of a token.
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// AddHost adds a host and returns its token. The token is not kept: only
// its SHA-256 is, so this is the one time it can be read.
func (db *DB) AddHost(ctx context.Context, n NewHost) (Host, string, error) {
	if err := CheckHostName(n.Name, n.Agents); err != nil {
		return Host{}, "", fmt.Errorf("add host: %w", err)
	}
	b := make([]byte, 32)
	rand.Read(b) // never fails: see crypto/rand
	token := TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	h := Host{Name: n.Name, Person: n.Person}
	err := db.update(ctx, func(tx *tx) error {
		var exists int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM hosts WHERE name = ?", n.Name).Scan(&exists); err != nil {
			return err
		}
		if exists > 0 {
			return fmt.Errorf("%s: %w", n.Name, ErrHostExists)
		}
		h.CreatedAt = tx.now
		res, err := tx.ExecContext(ctx, "INSERT INTO hosts (name, token_sha256, person, created_at) VALUES (?, ?, ?, ?)",
			n.Name, tokenHash(token), boolInt(n.Person), nanos(tx.now))
		if err != nil {
			return err
		}
		if h.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		summary := "host " + n.Name + " added"
		if n.Person {
			summary += ", trusted to label the person's messages"
		}
		_, err = tx.appendLedger(ctx, KindHostAdded, "", summary, h)
		return err
	})
	if err != nil {
		return Host{}, "", fmt.Errorf("add host %s: %w", n.Name, err)
	}
	h.CreatedAt = h.CreatedAt.UTC()
	return h, token, nil
}

// Hosts lists the hosts, oldest first.
func (db *DB) Hosts(ctx context.Context) ([]Host, error) {
	return within(ctx, db.view, "list hosts", func(tx *tx) ([]Host, error) {
		rows, err := tx.QueryContext(ctx, "SELECT id, name, person, created_at FROM hosts ORDER BY id")
		if err != nil {
			return nil, err
		}
		return collect(rows, scanHost)
	})
}

// HostOf returns the host whose token this is. An unknown, removed or
// malformed token is ErrNotFound.
func (db *DB) HostOf(ctx context.Context, token string) (Host, error) {
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > 200 {
		return Host{}, fmt.Errorf("host token: %w", ErrNotFound)
	}
	var h Host
	err := db.view(ctx, func(tx *tx) (err error) {
		h, err = scanHost(tx.QueryRowContext(ctx, "SELECT id, name, person, created_at FROM hosts WHERE token_sha256 = ?", tokenHash(token)))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Host{}, fmt.Errorf("host token: %w", ErrNotFound)
	}
	if err != nil {
		return Host{}, fmt.Errorf("look up host token: %w", err)
	}
	return h, nil
}

// RemoveHost removes a host: its token stops working at once.
func (db *DB) RemoveHost(ctx context.Context, name string) error {
	return db.change(ctx, "remove host "+name, func(tx *tx) error {
		h, err := scanHost(tx.QueryRowContext(ctx, "DELETE FROM hosts WHERE name = ? RETURNING id, name, person, created_at", name))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("host %s: %w", name, ErrNotFound)
		}
		if err != nil {
			return err
		}
		_, err = tx.appendLedger(ctx, KindHostRemoved, "", "host "+name+" removed", h)
		return err
	})
}

type scanner interface{ Scan(...any) error }

func scanHost(s scanner) (Host, error) {
	var h Host
	var person int
	var at int64
	if err := s.Scan(&h.ID, &h.Name, &person, &at); err != nil {
		return Host{}, err
	}
	h.Person, h.CreatedAt = person != 0, instant(at)
	return h, nil
}
