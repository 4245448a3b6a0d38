package store

import (
	"context"
	"fmt"
)

// DefaultOwnerWordsMax is owner_words_max when the policy file sets none:
// the most characters of owner words a task may take from its parent.
const DefaultOwnerWordsMax = 32 << 10

// NewTask is handed-off work created from a session.
type NewTask struct {
	ID            string
	Agent         string
	Parent        string
	Prompt        string // the task's own prompt: stored as delegated, grants nothing
	Scoped        bool   // a scoped task takes no owner words
	OwnerWordsMax int    // characters; 0 is DefaultOwnerWordsMax
}

// Task is the task created, and what it took from its parent.
type Task struct {
	Session Session
	Copied  int    // owner words copied from the parent
	Why     string // why nothing was copied, when Copied is 0
}

// CreateTask creates a task from its parent session. The task takes a
// frozen copy of the parent's owner words, each marked from_parent, only
// if the parent has a person's words of its own and no guest words, the
// task is not scoped, and the words fit OwnerWordsMax; otherwise it takes
// nothing, and the reason is kept. A task made from a parent holding guest
// words is tainted as the parent is. The task's prompt is stored as a
// delegated message.
func (db *DB) CreateTask(ctx context.Context, n NewTask) (Task, error) {
	var t Task
	err := db.update(ctx, func(tx *tx) error {
		parent, err := tx.session(ctx, n.Parent)
		if err != nil {
			return err
		}
		if n.ID == "" || n.ID == n.Parent {
			return fmt.Errorf("task needs an id of its own")
		}
		// A task made from a session holding a guest's words is tainted
		// itself: it was made while someone else's words were there, so
		// no rule is offered or consulted for its steps either.
		res, err := tx.ExecContext(ctx,
			"INSERT INTO sessions (id, agent, parent, scoped, mode, tainted, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
			n.ID, n.Agent, n.Parent, boolInt(n.Scoped), parent.Mode, boolInt(parent.Tainted), nanos(tx.now))
		if err != nil {
			return fmt.Errorf("task %s exists or cannot be made: %w", n.ID, err)
		}
		_ = res
		root, err := tx.root(ctx, parent)
		if err != nil {
			return err
		}
		if err := tx.claim(ctx, root); err != nil {
			return err
		}
		words, err := tx.ownerWords(ctx, n.Parent)
		if err != nil {
			return err
		}
		own := words[:0:0]
		for _, w := range words {
			if !w.FromParent {
				own = append(own, w)
			}
		}
		max := n.OwnerWordsMax
		if max <= 0 {
			max = DefaultOwnerWordsMax
		}
		switch size := characters(own); {
		case n.Scoped:
			t.Why = "a scoped task takes no owner words"
		case parent.Tainted:
			t.Why = "the parent holds guest words"
		case len(own) == 0:
			t.Why = "the parent has no words from the person"
		case size > max:
			t.Why = fmt.Sprintf("the parent's owner words (%d characters) exceed owner_words_max (%d): a missing middle could hide a stop", size, max)
		default:
			for _, w := range own {
				if _, err := tx.ExecContext(ctx,
					"INSERT INTO messages (session, source, turn, text, from_parent, created_at) VALUES (?, 'person', ?, ?, 1, ?)",
					n.ID, w.Turn, w.Text, nanos(w.At)); err != nil {
					return err
				}
			}
			t.Copied = len(own)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE sessions SET copy_why = ? WHERE id = ?", t.Why, n.ID); err != nil {
			return err
		}
		summary := fmt.Sprintf("task %s from %s: took %d owner words", n.ID, n.Parent, t.Copied)
		if t.Copied == 0 {
			summary = fmt.Sprintf("task %s from %s: took no owner words: %s", n.ID, n.Parent, t.Why)
		}
		if parent.Tainted {
			summary += "; tainted, as its parent holds guest words"
		}
		if _, err := tx.appendLedger(ctx, KindTask, n.ID, summary,
			map[string]any{"parent": n.Parent, "scoped": n.Scoped, "copied": t.Copied, "why": t.Why, "tainted": parent.Tainted}); err != nil {
			return err
		}
		if _, err := tx.addMessage(ctx, n.ID, NewMessage{Source: SourceDelegated, Text: n.Prompt}); err != nil {
			return err
		}
		t.Session, err = tx.session(ctx, n.ID)
		return err
	})
	if err != nil {
		return Task{}, fmt.Errorf("create task %s from %s: %w", n.ID, n.Parent, err)
	}
	return t, nil
}
