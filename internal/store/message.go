package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Source is who a message came from. The zero value is no source and is
// refused: a message never defaults to the person.
type Source string

// Sources.
const (
	SourcePerson    Source = "person"    // the person, on positive evidence
	SourceDelegated Source = "delegated" // a task's prompt, written by an assistant or a template
	SourceSystem    Source = "system"    // routines, schedules, resumes, other apps
	SourceGuest     Source = "guest"     // any other human
)

// ParseSource returns the source named s.
func ParseSource(s string) (Source, error) {
	switch v := Source(s); v {
	case SourcePerson, SourceDelegated, SourceSystem, SourceGuest:
		return v, nil
	}
	return "", fmt.Errorf("unknown source %q (want person, delegated, system or guest)", s)
}

// Message is one message a session received.
type Message struct {
	ID         int64     `json:"id"`
	Session    string    `json:"session"`
	Source     Source    `json:"source"`
	Turn       string    `json:"turn"`
	Text       string    `json:"text"`
	FromParent bool      `json:"from_parent,omitempty"` // copied from the parent when the task was made
	At         time.Time `json:"at"`
	Lease      *Lease    `json:"lease,omitempty"` // the lease a person's "/sayso lease CATEGORY" line granted
}

// NewMessage is a message a session received.
type NewMessage struct {
	Source Source
	Turn   string // the agent's id for the turn it opens; "" numbers it
	Text   string
	Cwd    string // the session's folder, where the client gives it: a lease line binds to it
}

// AddMessage records a message the session received, creating the session
// if it is new. Each message opens a turn. A person message opens a new
// epoch bound to (session, turn) and revokes every unconsumed lease in
// every session. A guest message taints the session, and a task that
// receives one loses its copy of its parent's words. A person message that
// is exactly "/sayso lease CATEGORY" also grants that lease, bound to the
// new epoch, the message's turn and n.Cwd.
func (db *DB) AddMessage(ctx context.Context, s NewSession, n NewMessage) (Message, error) {
	if _, err := ParseSource(string(n.Source)); err != nil {
		return Message{}, fmt.Errorf("add message to %s: %w", s.ID, err)
	}
	var m Message
	err := db.update(ctx, func(tx *tx) error {
		if _, err := tx.ensureSession(ctx, s); err != nil {
			return err
		}
		var err error
		m, err = tx.addMessage(ctx, s.ID, n)
		return err
	})
	if err != nil {
		return Message{}, fmt.Errorf("add message to %s: %w", s.ID, err)
	}
	return m, nil
}

func (tx *tx) addMessage(ctx context.Context, session string, n NewMessage) (Message, error) {
	src, turn := n.Source, n.Turn
	var count int
	if err := tx.QueryRowContext(ctx, "UPDATE sessions SET turns = turns + 1 WHERE id = ? RETURNING turns", session).Scan(&count); err != nil {
		return Message{}, err
	}
	if turn == "" {
		turn = strconv.Itoa(count)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE sessions SET turn = ? WHERE id = ?", turn, session); err != nil {
		return Message{}, err
	}
	text := n.Text
	m := Message{Session: session, Source: src, Turn: turn, Text: text, At: tx.now}
	res, err := tx.ExecContext(ctx,
		"INSERT INTO messages (session, source, turn, text, created_at) VALUES (?, ?, ?, ?, ?)",
		session, string(src), turn, text, nanos(tx.now))
	if err != nil {
		return Message{}, err
	}
	m.ID, _ = res.LastInsertId()
	detail := map[string]any{"source": src, "turn": turn}
	if on, err := tx.setting(ctx, settingLogText); err != nil {
		return Message{}, err
	} else if on == "on" {
		detail["text"] = text
	}
	if _, err := tx.appendLedger(ctx, KindMessage, session, fmt.Sprintf("%s message, turn %s", src, turn), detail); err != nil {
		return Message{}, err
	}
	switch src {
	case SourcePerson:
		if err := tx.newEpoch(ctx, session, turn); err != nil {
			return Message{}, err
		}
		if c, ok := LeaseLine(text); ok && n.Cwd != "" {
			g, err := checkGrant(Grant{Category: c, Session: session, Cwd: n.Cwd})
			if err != nil {
				return Message{}, err
			}
			l, err := tx.grantLease(ctx, g)
			if err != nil {
				return Message{}, err
			}
			m.Lease = &l
		}
	case SourceGuest:
		if err := tx.taint(ctx, session); err != nil {
			return Message{}, err
		}
	}
	return m, nil
}

// taint marks a session as holding guest words. A task loses its copy of
// its parent's owner words.
func (tx *tx) taint(ctx context.Context, session string) error {
	if _, err := tx.ExecContext(ctx, "UPDATE sessions SET tainted = 1 WHERE id = ?", session); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM messages WHERE session = ? AND from_parent = 1", session)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		if _, err := tx.ExecContext(ctx, "UPDATE sessions SET copy_why = ? WHERE id = ?", whyGuestInTask, session); err != nil {
			return err
		}
		_, err = tx.appendLedger(ctx, KindTask, session, fmt.Sprintf("task dropped %d owner words copied from its parent: %s", n, whyGuestInTask), nil)
		return err
	}
	return nil
}

const whyGuestInTask = "the task received guest words"

// OwnerWords returns the person's messages in the session, in order: a
// task's frozen copy of its parent's words first, each marked FromParent,
// then the task's own. A tainted session's words are still returned; the
// caller reads Tainted from the session's state.
func (db *DB) OwnerWords(ctx context.Context, session string) ([]Message, error) {
	return within(ctx, db.view, "read owner words of "+session, func(tx *tx) ([]Message, error) {
		return tx.ownerWords(ctx, session)
	})
}

func (tx *tx) ownerWords(ctx context.Context, session string) ([]Message, error) {
	rows, err := tx.QueryContext(ctx,
		"SELECT id, session, source, turn, text, from_parent, created_at FROM messages WHERE session = ? AND source = 'person' ORDER BY from_parent DESC, id",
		session)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (Message, error) {
		var m Message
		var at int64
		err := row.Scan(&m.ID, &m.Session, &m.Source, &m.Turn, &m.Text, &m.FromParent, &at)
		m.At = instant(at)
		return m, err
	})
}

// MessageCounts counts a session's messages by source, and the copied ones
// apart, without their words.
func (db *DB) MessageCounts(ctx context.Context, session string) (map[string]int, error) {
	out := map[string]int{}
	err := db.view(ctx, func(tx *tx) error {
		clear(out)
		rows, err := tx.QueryContext(ctx,
			"SELECT CASE WHEN from_parent = 1 THEN 'from_parent' ELSE source END, count(*) FROM messages WHERE session = ? GROUP BY 1",
			session)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				return err
			}
			out[k] = n
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("count messages of %s: %w", session, err)
	}
	return out, nil
}

// characters counts the characters of the messages' words.
func characters(ms []Message) int {
	n := 0
	for _, m := range ms {
		n += len([]rune(m.Text))
	}
	return n
}

func firstWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) > n {
		return strings.Join(w[:n], " ") + " …"
	}
	return strings.Join(w, " ")
}
