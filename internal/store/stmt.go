package store

import (
	"context"
	"database/sql"
	"sync"
)

// maxKept bounds how many statements a process keeps prepared: the
// store's queries are a fixed set, give or take the filters the ledger's
// reader combines.
const maxKept = 256

// kept are the statements a long-lived process keeps prepared, by their
// text. SQLite parses and plans a statement each time it is prepared,
// which is a third of what deciding a step costs the gateway; a kept
// statement is only bound and stepped.
//
// The database has one connection, which a transaction holds until it
// ends: a statement first seen inside one runs as it is, and is prepared
// for the next transaction once this one has ended.
type kept struct {
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
	want  map[string]bool
}

// KeepStatements has the database keep the statements its transactions
// run prepared, for a process that runs many (sayso serve). A hook
// process, which runs one transaction and exits, does not: preparing for
// later would only cost it.
func (db *DB) KeepStatements() {
	db.kept.mu.Lock()
	defer db.kept.mu.Unlock()
	if db.kept.stmts == nil {
		db.kept.stmts, db.kept.want = map[string]*sql.Stmt{}, map[string]bool{}
	}
}

// stmt returns the statement kept for query, bound to tx; nil when none
// is kept yet, and then query is prepared once tx has ended.
func (t *tx) stmt(ctx context.Context, query string) *sql.Stmt {
	k := &t.db.kept
	k.mu.Lock()
	if k.stmts == nil {
		k.mu.Unlock()
		return nil
	}
	s := k.stmts[query]
	if s == nil && len(k.stmts)+len(k.want) < maxKept {
		k.want[query] = true
	}
	k.mu.Unlock()
	if s == nil {
		return nil
	}
	return t.Tx.StmtContext(ctx, s)
}

// prepareWanted prepares the statements transactions ran that are not
// kept yet. It runs when no transaction of this caller holds the
// connection; one that cannot be prepared is left to run as it is.
func (db *DB) prepareWanted(ctx context.Context) {
	k := &db.kept
	k.mu.Lock()
	var want []string
	for q := range k.want {
		want = append(want, q)
	}
	clear(k.want)
	k.mu.Unlock()
	for _, q := range want {
		s, err := db.db.PrepareContext(context.WithoutCancel(ctx), q)
		if err != nil {
			continue
		}
		k.mu.Lock()
		if k.stmts[q] == nil {
			k.stmts[q], s = s, nil
		}
		k.mu.Unlock()
		if s != nil {
			s.Close()
		}
	}
}

// closeKept closes the kept statements.
func (db *DB) closeKept() {
	k := &db.kept
	k.mu.Lock()
	defer k.mu.Unlock()
	for q, s := range k.stmts {
		s.Close()
		delete(k.stmts, q)
	}
}

// QueryContext runs query in the transaction, through its kept statement
// when there is one.
func (t *tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs query in the transaction, through its kept
// statement when there is one.
func (t *tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}

// ExecContext runs query in the transaction, through its kept statement
// when there is one.
func (t *tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := t.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}
