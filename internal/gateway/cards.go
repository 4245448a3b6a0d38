package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/step"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/web"
)

// DefaultCardTimeout is how long a card waits for the person when nothing
// says how long its caller waits: a host's step through the API.
const DefaultCardTimeout = 20 * time.Second

// Cards holds the questions waiting for the person. A card lives exactly
// as long as its hook waits: until shortly before the hook's client gives
// up on it (the timeout sayso install gave that client for the event), or
// until the hook's connection closes (the client gave up on it or killed
// it). A card is answered at most once, and an answer counts only when the
// waiting hook takes it: the hook itself keeps what the answer keeps, so
// an answer to a card nobody waits on is refused and keeps nothing. A card
// that stops waiting unanswered leaves a ledger row saying why: sayso's
// own timeout, the agent that stopped waiting, or the gateway stopping.
type Cards struct {
	DB *store.DB
	// Timeout caps how long a card waits; 0 is as long as its client
	// waits for the hook (DefaultCardTimeout for a host's step).
	Timeout time.Duration
	// Waits is how long agent's client waits for its hook on event (the
	// timeout sayso install wrote); nil is client.HookTimeout.
	Waits func(agent, event string) time.Duration
	// Page is the person's page, named to the agent when a card goes
	// unanswered.
	Page   string
	Now    func() time.Time // nil is the wall clock
	Notify func(card.Card)  // told of each new card, when set

	waiting inflight // the Waits under way, and the cards handed over

	mu       sync.Mutex
	stopped  chan struct{} // closed by stop; made on first use
	byID     map[string]*pending
	order    []string
	watchers map[chan struct{}]struct{}
}

type pending struct {
	card  card.Card
	key   string        // the step, across its client's events
	reply chan handoff  // unbuffered: the waiting hook takes the answer
	gone  chan struct{} // closed once the hook stops waiting

	// handed: the card waits, without a hook, for a PermissionRequest to
	// take it on; grace ends it when none does (guarded by Cards.mu).
	handed bool
	grace  *time.Timer
}

// handoff is the person's answer on its way to the waiting hook, and the
// hook's word on whether it kept it.
type handoff struct {
	answer  card.Answer
	message string     // the person's words to the agent with a deny
	kept    chan error // buffered
}

// errGone refuses an answer the hook was no longer there to take.
var errGone = fmt.Errorf("the agent no longer waits for this card: %w", card.ErrExpired)

// errHookLeft ends a hook's request when its connection closes.
var errHookLeft = errors.New("the hook's connection closed")

// arrivedKey holds, in a hook request's context, when the request came:
// the client's clock for the hook started just before.
type arrivedKey struct{}

func (c *Cards) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return now()
}

// life is how long a card for s may wait: until CardMargin before the
// client gives up on the hook (its wait counted from the request's
// arrival), no longer than the person's Timeout nor the context's
// deadline.
func (c *Cards) life(ctx context.Context, s client.Step) time.Duration {
	life := c.Timeout
	if at, ok := ctx.Value(arrivedKey{}).(time.Time); ok {
		wait := time.Duration(client.HookTimeout) * time.Second
		if c.Waits != nil {
			wait = c.Waits(s.Agent, s.Event)
		}
		if client := time.Until(at.Add(wait - client.CardMargin)); life <= 0 || client < life {
			life = client
		}
	} else if life <= 0 {
		life = DefaultCardTimeout
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl)-time.Second < life {
		life = time.Until(dl) - time.Second
	}
	return life
}

// Handover is how long a card whose hook answered "ask" to a client with
// its own dialog waits for that client's PermissionRequest to take it on.
// Tests shorten it.
var Handover = 10 * time.Second

// errNotTaken ends a handed-over card no PermissionRequest took on.
var errNotTaken = errors.New("no PermissionRequest took the card on")

// Wait posts a card for the step and waits for the person's answer. One
// step has one card: a PermissionRequest joins the card its PreToolUse
// handed over. A step whose client shows its own dialog (an attended
// attended terminal) does not wait in its PreToolUse, which would hold
// that dialog back: it answers at once, the card waits for the
// PermissionRequest the client fires while its dialog shows, and the
// person answers in either place.
func (c *Cards) Wait(ctx context.Context, s client.Step, step store.Step, dec policy.Decision, diag policy.Diagnostic) (policy.Decision, policy.Diagnostic, error) {
	timeout := c.life(ctx, s)
	if timeout <= 0 {
		return dec, diag, nil
	}
	if !c.waiting.enter() {
		diag.Reasons = append([]string{ReasonStopping}, diag.Reasons...)
		return policy.Deny, diag, nil
	}
	key := stepKey(s, step)
	if s.Event == "PermissionRequest" {
		if p := c.join(key, timeout); p != nil {
			defer c.waiting.exit()
			return c.await(ctx, p, timeout, dec, diag)
		}
	}
	p := c.post(s, step, diag, timeout)
	p.key = key
	posted(ctx, p.card.ID)
	if s.Dialog && s.Event == "PreToolUse" {
		c.handOver(p) // the card, not this Wait, now counts as under way
		where := "in this terminal"
		if c.Page != "" {
			where += " or on " + c.Page
		}
		diag.Reasons = append(diag.Reasons, "answer "+where)
		return dec, diag, nil
	}
	defer c.waiting.exit()
	return c.await(ctx, p, timeout, dec, diag)
}

// ReasonStopping is why a step that would wait for the person while sayso
// serve stops is denied: no card can be shown, so none is posted.
const ReasonStopping = "deny: sayso serve is stopping, so this step could not be put to the person; run it again once sayso serve runs"

// stepKey names a step across its client's events.
func stepKey(s client.Step, step store.Step) string {
	return s.Agent + "\x00" + step.Session.ID + "\x00" + step.Cwd + "\x00" + s.Tool + "\x00" + step.Summary
}

// handOver leaves p waiting, without a hook, for Handover: a
// PermissionRequest of the same step takes it on, or it ends. An answer
// given meanwhile waits for the hook that takes it, or is refused. The
// Wait that posted p has entered c.waiting; p keeps that count until it
// is taken on or ends.
func (c *Cards) handOver(p *pending) {
	c.mu.Lock()
	select {
	case <-c.stopChan():
		c.mu.Unlock()
		c.leave(p, errStopped)
		c.waiting.exit()
		return
	default:
	}
	p.handed = true
	p.grace = time.AfterFunc(Handover, func() {
		c.mu.Lock()
		taken := !p.handed
		p.handed = false
		c.mu.Unlock()
		if !taken {
			c.leave(p, errNotTaken)
			c.waiting.exit()
		}
	})
	c.mu.Unlock()
}

// join takes on the oldest card handed over for key, which now lives as
// long as the joining hook waits; nil when there is none.
func (c *Cards) join(key string, timeout time.Duration) *pending {
	c.mu.Lock()
	var p *pending
	for _, id := range c.order {
		if q := c.byID[id]; q.handed && q.key == key {
			p = q
			break
		}
	}
	if p == nil {
		c.mu.Unlock()
		return nil
	}
	p.handed = false
	p.grace.Stop()
	p.card.Expires = c.now().Add(timeout)
	c.mu.Unlock()
	c.waiting.exit() // the joining Wait counts itself
	c.changed()
	return p
}

// await waits on p for the person's answer, the card's timeout, or the
// hook going away.
func (c *Cards) await(ctx context.Context, p *pending, timeout time.Duration, dec policy.Decision, diag policy.Diagnostic) (policy.Decision, policy.Diagnostic, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case h := <-p.reply:
		if ctx.Err() != nil {
			// The hook's connection closed as the answer came: nobody
			// takes it.
			h.kept <- errGone
			c.leave(p, context.Cause(ctx))
			return dec, diag, nil
		}
		c.mu.Lock()
		card := p.card
		c.mu.Unlock()
		err := c.keep(context.WithoutCancel(ctx), card, h.answer)
		h.kept <- err
		c.remove(p)
		if err != nil {
			return policy.Deny, diag, fmt.Errorf("keep the person's answer: %w", err)
		}
		return settle(card, h.answer, h.message, diag)
	case <-t.C:
		why := c.leave(p, context.DeadlineExceeded)
		diag.Reasons = append(diag.Reasons, why)
		return dec, diag, nil
	case <-c.stopping():
		why := c.leave(p, errStopped)
		diag.Reasons = append(diag.Reasons, why)
		return dec, diag, nil
	case <-ctx.Done():
		c.leave(p, context.Cause(ctx))
		return dec, diag, nil
	}
}

// post makes the card and tells the watchers.
func (c *Cards) post(s client.Step, step store.Step, diag policy.Diagnostic, timeout time.Duration) *pending {
	created := c.now()
	card := card.Card{
		ID:      newID(),
		Session: step.Session.ID,
		Agent:   s.Agent,
		Tool:    s.Tool,
		Step:    step.Summary,
		Cwd:     step.Cwd,
		Mode:    diag.Mode,
		Reason:  firstReason(&diag),
		Created: created,
		// The page renders the card's headline and details from the
		// diagnostic's fields.
		Diagnostic: &diag,
		Described:  described(s.Input),
		Words:      c.turnWords(step),
		Expires:    created.Add(timeout),
	}
	for _, cl := range diag.Assessment.Classes.Classes() {
		card.Classes = append(card.Classes, cl.String())
	}
	card.Offer, card.NoOffer = offer(s, diag)
	card.Shows = shownOf(step.Shows)
	p := &pending{card: card, reply: make(chan handoff), gone: make(chan struct{})}
	c.mu.Lock()
	if c.byID == nil {
		c.byID = map[string]*pending{}
	}
	c.byID[card.ID] = p
	c.order = append(c.order, card.ID)
	c.mu.Unlock()
	c.changed()
	if c.Notify != nil {
		c.Notify(card)
	}
	return p
}

// shownOf reads what a step does from the JSON its ledger row keeps; nil
// when there is nothing.
func shownOf(b []byte) *step.Shown {
	var sh step.Shown
	if len(b) == 0 || json.Unmarshal(b, &sh) != nil || sh.Kind == step.KindNone {
		return nil
	}
	return &sh
}

// turnWords are the person's own words that opened the step's turn (or
// the session's last, when the turn is unknown), cut to a few lines. A
// task's copy of its parent's words is never shown.
func (c *Cards) turnWords(step store.Step) string {
	if c.DB == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ms, err := c.DB.OwnerWords(ctx, step.Session.ID)
	if err != nil {
		slog.Warn("read the words of the step's turn", "session", step.Session.ID, "err", err)
		return ""
	}
	words := ""
	for _, m := range ms {
		if m.FromParent {
			continue
		}
		if step.Turn == "" || m.Turn == step.Turn {
			words = m.Text
		}
	}
	if r := []rune(words); len(r) > 400 {
		words = string(r[:400]) + "…"
	}
	return words
}

// described is the agent's own description of a step, when its tool
// input carries one (a shell tool's "description"); the page shows it
// labelled as the agent's.
func described(input json.RawMessage) string {
	var v struct {
		Description string `json:"description"`
	}
	if json.Unmarshal(input, &v) != nil {
		return ""
	}
	return v.Description
}

// offer is the one rule a card may keep, or none and why.
func offer(s client.Step, diag policy.Diagnostic) ([]rule.Rule, string) {
	if s.Kind != client.KindShell {
		return nil, "rules are kept only for shell steps"
	}
	if diag.NoRule != "" {
		return nil, diag.NoRule
	}
	rs, why := rule.Offer(rule.Step{Tool: s.Tool, Command: s.Command, Assessment: diag.Assessment, Cwd: s.Project()}, diag.Unit)
	if len(rs) == 0 && why == "" {
		why = "no rule fits this step"
	}
	return rs, why
}

// settle turns the person's answer into the step's decision; Answer has
// already kept what it keeps. A deny's message comes first in the
// reasons, so that the agent reads it in its client's own deny reason.
func settle(c card.Card, a card.Answer, message string, diag policy.Diagnostic) (policy.Decision, policy.Diagnostic, error) {
	says := ""
	if message != "" {
		says = ", and says: " + message
	}
	switch {
	case a == card.AllowOnce:
		diag.Reasons = append([]string{"allow: the person allowed this step once"}, diag.Reasons...)
		diag.Answered = true
		return policy.Allow, diag, nil
	case a == card.AlwaysAllow:
		diag.Reasons = append([]string{"allow: the person kept the rule " + c.OfferText()}, diag.Reasons...)
		diag.Answered = true
		return policy.Allow, diag, nil
	case a.Holds():
		diag.Reasons = append([]string{"deny: the person denied this step and held the session" + says}, diag.Reasons...)
		return policy.Deny, diag, nil
	}
	diag.Reasons = append([]string{"deny: the person denied this step" + says}, diag.Reasons...)
	return policy.Deny, diag, nil
}

// Answer hands the person's answer to the hook waiting on the card, once;
// the hook keeps what it keeps (the rule, the hold, the ledger row) and
// then replies. When the hook no longer waits, the answer is refused and
// nothing is kept.
func (c *Cards) Answer(ctx context.Context, id string, a card.Answer) (card.Card, error) {
	return c.AnswerSaying(ctx, id, a, "")
}

// AnswerSaying is Answer with the person's message to the agent, which a
// deny hands on as its first reason; an allow hands on none.
func (c *Cards) AnswerSaying(ctx context.Context, id string, a card.Answer, message string) (card.Card, error) {
	message = a.Message(message)
	c.mu.Lock()
	p, ok := c.byID[id]
	if !ok {
		c.mu.Unlock()
		return card.Card{}, fmt.Errorf("card %s: %w", id, web.ErrNotFound)
	}
	if err := p.card.Check(a, c.now()); err != nil {
		c.mu.Unlock()
		return p.card, fmt.Errorf("card %s: %w", id, err)
	}
	p.card.Answered, p.card.Answer = true, a
	card := p.card
	c.mu.Unlock()

	h := handoff{answer: a, message: message, kept: make(chan error, 1)}
	select {
	case p.reply <- h:
	case <-p.gone:
		return card, fmt.Errorf("card %s: %w", id, errGone)
	}
	if err := <-h.kept; err != nil {
		return card, fmt.Errorf("card %s: %w", id, err)
	}
	c.changed()
	return card, nil
}

// keep writes what an answer keeps to the store, in one transaction.
func (c *Cards) keep(ctx context.Context, k card.Card, a card.Answer) error {
	if c.DB == nil {
		return errors.New("no store")
	}
	kept := store.Answered{Session: k.Session, Step: k.Step, Answer: a}
	for _, r := range k.Offer {
		kept.Rules = append(kept.Rules, store.Rule{Tool: r.Tool, Unit: r.Unit.String(), Pattern: r.Pattern, Cwd: r.Cwd})
	}
	return c.DB.Answer(ctx, kept)
}

// leave removes a card whose hook stops waiting unanswered, refuses any
// answer on its way, and records the expiry with its cause: what ended
// the wait (context.DeadlineExceeded for sayso's own timeout, errHookLeft,
// or the gateway's cancellation). It returns the cause in words.
func (c *Cards) leave(p *pending, ended error) string {
	c.remove(p)
	m := store.Missed{Card: p.card.ID, Session: p.card.Session, Agent: p.card.Agent, Tool: p.card.Tool,
		Step: p.card.Step, Cwd: p.card.Cwd, Posted: p.card.Created, Deadline: p.card.Expires}
	switch {
	case errors.Is(ended, context.DeadlineExceeded):
		m.Cause = store.MissedTimeout
		m.Why = "the person did not answer within " + p.card.Expires.Sub(p.card.Created).Round(time.Second).String()
		if c.Page != "" {
			m.Why += " on " + c.Page
		}
		m.Why += "; the card is listed as missed"
	case errors.Is(ended, errHookLeft):
		m.Cause = store.MissedLeft
		m.Why = "the agent stopped waiting: its client ended the hook (an answer in the terminal, an interrupted turn, an ended session)"
	case errors.Is(ended, errNotTaken):
		m.Cause = store.MissedLeft
		m.Why = "the agent stopped waiting: its client showed no dialog for the step (the client's permission mode, or the turn ended)"
	default: // errStopped, or the gateway's cancellation
		m.Cause = store.MissedStopped
		m.Why = "sayso serve stopped while the card waited"
	}
	if c.DB != nil {
		if err := c.DB.RecordCardExpired(context.Background(), m); err != nil {
			slog.Error("record an expired card", "card", p.card.ID, "err", err)
		}
	}
	return m.Why
}

// remove takes a card off the list once its hook stops waiting: an
// answer still on its way is refused.
func (c *Cards) remove(p *pending) {
	c.mu.Lock()
	select {
	case <-p.gone:
		c.mu.Unlock()
		return
	default:
		close(p.gone)
	}
	delete(c.byID, p.card.ID)
	for i, id := range c.order {
		if id == p.card.ID {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	c.mu.Unlock()
	c.changed()
}

// errStopped ends the cards still waiting when sayso serve stops.
var errStopped = errors.New("sayso serve stopped")

// stopChan is closed once stop has begun; c.mu is held.
func (c *Cards) stopChan() chan struct{} {
	if c.stopped == nil {
		c.stopped = make(chan struct{})
	}
	return c.stopped
}

func (c *Cards) stopping() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopChan()
}

// stop refuses the steps that come to wait from now on and ends the cards
// still waiting, each recording that sayso serve stopped: the hook that
// waited on one is told so, and its decision is kept while the store is
// still open. It returns a channel closed once every card has ended.
func (c *Cards) stop() <-chan struct{} {
	idle := c.waiting.close()
	c.mu.Lock()
	select {
	case <-c.stopChan():
		c.mu.Unlock()
		return idle
	default:
		close(c.stopped)
	}
	var handed []*pending
	for _, p := range c.byID {
		if p.handed && p.grace.Stop() {
			p.handed = false
			handed = append(handed, p)
		}
	}
	c.mu.Unlock()
	for _, p := range handed {
		c.leave(p, errStopped)
		c.waiting.exit()
	}
	return idle
}

// List returns the cards waiting, oldest first.
func (c *Cards) List() []card.Card {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]card.Card, 0, len(c.order))
	for _, id := range c.order {
		if p := c.byID[id]; !p.card.Answered {
			out = append(out, p.card)
		}
	}
	return out
}

// Get returns one card.
func (c *Cards) Get(id string) (card.Card, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.byID[id]
	if !ok {
		return card.Card{}, fmt.Errorf("card %s: %w", id, web.ErrNotFound)
	}
	return p.card, nil
}

// Watch sends on the channel whenever the cards change, until ctx is done.
func (c *Cards) Watch(ctx context.Context) <-chan struct{} {
	ch := make(chan struct{}, 1)
	c.mu.Lock()
	if c.watchers == nil {
		c.watchers = map[chan struct{}]struct{}{}
	}
	c.watchers[ch] = struct{}{}
	c.mu.Unlock()
	go func() {
		<-ctx.Done()
		c.mu.Lock()
		delete(c.watchers, ch)
		c.mu.Unlock()
		close(ch)
	}()
	return ch
}

func (c *Cards) changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for ch := range c.watchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
