package card

import (
	"errors"
	"fmt"
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
)

// Why an answer to a card does not count.
var (
	ErrAnswered      = errors.New("the card was already answered")
	ErrExpired       = errors.New("the card expired")
	ErrNoOffer       = errors.New("the card offers no rule")
	ErrUnknownAnswer = errors.New("unknown answer")
)

// Check says whether a may answer c at now: a card is answered once,
// only while it waits, with one of the four answers, and "Always allow"
// only when it offers a rule (it keeps exactly that offer, never one the
// answer names). Whether a deliberate step's yes is confirmed is the
// caller's to check (Deliberate, Confirmable). An error keeps nothing.
func (c Card) Check(a Answer, now time.Time) error {
	switch {
	case c.Answered:
		return ErrAnswered
	case !c.Expires.IsZero() && !now.Before(c.Expires):
		return ErrExpired
	case !a.Known():
		return fmt.Errorf("%w %d", ErrUnknownAnswer, uint8(a))
	case a == AlwaysAllow && len(c.Offer) == 0:
		return ErrNoOffer
	}
	return nil
}

// Gravest is the most severe of classes; a name this sayso does not know
// counts as opaque, and so does an empty list.
func Gravest(classes []string) risk.Class {
	g, best := risk.Opaque, -1
	for _, name := range classes {
		c, err := risk.ParseClass(name)
		if err != nil {
			c = risk.Opaque
		}
		if c.Severity() > best {
			g, best = c, c.Severity()
		}
	}
	return g
}

// Deliberate says c's step is allowed only deliberately: its gravest
// class is a severe, ceiling or never one. Such a step has no allow key
// on the page, and a yes to it counts only once confirmed.
func (c Card) Deliberate() bool {
	switch Gravest(c.Classes).Kind() {
	case risk.KindNever, risk.KindSevere, risk.KindCeiling:
		return true
	}
	return false
}

// NeedsConfirm says answer a to c counts only with a confirmation: a yes
// to a deliberate step.
func (c Card) NeedsConfirm(a Answer) bool { return a.Allows() && c.Deliberate() }

// A deliberate step's yes is confirmed by a second press: the
// confirmation counts from ConfirmAfter to ConfirmLapse after it was
// asked for, so that a request alone, a confirmation sent at once (a
// double click, a held key, a script sending both) and a lapsed one
// allow nothing.
const (
	ConfirmAfter = 500 * time.Millisecond
	ConfirmLapse = 30 * time.Second
)

// Confirmable says a confirmation given since after it was asked for
// counts: it is due and not lapsed.
func Confirmable(since time.Duration) error {
	switch {
	case since < ConfirmAfter:
		return fmt.Errorf("it came %s after it was asked for, sooner than %s", since.Round(time.Millisecond), ConfirmAfter)
	case since > ConfirmLapse:
		return fmt.Errorf("it came %s after it was asked for, later than %s", since.Round(time.Millisecond), ConfirmLapse)
	}
	return nil
}
