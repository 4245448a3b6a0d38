package team

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/hubapi"
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
	Taken   bool        // an answer was taken
	Answer  card.Answer // the answer taken: Deny, AllowOnce or AlwaysAllow
	Refused []Refusal   // the answers not taken, each with why
}

// Refusal is an answer the node did not take, and why.
type Refusal struct {
	Answer hubapi.Answer
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
func (t *Taker) Take(w Waiting, answers []hubapi.Answer) Say {
	var s Say
	for _, a := range answers {
		if a.Card != w.ID {
			s.Refused = append(s.Refused, Refusal{a, fmt.Sprintf("answer %d is to card %s, not %s", a.ID, a.Card, w.ID)})
			continue
		}
		said, err := card.ParseAnswer(a.Verdict)
		if err == nil && said.Holds() {
			err = errors.New("the hub's page gives no deny-hold: it holds no session")
		}
		if err != nil {
			s.Refused = append(s.Refused, Refusal{a, fmt.Sprintf("answer %d (%q): %v", a.ID, a.Verdict, err)})
			continue
		}
		if said == card.Deny {
			// The hub may always say no for the person.
			s.Taken, s.Answer = true, card.Deny
			return s
		}
		use, err := w.verify(t.Pins, said, a.Assertion)
		if err != nil {
			s.Refused = append(s.Refused, Refusal{a, fmt.Sprintf("answer %d (%s): %v", a.ID, a.Verdict, err)})
			continue
		}
		if err := t.spend(a, use); err != nil {
			s.Refused = append(s.Refused, Refusal{a, fmt.Sprintf("answer %d (%s): %v", a.ID, a.Verdict, err)})
			continue
		}
		s.Taken, s.Answer = true, said
		return s
	}
	return s
}

// Confirm takes a, the person's second confirmation of a yes to w, over
// the node's challenge for it: signed by a passkey the node pinned for
// w's person, and taken once.
func (t *Taker) Confirm(w Waiting, challenge []byte, a hubapi.Answer) error {
	if a.Card != w.ID || a.Verdict != passkey.VerdictConfirm {
		return fmt.Errorf("answer %d is no confirmation of card %s", a.ID, w.ID)
	}
	if err := w.named(); err != nil {
		return err
	}
	use, err := t.Pins.VerifyConfirm(w.Person, w.Body, challenge, a.Assertion)
	if err != nil {
		return err
	}
	return t.spend(a, use)
}

// spend takes a's signature once, however the hub spells it again, and
// only when its passkey's counter grew.
func (t *Taker) spend(a hubapi.Answer, use passkey.Use) error {
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
		return errors.New("its signature was already taken once")
	}
	return t.counters().Advance(use)
}

// verify checks that a is the person's own yes to exactly w. The passkey
// signs the card's bytes, not its ID: two cards of equal bytes would
// share one yes, on one node or across the person's nodes. So the bytes
// must name the card ({"card": ID, ...}), and the ID (random, the node's)
// makes them the card's own.
func (w Waiting) verify(pins passkey.Pins, a card.Answer, assertion []byte) (passkey.Use, error) {
	if err := w.named(); err != nil {
		return passkey.Use{}, err
	}
	return pins.Verify(w.Person, w.Body, a, assertion)
}

// named checks that w's bytes name w's card.
func (w Waiting) named() error {
	var named struct {
		Card string `json:"card"`
	}
	if err := json.Unmarshal(w.Body, &named); err != nil || w.ID == "" || named.Card != w.ID {
		return fmt.Errorf("%w: the card's bytes do not name card %q, so a yes to them is no yes to it alone", passkey.ErrNotThePerson, w.ID)
	}
	return nil
}

func (t *Taker) counters() Counters {
	if t.Counters != nil {
		return t.Counters
	}
	return &t.mem
}
