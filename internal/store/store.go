package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// FileName is the database's name inside the state folder.
const FileName = "sayso.db"

// busyTimeout is how long SQLite itself waits for another process's write
// lock before a statement reports busy; Open's callers then retry the whole
// transaction until their context ends.
const busyTimeout = 5 * time.Second

// ErrNotFound reports a session, lease or rule that does not exist.
var ErrNotFound = errors.New("not found")

// DB is sayso's database.
type DB struct {
	db   *sql.DB
	path string

	// Now is the clock. Each transaction reads it once and uses that
	// instant for every row it writes.
	Now func() time.Time

	kept kept // the statements kept prepared, after KeepStatements
}

// Open opens the database at path, creating it and bringing its schema up
// to date. The folder must exist; the caller makes it private.
func Open(ctx context.Context, path string) (*DB, error) {
	// Made 0600 before SQLite sees it: its -wal and -shm files take the
	// database's mode.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	f.Close()
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	sdb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	// One connection: a hook process runs one transaction at a time, and
	// SQLite serializes writers anyway.
	sdb.SetMaxOpenConns(1)
	db := &DB{db: sdb, path: path, Now: time.Now}
	if err := retry(ctx, func() error { return sdb.PingContext(ctx) }); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	if err := db.migrate(ctx); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

// Close closes the database.
func (db *DB) Close() error {
	db.closeKept()
	if err := db.db.Close(); err != nil {
		return fmt.Errorf("close database %s: %w", db.path, err)
	}
	return nil
}

// leaveLimit is the size of the write-ahead log under which Leave leaves
// it for the next process. Each process that opens the database first
// reads the whole log back, at about half a millisecond per MiB here; a
// hook adds some 15 KiB to it.
const leaveLimit = 512 << 10

// Leave ends a short-lived process's use of the database, which must exit
// right after. Close, in the last process that has the database open,
// copies the write-ahead log into the database and removes it: two fsyncs
// and a removal, which cost a hook more than its whole decision. Leave
// skips that while the log is under leaveLimit: what was committed stays
// committed in the log, as after a kill -9, and the next process to open
// the database reads it back. Past the limit it closes, so the log never
// grows without end (a checkpoint's progress lives in the -shm file,
// which the next lone process to open the database starts afresh).
func (db *DB) Leave() error {
	if fi, err := os.Stat(db.path + "-wal"); err == nil && fi.Size() < leaveLimit {
		return nil
	}
	return db.Close()
}

// tx is one transaction with its instant.
type tx struct {
	*sql.Tx
	now time.Time
	db  *DB
}

// update runs fn in one BEGIN IMMEDIATE transaction, retrying the whole
// transaction while another process holds the write lock, until ctx ends.
func (db *DB) update(ctx context.Context, fn func(*tx) error) error {
	defer db.prepareWanted(ctx)
	return retry(ctx, func() error {
		t, err := db.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := fn(&tx{Tx: t, now: db.Now().UTC(), db: db}); err != nil {
			t.Rollback()
			return err
		}
		return t.Commit()
	})
}

// view runs fn in one read transaction: in WAL mode it sees one snapshot
// and never waits for a writer, nor makes one wait.
func (db *DB) view(ctx context.Context, fn func(*tx) error) error {
	defer db.prepareWanted(ctx)
	return retry(ctx, func() error {
		t, err := db.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer t.Rollback()
		return fn(&tx{Tx: t, now: db.Now().UTC(), db: db})
	})
}

// retry runs fn again while SQLite reports the database busy or locked,
// backing off a little more each time, until ctx ends. The error that
// reaches the caller is never a bare "database is locked" while there is
// time left.
func retry(ctx context.Context, fn func() error) error {
	wait := time.Millisecond
	for {
		err := fn()
		if err == nil || !busy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (gave up waiting: %v)", err, ctx.Err())
		case <-time.After(wait):
		}
		if wait < 50*time.Millisecond {
			wait *= 2
		}
	}
}

func busy(err error) bool {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return true
	}
	return false
}

// nanos stores an instant as Unix nanoseconds, clamped to the years
// 1678 to 2262 that they can hold.
func nanos(t time.Time) int64 {
	switch {
	case t.Before(minInstant):
		return math.MinInt64
	case t.After(maxInstant):
		return math.MaxInt64
	}
	return t.UnixNano()
}

var minInstant, maxInstant = time.Unix(0, math.MinInt64), time.Unix(0, math.MaxInt64)

// instant reads an instant stored as Unix nanoseconds.
func instant(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
