package team

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/passkey"
)

// Waiting is a card waiting on this node, as this node made it: the bytes
// the person's passkey must sign, whatever the hub shows or stores.
type Waiting struct {
	ID     string
	Person string // the person's name, as their passkeys were pinned
	Body   []byte // a JSON object whose "card" is ID
}

// Say is what the node takes from the hub's answers to a card.
type Say struct {
	Verdict string    // passkey.VerdictAllow, VerdictAlways or VerdictDeny; "" for none taken
	Refused []Refusal // the answers not taken, each with why
}

// Refusal is an answer the node did not take, and why.
type Refusal struct {
	Answer hub.Answer
	Why    string
}

// Taker takes answers from the hub for this node's cards: a deny as it
// comes, a yes only with the person's own passkey over exactly that card
// and verdict, each assertion once however the hub spells it.
type Taker struct {
	Pins passkey.Pins
	// Counters keeps the highest signature counter seen of each
	// passkey; nil keeps them for as long as the Taker lives.
	Counters Counters

	mu   sync.Mutex
	used map[[32]byte]bool
	mem  memCounters
}

// Take reads the hub's answers to w, oldest first, and returns the first
// the node can take.
func (t *Taker) Take(w Waiting, answers []hub.Answer) Say {
	var s Say
	for _, a := range answers {
		if a.Card != w.ID {
			s.Refused = append(s.Refused, Refusal{a, fmt.Sprintf("answer %d is to card %s, not %s", a.ID, a.Card, w.ID)})
			continue
		}
		if a.Verdict == passkey.VerdictDeny {
			// The hub may always say no for the person.
			s.Verdict = passkey.VerdictDeny
			return s
		}
		use, err := w.verify(t.Pins, a)
		if err != nil {
			s.Refused = append(s.Refused, Refusal{a, fmt.Sprintf("answer %d (%s): %v", a.ID, a.Verdict, err)})
			continue
		}
		sum := passkey.Signed(a.Assertion)
		t.mu.Lock()
		seen := t.used[sum]
		if !seen {
			if t.used == nil {
				t.used = map[[32]byte]bool{}
			}
			t.used[sum] = true
		}
		t.mu.Unlock()
		if seen {
			s.Refused = append(s.Refused, Refusal{a, fmt.Sprintf("answer %d (%s): its signature was already taken once", a.ID, a.Verdict)})
			continue
		}
		if err := t.counters().Advance(use); err != nil {
			s.Refused = append(s.Refused, Refusal{a, fmt.Sprintf("answer %d (%s): %v", a.ID, a.Verdict, err)})
			continue
		}
		s.Verdict = a.Verdict
		return s
	}
	return s
}

// verify checks that a is the person's own yes to exactly w. The passkey
// signs the card's bytes, not its ID: two cards of equal bytes would
// share one yes, on one node or across the person's nodes. So the bytes
// must name the card ({"card": ID, ...}), and the ID (random, the node's)
// makes them the card's own.
func (w Waiting) verify(pins passkey.Pins, a hub.Answer) (passkey.Use, error) {
	var named struct {
		Card string `json:"card"`
	}
	if err := json.Unmarshal(w.Body, &named); err != nil || w.ID == "" || named.Card != w.ID {
		return passkey.Use{}, fmt.Errorf("%w: the card's bytes do not name card %q, so a yes to them is no yes to it alone", passkey.ErrNotThePerson, w.ID)
	}
	return pins.Verify(w.Person, w.Body, a.Verdict, a.Assertion)
}

func (t *Taker) counters() Counters {
	if t.Counters != nil {
		return t.Counters
	}
	return &t.mem
}
