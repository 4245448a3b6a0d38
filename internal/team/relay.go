package team

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
	"time"

	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/store"
)

// Hub is what a node asks of its hub (hubapi.Client over the network).
type Hub interface {
	Sink
	Bundle(ctx context.Context) (bundle.Signed, error)
	PostCard(ctx context.Context, id string, body []byte) error
	CloseCard(ctx context.Context, id string) error
	AskConfirm(ctx context.Context, id string, challenge []byte) error
	Answers(ctx context.Context, id string) ([]hubapi.Answer, error)
	Syncer
}

// Cards are the cards waiting on this node: the gateway's.
type Cards interface {
	List() []card.Card
	Watch(ctx context.Context) <-chan struct{}
	Answer(ctx context.Context, id string, a card.Answer) (card.Card, error)
}

// Relay is a node's side of its hub while sayso serve runs: it ships the
// outbox, posts each waiting card for the node's person and closes it
// once it stops waiting, hands the card's hook the answers it can take,
// and fetches the org's bundle on a timer. It approves nothing of its
// own: a yes reaches a card only with the person's passkey over exactly
// that card, and a bundle is taken only if newer and signed by the
// pinned org key. A hub out of reach changes nothing but that cards stay
// on the local page; everything is tried again on the next turn.
type Relay struct {
	Hub    Hub
	DB     *store.DB
	Cards  Cards
	Config string // the config folder: team.json, bundle.json
	State  State
	// Every is how often the relay turns (ship, cards, answers);
	// BundleEvery how often it asks for a newer bundle.
	Every, BundleEvery time.Duration
	Now                func() time.Time // nil is the wall clock

	taker   Taker
	posted  map[string]*relayed
	turns   atomic.Int64 // the turns finished, for whoever waits on one
	down    error        // why the hub was last out of reach; nil when it answered
	bundled time.Time
	refused [32]byte // the last bundle refused, told once
	synced  int64    // the last signature of a change read from the hub
	told    []byte   // the pinned passkeys last told to the hub
}

// relayed is a card posted at the hub: the node's own bytes of it, which
// the person's passkey must sign over, and how many refused answers to it
// the ledger already holds.
type relayed struct {
	w       Waiting
	session string
	step    string
	refused int
	// deliberate is a severe, ceiling or never step: allowed, as on the
	// local page, only with a second confirmation (deliberateSay).
	deliberate bool
	// For a deliberate card: the answers already read; the first yes
	// taken, the node's challenge for its confirmation and when the hub
	// took it; and the challenge the hub holds.
	read    map[int64]bool
	yes     Say
	confirm []byte
	asked   time.Time
	told    []byte
}

// CardBody is a card as the node posts it: what the person reads on the
// hub's page and signs over. The node keeps these very bytes; an answer
// is checked against them, never against what the hub stores.
type CardBody struct {
	Card   string `json:"card"`
	Node   int64  `json:"node"`
	Person string `json:"person"`
	Agent  string `json:"agent"`
	Tool   string `json:"tool"`
	Step   string `json:"step"`
	Cwd    string `json:"cwd"`
	Reason string `json:"reason"`
	Offer  string `json:"offer,omitempty"` // the rule "always" keeps
	// Deliberate marks a severe, ceiling or never step: a yes from the
	// hub counts only with its second confirmation, over the node's
	// challenge, as on the node's own page.
	Deliberate bool      `json:"deliberate,omitempty"`
	Created    time.Time `json:"created"`
	Expires    time.Time `json:"expires"`
	// Keys are the credential ids of the passkeys this node pinned for
	// its person: the page asks the browser for a signature by one of
	// them, since a passkey of the person's other machine is no yes here.
	Keys [][]byte `json:"keys,omitempty"`
}

func (r *Relay) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Run turns until ctx ends.
func (r *Relay) Run(ctx context.Context) {
	every := r.Every
	if every <= 0 {
		every = time.Second
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	changed := r.Cards.Watch(ctx)
	for {
		r.Turn(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-changed:
		}
	}
}

// Turn is one round of the relay's work.
func (r *Relay) Turn(ctx context.Context) {
	if r.posted == nil {
		r.posted = map[string]*relayed{}
	}
	r.taker.Pins = r.pins()
	if r.taker.Counters == nil {
		r.taker.Counters = &FileCounters{Config: r.Config}
	}
	err := r.cards(ctx)
	if err == nil {
		_, err = Ship(ctx, r.DB, r.Hub, r.State.Node, 256)
	}
	if err == nil {
		err = r.sync(ctx)
	}
	// A clock stepped back since the last fetch fetches again too.
	if since := r.now().Sub(r.bundled); err == nil && (r.bundled.IsZero() || since >= r.bundleEvery() || since < 0) {
		err = r.bundle(ctx)
	}
	r.reachable(err)
	r.turns.Add(1)
}

// Turns is how many turns the relay has finished: one that starts after
// a change of the hub's or the node's has seen it once Turns has grown by
// two.
func (r *Relay) Turns() int64 { return r.turns.Load() }

// pins are the passkeys the node pinned, read afresh each turn: a
// passkey enrolled on the node's page counts from the next turn. Team
// state that cannot be read pins none: no yes is taken.
func (r *Relay) pins() passkey.Pins {
	s, joined, err := ReadState(r.Config)
	switch {
	case !joined:
		return r.State.Pins
	case err != nil:
		slog.Error("read the pinned passkeys: no yes from the hub is taken", "err", err)
		return passkey.Pins{}
	}
	return s.Pins
}

func (r *Relay) bundleEvery() time.Duration {
	if r.BundleEvery <= 0 {
		return time.Minute
	}
	return r.BundleEvery
}

// reachable logs when the hub goes out of reach and when it comes back,
// once each.
func (r *Relay) reachable(err error) {
	switch {
	case err != nil && r.down == nil:
		slog.Warn("hub out of reach: cards stay on the local page, ledger rows wait in the outbox", "hub", r.State.Hub, "err", err)
	case err == nil && r.down != nil:
		slog.Info("hub reachable again", "hub", r.State.Hub)
	}
	r.down = err
}

// cards posts the cards new since the last turn, closes those that no
// longer wait, and hands on the answers the node can take.
func (r *Relay) cards(ctx context.Context) error {
	live := map[string]bool{}
	for _, c := range r.Cards.List() {
		live[c.ID] = true
		if r.posted[c.ID] != nil {
			continue
		}
		b := CardBody{Card: c.ID, Node: r.State.Node, Person: r.State.Person, Agent: c.Agent, Tool: c.Tool, Step: c.Step, Cwd: c.Cwd,
			Reason: c.Reason, Created: c.Created.UTC(), Expires: c.Expires.UTC()}
		if len(c.Offer) > 0 {
			b.Offer = c.OfferText()
		}
		b.Deliberate = c.Deliberate()
		for _, k := range r.taker.Pins.Keys {
			if k.Person == r.State.Person {
				b.Keys = append(b.Keys, k.CredentialID)
			}
		}
		body, err := json.Marshal(b)
		if err != nil {
			return err
		}
		if err := r.Hub.PostCard(ctx, c.ID, body); err != nil {
			return fmt.Errorf("post card %s: %w", c.ID, err)
		}
		r.posted[c.ID] = &relayed{w: Waiting{ID: c.ID, Person: r.State.Person, Body: body}, session: c.Session, step: c.Step, deliberate: b.Deliberate}
	}
	for id := range r.posted {
		if live[id] {
			continue
		}
		if err := r.Hub.CloseCard(ctx, id); err != nil {
			return fmt.Errorf("close card %s: %w", id, err)
		}
		delete(r.posted, id)
	}
	// The answers to every card, then taken oldest first: a passkey's
	// counter grows with each yes, and a yes taken after a later one of
	// the same passkey would count as its clone's.
	type answered struct {
		id    string
		p     *relayed
		as    []hubapi.Answer
		first time.Time
	}
	var all []answered
	for id, p := range r.posted {
		as, err := r.Hub.Answers(ctx, id)
		var refused *hubapi.Refused
		if errors.As(err, &refused) {
			// The hub answered, and not for this card: it stays local,
			// and the rest of the turn goes on.
			slog.Warn("the hub gives no answers to a card", "card", id, "err", err)
			continue
		}
		if err != nil {
			return fmt.Errorf("answers to card %s: %w", id, err)
		}
		if len(as) == 0 {
			continue
		}
		a := answered{id: id, p: p, as: as, first: as[0].Created}
		for _, x := range as {
			if x.Created.Before(a.first) {
				a.first = x.Created
			}
		}
		all = append(all, a)
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].first.Equal(all[j].first) {
			return all[i].first.Before(all[j].first)
		}
		return all[i].id < all[j].id
	})
	for _, x := range all {
		id, p, as := x.id, x.p, x.as
		var say Say
		var fresh []Refusal
		if p.deliberate {
			say = r.deliberateSay(ctx, id, p, as)
			fresh = say.Refused
		} else {
			say = r.taker.Take(p.w, as)
			fresh = say.Refused[min(p.refused, len(say.Refused)):]
			p.refused = max(p.refused, len(say.Refused))
		}
		for _, ref := range fresh {
			err := r.DB.RecordAnswerRefused(ctx, p.session, store.RefusedAnswer{Card: id, Answer: ref.Answer.ID, Verdict: ref.Answer.Verdict, Step: p.step,
				Why: "the hub relayed an answer this node did not take: " + ref.Why})
			if err != nil {
				slog.Error("record a refused answer", "card", id, "err", err)
			}
			slog.Warn("refused an answer the hub relayed", "card", id, "why", ref.Why)
		}
		if !say.Taken {
			continue
		}
		a := say.Answer
		// The hook takes the answer when it can (a card handed over to
		// a client's dialog waits for it): the relay does not wait.
		go func() {
			if _, err := r.Cards.Answer(context.WithoutCancel(ctx), id, a); err != nil {
				slog.Warn("an answer from the hub came too late for its card", "card", id, "err", err)
			}
		}()
	}
	return nil
}

// deliberateSay reads the hub's answers to a severe, ceiling or never
// step, each once, as the node's own page does its presses: a deny as it
// comes; the person's signed yes only as a first press, after which the
// node asks the hub's page for a second confirmation with a challenge of
// its own (random, so that no confirmation is made before it asks), and
// takes one signed over it only from card.ConfirmAfter to card.ConfirmLapse
// after the hub took the challenge, by the node's clock. A lapsed first
// yes is forgotten: the person presses again.
func (r *Relay) deliberateSay(ctx context.Context, id string, p *relayed, as []hubapi.Answer) Say {
	var s Say
	now := r.now()
	if p.yes.Taken && !p.asked.IsZero() && now.Sub(p.asked) > card.ConfirmLapse {
		p.yes, p.confirm, p.asked = Say{}, nil, time.Time{}
	}
	if p.read == nil {
		p.read = map[int64]bool{}
	}
	for _, a := range as {
		if p.read[a.ID] {
			continue
		}
		p.read[a.ID] = true
		switch a.Verdict {
		case passkey.VerdictConfirm:
			var err error
			if !p.yes.Taken || p.asked.IsZero() {
				err = errors.New("no first yes of the person's waits for a confirmation (none was taken, or it lapsed)")
			} else if err = card.Confirmable(now.Sub(p.asked)); err == nil {
				err = r.taker.Confirm(p.w, p.confirm, a)
			}
			if err != nil {
				s.Refused = append(s.Refused, Refusal{a, fmt.Sprintf("answer %d (confirm): %v", a.ID, err)})
				continue
			}
			s.Taken, s.Answer = true, p.yes.Answer
			return s
		default:
			say := r.taker.Take(p.w, []hubapi.Answer{a})
			s.Refused = append(s.Refused, say.Refused...)
			switch {
			case say.Taken && !say.Answer.Allows():
				s.Taken, s.Answer = true, say.Answer
				return s
			case say.Taken:
				// A first press: the node asks for the second.
				c := make([]byte, 32)
				rand.Read(c) // never fails: see crypto/rand
				p.yes, p.confirm, p.asked = say, c, time.Time{}
			}
		}
	}
	if !bytes.Equal(p.told, p.confirm) {
		if err := r.Hub.AskConfirm(ctx, id, p.confirm); err != nil {
			slog.Warn("ask the hub's page for a confirmation", "card", id, "err", err)
		} else {
			p.told = p.confirm
			if p.confirm != nil {
				p.asked = r.now()
			}
		}
	}
	return s
}

// bundle fetches the hub's newest bundle and takes it when it is not the
// one held: Take refuses one that is older, unsigned, expired or not the
// org key's, and the node keeps the one it holds.
func (r *Relay) bundle(ctx context.Context) error {
	s, err := r.Hub.Bundle(ctx)
	if err != nil {
		if errors.Is(err, hubapi.ErrNoBundle) {
			r.bundled = r.now()
			return nil
		}
		return fmt.Errorf("fetch the org bundle: %w", err)
	}
	r.bundled = r.now()
	if held, err := os.ReadFile(filepath.Join(r.Config, BundleFile)); err == nil {
		var h bundle.Signed
		if json.Unmarshal(held, &h) == nil && bytes.Equal(h.Body, s.Body) && bytes.Equal(h.Signature, s.Signature) {
			return nil
		}
	}
	body, err := Take(r.Config, s, r.now())
	if err != nil {
		// The hub's bundle is refused; the node keeps deciding on the
		// one it holds, or with no auto.
		if s.Sum() != r.refused {
			slog.Warn("refused the hub's org bundle", "err", err)
			r.refused = s.Sum()
		}
		return nil
	}
	slog.Info("took the org bundle", "org", body.Org, "seq", body.Seq, "expires", body.Expires)
	return nil
}
