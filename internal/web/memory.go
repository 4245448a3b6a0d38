package web

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/rule"
)

// Memory is a Backend held in memory, for tests and for trying the page.
// Its methods are safe for concurrent use. The zero value is not usable:
// call NewMemory.
type Memory struct {
	now func() time.Time

	mu       sync.Mutex
	next     int
	cards    []card.Card
	sessions []Session
	rules    []KeptRule
	leases   []Lease
	note     string
	ledger   []Entry
	settings Settings
	watchers map[chan struct{}]bool
	logins   map[[sha256.Size]byte]*Login
}

var (
	_ Backend = (*Memory)(nil)
	_ Logins  = (*Memory)(nil)
)

// NewMemory returns an empty Memory on the clock now (nil is time.Now).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, watchers: map[chan struct{}]bool{}}
}

func (m *Memory) id(prefix string) string {
	m.next++
	return prefix + strconv.Itoa(m.next)
}

// log appends a ledger row. m.mu is held.
func (m *Memory) log(kind, session, class, decision, summary string) {
	m.ledger = append(m.ledger, Entry{ID: m.id("e"), At: m.now(), Kind: kind, Session: session, Class: class, Decision: decision, Summary: summary})
}

// changed tells every watcher the cards changed. m.mu is held.
func (m *Memory) changed() {
	for ch := range m.watchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// AddCard adds a waiting card and returns it with its id, as the gateway
// would when a step asks.
func (m *Memory) AddCard(c card.Card) card.Card {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c.ID == "" {
		c.ID = m.id("c")
	}
	if c.Created.IsZero() {
		c.Created = m.now()
	}
	c.Answered = false
	c.Offer = slices.Clone(c.Offer)
	m.cards = append(m.cards, c)
	class := ""
	if len(c.Classes) > 0 {
		class = c.Classes[0]
	}
	m.log("decision", c.Session, class, "ask", "ask: "+c.Step)
	m.ledger[len(m.ledger)-1].Shows = c.Shows
	m.changed()
	return c
}

// Drop removes a waiting card unanswered, as the gateway does when its
// hook stops waiting.
func (m *Memory) Drop(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if i := m.card(id); i >= 0 {
		m.cards = slices.Delete(m.cards, i, i+1)
		m.changed()
	}
}

// AddSession adds a session, as the store would when an agent first speaks.
func (m *Memory) AddSession(s Session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.Created.IsZero() {
		s.Created = m.now()
	}
	m.sessions = append(m.sessions, s)
}

// AddEntry appends a ledger row.
func (m *Memory) AddEntry(e Entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.ID == "" {
		e.ID = m.id("e")
	}
	if e.At.IsZero() {
		e.At = m.now()
	}
	m.ledger = append(m.ledger, e)
}

// SetSettings sets what Settings returns.
func (m *Memory) SetSettings(s Settings) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.settings = s
}

// Cards implements Backend.
func (m *Memory) Cards(ctx context.Context) ([]card.Card, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []card.Card
	for _, c := range m.cards {
		if !c.Answered {
			out = append(out, c)
		}
	}
	return out, nil
}

// Card implements Backend.
func (m *Memory) Card(ctx context.Context, id string) (card.Card, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := m.card(id)
	if i < 0 {
		return card.Card{}, fmt.Errorf("card %s: %w", id, ErrNotFound)
	}
	return m.cards[i], nil
}

func (m *Memory) card(id string) int {
	return slices.IndexFunc(m.cards, func(c card.Card) bool { return c.ID == id })
}

// Answer implements Backend: one answer per card, and "Always allow"
// keeps exactly the card's offer.
func (m *Memory) Answer(ctx context.Context, id string, a card.Answer, message string) (card.Card, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := m.card(id)
	if i < 0 {
		return card.Card{}, fmt.Errorf("answer card %s: %w", id, ErrNotFound)
	}
	c := &m.cards[i]
	if err := c.Check(a, m.now()); err != nil {
		return card.Card{}, fmt.Errorf("answer card %s: %w", id, err)
	}
	if a.Keeps() {
		for _, r := range c.Offer {
			m.keep(r)
		}
	}
	if a.Holds() {
		m.hold(c.Session, "stopped by the person on a card")
	}
	c.Answered, c.Answer, c.Message = true, a, a.Message(message)
	m.log("answer", c.Session, first(c.Classes), "", a.String()+": "+c.Step)
	m.changed()
	return *c, nil
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// keep keeps a rule unless the same one is kept. m.mu is held.
func (m *Memory) keep(r rule.Rule) {
	for _, k := range m.rules {
		if k.Tool == r.Tool && k.Unit == r.Unit && k.Pattern == r.Pattern && k.Cwd == r.Cwd {
			return
		}
	}
	r.CreatedAt = m.now()
	k := KeptRule{ID: m.id("r"), Rule: r}
	m.rules = append(m.rules, k)
	m.log("rule-kept", "", "", "", "rule kept: "+r.String()+" in "+r.Cwd)
}

// hold holds a session or task. m.mu is held.
func (m *Memory) hold(id, why string) {
	for i := range m.sessions {
		s := &m.sessions[i]
		if s.ID == id {
			s.Held, s.HeldWhy = true, why
		}
		for j := range s.Tasks {
			if s.Tasks[j].ID == id {
				s.Tasks[j].Held, s.Tasks[j].HeldWhy = true, why
			}
		}
	}
	m.log("session-held", id, "", "", "session held: "+why)
}

// WatchCards implements Backend.
func (m *Memory) WatchCards(ctx context.Context) <-chan struct{} {
	ch := make(chan struct{}, 1)
	m.mu.Lock()
	m.watchers[ch] = true
	m.mu.Unlock()
	go func() {
		<-ctx.Done()
		m.mu.Lock()
		delete(m.watchers, ch)
		close(ch)
		m.mu.Unlock()
	}()
	return ch
}

// Sessions implements Backend.
func (m *Memory) Sessions(ctx context.Context) ([]Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := slices.Clone(m.sessions)
	for i := range out {
		out[i].Tasks = slices.Clone(out[i].Tasks)
	}
	return out, nil
}

// SetMode implements Backend.
func (m *Memory) SetMode(ctx context.Context, id string, mode policy.Mode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.sessions {
		s := &m.sessions[i]
		if s.ID == id {
			m.log("mode-changed", id, "", "", fmt.Sprintf("mode %s → %s", s.Mode, mode))
			s.Mode = mode
			return nil
		}
		for j := range s.Tasks {
			if s.Tasks[j].ID == id {
				m.log("mode-changed", id, "", "", fmt.Sprintf("mode %s → %s", s.Tasks[j].Mode, mode))
				s.Tasks[j].Mode = mode
				return nil
			}
		}
	}
	return fmt.Errorf("set mode of %s: %w", id, ErrNotFound)
}

// Release implements Backend.
func (m *Memory) Release(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.sessions {
		s := &m.sessions[i]
		if s.ID == id {
			s.Held, s.HeldWhy = false, ""
			m.log("session-released", id, "", "", "session released by the person")
			return nil
		}
		for j := range s.Tasks {
			if s.Tasks[j].ID == id {
				s.Tasks[j].Held, s.Tasks[j].HeldWhy = false, ""
				m.log("session-released", id, "", "", "session released by the person")
				return nil
			}
		}
	}
	return fmt.Errorf("release session %s: %w", id, ErrNotFound)
}

// Rules implements Backend.
func (m *Memory) Rules(ctx context.Context) ([]KeptRule, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.rules), nil
}

// ForgetRule implements Backend.
func (m *Memory) ForgetRule(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.rules, func(k KeptRule) bool { return k.ID == id })
	if i < 0 {
		return fmt.Errorf("forget rule %s: %w", id, ErrNotFound)
	}
	r := m.rules[i]
	m.rules = slices.Delete(m.rules, i, i+1)
	m.log("rule-forgotten", "", "", "", "rule forgotten: "+r.Rule.String()+" in "+r.Cwd)
	return nil
}

// Leases implements Backend.
func (m *Memory) Leases(ctx context.Context) ([]Lease, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := slices.Clone(m.leases)
	now := m.now()
	for i := range out {
		if out[i].State == "live" && !now.Before(out[i].Expires) {
			out[i].State = "expired"
		}
	}
	return out, nil
}

// GrantLease implements Backend.
func (m *Memory) GrantLease(ctx context.Context, g Grant) (Lease, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Contains(LeaseCategories(), g.Category) {
		return Lease{}, fmt.Errorf("grant lease: %w category %q", ErrInvalid, g.Category)
	}
	if g.TTL <= 0 || g.TTL > MaxLeaseTTL {
		return Lease{}, fmt.Errorf("grant lease: %w ttl %v", ErrInvalid, g.TTL)
	}
	found := false
	for _, s := range m.sessions {
		found = found || s.ID == g.Session || slices.ContainsFunc(s.Tasks, func(t Task) bool { return t.ID == g.Session })
	}
	if !found {
		return Lease{}, fmt.Errorf("grant lease: session %s: %w", g.Session, ErrNotFound)
	}
	now := m.now()
	l := Lease{ID: m.id("l"), Category: g.Category, Session: g.Session, Turn: "1", Cwd: g.Cwd, Created: now, Expires: now.Add(g.TTL), State: "live"}
	m.leases = append(m.leases, l)
	m.log("lease-granted", g.Session, g.Category, "", fmt.Sprintf("lease %s granted: %s in %s", l.ID, g.Category, g.Cwd))
	return l, nil
}

// RevokeLease implements Backend.
func (m *Memory) RevokeLease(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.leases, func(l Lease) bool { return l.ID == id })
	if i < 0 || m.leases[i].State != "live" {
		return fmt.Errorf("revoke lease %s: %w", id, ErrNotFound)
	}
	m.leases[i].State = "revoked"
	m.log("lease-revoked", m.leases[i].Session, m.leases[i].Category, "", "lease "+id+" revoked by the person")
	return nil
}

// Note implements Backend.
func (m *Memory) Note(ctx context.Context) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.note, nil
}

// SetNote implements Backend.
func (m *Memory) SetNote(ctx context.Context, note string) error {
	if n := len([]rune(note)); n > MaxNote {
		return fmt.Errorf("set environment note: %w: %d characters, at most %d", ErrInvalid, n, MaxNote)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.note = note
	m.log("setting-changed", "", "", "", fmt.Sprintf("environment note set (%d characters)", len([]rune(note))))
	return nil
}

// Ledger implements Backend.
func (m *Memory) Ledger(ctx context.Context, f LedgerFilter) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	words := strings.Fields(strings.ToLower(f.Text))
	var out []Entry
	older := f.Before == ""
	for i := len(m.ledger) - 1; i >= 0; i-- {
		e := m.ledger[i]
		if !older {
			older = e.ID == f.Before
			continue
		}
		switch {
		case f.Kind != "" && e.Kind != f.Kind,
			f.Session != "" && e.Session != f.Session,
			f.Class != "" && e.Class != f.Class,
			f.Decision != "" && e.Decision != f.Decision,
			!containsAll(strings.ToLower(e.Kind+" "+e.Session+" "+e.Summary+" "+e.Decision+" "+e.Class+" "+strings.Join(e.Reasons, " ")), words):
			continue
		}
		out = append(out, e)
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
	}
	return out, nil
}

// Settings implements Backend.
func (m *Memory) Settings(ctx context.Context) (Settings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.settings, nil
}

// PageLogins returns the browser sessions kept that have not ended.
func (m *Memory) PageLogins(context.Context) ([]Login, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Login
	for _, l := range m.logins {
		if m.now().Before(l.Until) {
			out = append(out, Login{Session: l.Session, Until: l.Until, Tabs: slices.Clone(l.Tabs)})
		}
	}
	return out, nil
}

// KeepPageLogin keeps a browser session and one of its tabs.
func (m *Memory) KeepPageLogin(_ context.Context, session, tab [sha256.Size]byte, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.logins == nil {
		m.logins = map[[sha256.Size]byte]*Login{}
	}
	l := m.logins[session]
	if l == nil {
		l = &Login{Session: session, Until: until}
		m.logins[session] = l
	}
	if !slices.Contains(l.Tabs, tab) {
		l.Tabs = append(l.Tabs, tab)
	}
	return nil
}

// ForgetPageLogin forgets a browser session and its tabs.
func (m *Memory) ForgetPageLogin(_ context.Context, session [sha256.Size]byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.logins, session)
	return nil
}
