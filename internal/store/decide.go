package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// DefaultBreakerWindow is how far back the breaker's counters reach when
// the step names no window.
const DefaultBreakerWindow = 10 * time.Minute

// Step is one step to decide, as the store records it.
type Step struct {
	Session       NewSession    // created in Session.Mode when the store has not seen it
	Turn          string        // the turn the step belongs to; "" is the session's current turn
	Cwd           string        // the exact working folder the step runs in
	Tool          string        // the agent's tool: Bash, Write, an MCP tool…
	Summary       string        // what the step is, for the ledger: the command line, the path
	BreakerWindow time.Duration // how far back the breaker counts; 0 is DefaultBreakerWindow
	// Spawn marks a step that spawns a sub-agent. Its state counts what
	// runs (State.Running), and when it is let through it holds a place
	// under max_parallel until the task it starts is seen.
	Spawn bool
	// Shows is what the step does, as JSON (package step's Shown, bounded
	// and with its secrets masked by the caller): the ledger row keeps it
	// beside the step. A value past MaxShows is not kept.
	Shows json.RawMessage
}

// MaxShows bounds what a decision's row keeps of what its step does.
const MaxShows = 32 << 10

// Breaker is what a session's breaker counts: when its steps were denied
// and when the person declined its cards, within the window and since the
// person last released it, oldest first. It holds at most breakerEvents of
// each, the newest.
type Breaker struct {
	Denials  []time.Time `json:"denials"`
	Declined []time.Time `json:"declined"`
	Since    time.Time   `json:"since"`
}

// breakerEvents bounds how many events of each kind a step's state carries.
const breakerEvents = 64

// State is everything the store knows that a step's decision needs, read
// inside the transaction that records the decision.
type State struct {
	Now        time.Time // the transaction's instant
	Session    Session
	Live       Live   // the mode and hold the step is decided in, parents included
	Turn       string // the step's turn
	Cwd        string // the step's working folder
	Breaker    Breaker
	OwnerWords []Message // the person's words, a task's copy first (FromParent)
	Epoch      Epoch     // the current epoch; Epoch.Session is the current controller
	Parents    []string  // the session's parents, nearest first: none for a conversation
	// Running counts, for a spawn, what holds a place under max_parallel in
	// the session's tree: tasks not ended and spawns let through whose task
	// has not started. It is 0 for any other step.
	Running int
	Leases  []Lease // the session's most recent leases, live or not, newest first
	Note    string  // the environment note
}

// Controller is the session holding the newest epoch, or "" before any
// person message.
func (s *State) Controller() string { return s.Epoch.Session }

// Controls reports whether the session holds the newest epoch, or is a task
// of a session that does: a task stands where its parent stands.
func (s *State) Controls() bool {
	c := s.Controller()
	return c != "" && (c == s.Session.ID || slices.Contains(s.Parents, c))
}

// CheckLease returns "" when l covers a step of category c in this state,
// or the check that failed.
func (s *State) CheckLease(l Lease, c Category) string {
	switch {
	case l.Session != s.Session.ID:
		return fmt.Sprintf("session: lease %d is for session %s", l.ID, l.Session)
	case l.Category != c:
		return fmt.Sprintf("category: lease %d is for %s, the step is %s", l.ID, l.Category, c)
	case !l.ConsumedAt.IsZero():
		return fmt.Sprintf("consumed: lease %d was used by an earlier step at %s", l.ID, l.ConsumedAt.Format(time.RFC3339))
	case !l.RevokedAt.IsZero():
		return fmt.Sprintf("revoked: lease %d was revoked: %s", l.ID, l.RevokedWhy)
	case !s.Now.Before(l.ExpiresAt):
		return fmt.Sprintf("expired: lease %d expired at %s", l.ID, l.ExpiresAt.Format(time.RFC3339))
	case l.Epoch != s.Epoch.ID:
		return fmt.Sprintf("epoch: lease %d belongs to epoch %d, the current epoch is %d", l.ID, l.Epoch, s.Epoch.ID)
	case l.Turn != s.Turn:
		return fmt.Sprintf("turn: lease %d is for turn %s, the step is in turn %s", l.ID, l.Turn, s.Turn)
	case l.Cwd != s.Cwd:
		return fmt.Sprintf("cwd: lease %d is for %s, the step runs in %s", l.ID, l.Cwd, s.Cwd)
	}
	return ""
}

// LeaseFor returns the live lease that covers a step of category c. When
// none does, why names the check each of the session's leases failed.
func (s *State) LeaseFor(c Category) (l Lease, ok bool, why string) {
	var fails []string
	for _, l := range s.Leases {
		fail := s.CheckLease(l, c)
		if fail == "" {
			return l, true, fmt.Sprintf("lease %d covers %s in %s, turn %s", l.ID, c, l.Cwd, l.Turn)
		}
		if l.Category == c {
			fails = append(fails, fail)
		}
	}
	if len(fails) == 0 {
		return Lease{}, false, "no lease for " + string(c) + " in this session"
	}
	return Lease{}, false, strings.Join(fails, "; ")
}

// Decisions as the ledger records them.
const (
	DecisionDeny  = "deny"
	DecisionAsk   = "ask"
	DecisionAllow = "allow"
)

// Outcome is what the caller's evaluate function decided.
type Outcome struct {
	Decision string // allow, ask or deny; anything else is recorded as deny
	Lease    int64  // the lease an allow consumes; 0 for none
	Hold     string // when set, the step trips the breaker: the session is held, for this reason
	// Standing marks a denial that came from the session's standing — it
	// is held, or not the controller — and not from the step itself: the
	// breaker does not count it. Only the agent's own attempts count.
	Standing   bool
	Reason     string          // one line for the ledger
	Diagnostic json.RawMessage // the decision's diagnostic, as JSON

	Entry int64 // set by Decide: the ledger row
}

// decisionDetail is a decision's ledger detail.
type decisionDetail struct {
	Decision   string          `json:"decision"`
	Tool       string          `json:"tool,omitempty"`
	Step       string          `json:"step,omitempty"`
	Turn       string          `json:"turn"`
	Cwd        string          `json:"cwd,omitempty"`
	Lease      int64           `json:"lease,omitempty"`
	Reason     string          `json:"reason,omitempty"`
	Diagnostic json.RawMessage `json:"diagnostic,omitempty"`
	Shows      json.RawMessage `json:"shows,omitempty"`
}

// Decide decides one step in one write transaction: it loads the session's
// state, calls evaluate (which must be pure: it may run more than once
// when the database is busy), consumes the lease the outcome names, counts
// a denial, holds the session when the outcome says so, and appends the
// ledger row. However many steps race for one lease, exactly one consumes
// it; the others' evaluate sees it consumed.
func (db *DB) Decide(ctx context.Context, step Step, evaluate func(*State) Outcome) (Outcome, error) {
	var out Outcome
	err := db.update(ctx, func(tx *tx) error {
		st, err := tx.state(ctx, step)
		if err != nil {
			return err
		}
		out = evaluate(st)
		switch out.Decision {
		case DecisionAllow, DecisionAsk, DecisionDeny:
		default:
			out.Reason = fmt.Sprintf("unknown decision %q recorded as deny: %s", out.Decision, out.Reason)
			out.Decision = DecisionDeny
		}
		if out.Decision != DecisionAllow {
			out.Lease = 0
		}
		var lease Lease
		if out.Lease != 0 {
			found := false
			for _, l := range st.Leases {
				if l.ID == out.Lease {
					lease, found = l, true
				}
			}
			if !found {
				return fmt.Errorf("lease %d is not one of session %s's", out.Lease, st.Session.ID)
			}
			if fail := st.CheckLease(lease, lease.Category); fail != "" {
				return fmt.Errorf("lease %d cannot be consumed: %s", out.Lease, fail)
			}
		}
		if len(out.Diagnostic) > 0 && !json.Valid(out.Diagnostic) {
			return fmt.Errorf("diagnostic is not JSON")
		}
		text := Cap(step.Summary)
		detail := decisionDetail{out.Decision, step.Tool, text, st.Turn, st.Cwd, out.Lease, out.Reason, out.Diagnostic, nil}
		if len(step.Shows) <= MaxShows && json.Valid(step.Shows) {
			detail.Shows = step.Shows
		}
		summary := out.Decision + " " + text
		if out.Reason != "" {
			summary += ": " + out.Reason
		}
		if out.Entry, err = tx.appendLedger(ctx, KindDecision, st.Session.ID, summary, detail); err != nil {
			return err
		}
		if out.Lease != 0 {
			ok, err := tx.consume(ctx, out.Lease, out.Entry)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("lease %d was consumed by another step", out.Lease)
			}
			if _, err := tx.appendLedger(ctx, KindLeaseConsumed, st.Session.ID,
				fmt.Sprintf("lease %d consumed: %s by %s", lease.ID, lease.Category, step.Summary),
				map[string]any{"lease": lease.ID, "category": lease.Category, "decision": out.Entry}); err != nil {
				return err
			}
		}
		if step.Spawn && out.Decision == DecisionAllow {
			root, err := tx.root(ctx, st.Session)
			if err != nil {
				return err
			}
			if err := tx.spawned(ctx, root); err != nil {
				return err
			}
		}
		if out.Decision == DecisionDeny && !out.Standing {
			if _, err := tx.ExecContext(ctx, "INSERT INTO breaker (session, kind, created_at) VALUES (?, 'denial', ?)", st.Session.ID, nanos(tx.now)); err != nil {
				return err
			}
		}
		if out.Hold != "" && !st.Session.Held {
			if err := tx.hold(ctx, st.Session.ID, out.Hold); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Outcome{}, fmt.Errorf("decide step in session %s: %w", step.Session.ID, err)
	}
	return out, nil
}

// leasesInState is how many of a session's most recent leases a step's
// state carries, to find a live one or say why none covers the step.
const leasesInState = 16

func (tx *tx) state(ctx context.Context, step Step) (*State, error) {
	s, err := tx.ensureSession(ctx, step.Session)
	if err != nil {
		return nil, err
	}
	st := &State{Now: tx.now, Session: s, Turn: step.Turn, Cwd: filepath.Clean(step.Cwd)}
	if st.Turn == "" {
		st.Turn = s.Turn
	}
	if st.Live, err = tx.live(ctx, s); err != nil {
		return nil, err
	}
	if st.Parents, err = tx.parents(ctx, s); err != nil {
		return nil, err
	}
	if step.Spawn {
		root := s.ID
		if len(st.Parents) > 0 {
			root = st.Parents[len(st.Parents)-1]
		}
		if st.Running, err = tx.running(ctx, root); err != nil {
			return nil, err
		}
	}
	window := step.BreakerWindow
	if window <= 0 {
		window = DefaultBreakerWindow
	}
	since := max(nanos(tx.now.Add(-window)), s.releasedAt)
	st.Breaker.Since = instant(since)
	for _, k := range []struct {
		kind string
		into *[]time.Time
	}{{"denial", &st.Breaker.Denials}, {"decline", &st.Breaker.Declined}} {
		if *k.into, err = tx.breakerEvents(ctx, s.ID, k.kind, since); err != nil {
			return nil, err
		}
	}
	if st.OwnerWords, err = tx.ownerWords(ctx, s.ID); err != nil {
		return nil, err
	}
	if st.Epoch, err = tx.currentEpoch(ctx); err != nil {
		return nil, err
	}
	if st.Leases, err = tx.leases(ctx, "WHERE session = ? ORDER BY id DESC LIMIT ?", s.ID, leasesInState); err != nil {
		return nil, err
	}
	if st.Note, err = tx.setting(ctx, settingNote); err != nil {
		return nil, err
	}
	return st, nil
}

func (tx *tx) breakerEvents(ctx context.Context, session, kind string, since int64) ([]time.Time, error) {
	rows, err := tx.QueryContext(ctx,
		"SELECT created_at FROM breaker WHERE session = ? AND kind = ? AND created_at >= ? ORDER BY created_at DESC LIMIT ?",
		session, kind, since, breakerEvents)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []time.Time
	for rows.Next() {
		var at int64
		if err := rows.Scan(&at); err != nil {
			return nil, err
		}
		out = append(out, instant(at))
	}
	slices.Reverse(out)
	return out, rows.Err()
}
