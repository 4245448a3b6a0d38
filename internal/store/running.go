package store

import (
	"context"
	"fmt"
	"time"
)

// SpawnLapse is how long a spawn the gate let through holds its place
// under max_parallel while no task it started is seen. A client reports a
// sub-agent's start right after the spawn; one that never starts (the
// client refused it, or reports no starts) frees its place after this.
const SpawnLapse = 2 * time.Minute

// running counts what holds a place under max_parallel in the tree of
// root: its tasks (and theirs) that have not ended, and the spawns let
// through that no task has claimed yet and that have not lapsed.
func (tx *tx) running(ctx context.Context, root string) (int, error) {
	var tasks, spawns int
	if err := tx.QueryRowContext(ctx, `
		WITH RECURSIVE tree(id) AS (
			SELECT id FROM sessions WHERE parent = ?
			UNION SELECT s.id FROM sessions s JOIN tree ON s.parent = tree.id
		)
		SELECT count(*) FROM sessions WHERE id IN tree AND ended_at = 0`, root).Scan(&tasks); err != nil {
		return 0, fmt.Errorf("count running tasks: %w", err)
	}
	if err := tx.QueryRowContext(ctx,
		"SELECT count(*) FROM spawns WHERE session = ? AND claimed_at = 0 AND created_at > ?",
		root, nanos(tx.now.Add(-SpawnLapse))).Scan(&spawns); err != nil {
		return 0, fmt.Errorf("count spawns: %w", err)
	}
	return tasks + spawns, nil
}

// spawned holds a place for a spawn let through in the tree of root.
func (tx *tx) spawned(ctx context.Context, root string) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO spawns (session, created_at) VALUES (?, ?)", root, nanos(tx.now))
	return err
}

// claim hands the oldest open spawn of root to a task that started: the
// task now holds the place.
func (tx *tx) claim(ctx context.Context, root string) error {
	_, err := tx.ExecContext(ctx, `
		UPDATE spawns SET claimed_at = ? WHERE id = (
			SELECT id FROM spawns WHERE session = ? AND claimed_at = 0 ORDER BY id LIMIT 1)`,
		nanos(tx.now), root)
	return err
}

// root is the topmost parent of a session, or the session itself.
func (tx *tx) root(ctx context.Context, s Session) (string, error) {
	ps, err := tx.parents(ctx, s)
	if err != nil || len(ps) == 0 {
		return s.ID, err
	}
	return ps[len(ps)-1], nil
}

// EndTask records that a task stopped: it no longer holds a place under
// max_parallel. A task sayso never saw, or one already ended, is left as
// it is.
func (db *DB) EndTask(ctx context.Context, id string) error {
	return db.change(ctx, "end task "+id, func(tx *tx) error {
		s, err := tx.session(ctx, id)
		if err != nil || s.Parent == "" {
			return err // a session is not a task: SessionEnd ends one
		}
		res, err := tx.ExecContext(ctx, "UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at = 0", nanos(tx.now), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		_, err = tx.appendLedger(ctx, KindTaskEnded, id, "task "+id+" ended", map[string]any{"parent": s.Parent})
		return err
	})
}

// EndSpawn records that a sub-agent a spawn of session started has ended,
// for a client that names no task (a client may report only the spawning
// tool's end): the oldest spawn of the session's tree that still holds a
// place frees it. With none open, nothing changes.
func (db *DB) EndSpawn(ctx context.Context, session string) error {
	return db.change(ctx, "end a sub-agent of "+session, func(tx *tx) error {
		s, err := tx.session(ctx, session)
		if err != nil {
			return err
		}
		root, err := tx.root(ctx, s)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `
			UPDATE spawns SET claimed_at = ? WHERE id = (
				SELECT id FROM spawns WHERE session = ? AND claimed_at = 0 AND created_at > ? ORDER BY id LIMIT 1)`,
			nanos(tx.now), root, nanos(tx.now.Add(-SpawnLapse)))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		_, err = tx.appendLedger(ctx, KindTaskEnded, session, "a sub-agent of session "+session+" ended", map[string]any{"parent": root})
		return err
	})
}

// EndSession records that a conversation ended: every task of it ends, and
// the spawns it holds places for free them. The session itself may be
// resumed; its own state is kept.
func (db *DB) EndSession(ctx context.Context, id string) error {
	return db.change(ctx, "end session "+id, func(tx *tx) error {
		if _, err := tx.session(ctx, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `
			WITH RECURSIVE tree(id) AS (
				SELECT id FROM sessions WHERE parent = ?
				UNION SELECT s.id FROM sessions s JOIN tree ON s.parent = tree.id
			)
			UPDATE sessions SET ended_at = ? WHERE id IN tree AND ended_at = 0`, id, nanos(tx.now))
		if err != nil {
			return err
		}
		ended, _ := res.RowsAffected()
		if _, err := tx.ExecContext(ctx, "UPDATE spawns SET claimed_at = ? WHERE session = ? AND claimed_at = 0", nanos(tx.now), id); err != nil {
			return err
		}
		_, err = tx.appendLedger(ctx, KindSessionEnded, id, fmt.Sprintf("session %s ended: %d tasks ended with it", id, ended), map[string]any{"tasks": ended})
		return err
	})
}
