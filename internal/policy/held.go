package policy

import (
	"time"
)

// hold is why a session may take no non-read step: its reason is
// ReasonNone when nothing holds it.
type hold struct {
	reason Reason
	why    string
	trip   *Trip // the breaker's trip, with ReasonBreaker
}

// held says why a session may take no non-read step.
func held(s *Session, pol *Policy, now time.Time) hold {
	switch {
	case s.Held:
		if s.HeldWhy != "" {
			return hold{reason: ReasonHeld, why: "the session is held: " + s.HeldWhy}
		}
		return hold{reason: ReasonHeld, why: "the session is held"}
	case pol.Controller == ControllerLatest && !s.Current:
		return hold{reason: ReasonController, why: "the controller policy is latest and this session does not hold the newest epoch"}
	}
	if t := pol.Breaker.trips(s, now); t != nil {
		return hold{reason: ReasonBreaker, why: t.String(), trip: t}
	}
	return hold{}
}

// trips returns the breaker's trip when it holds the session, or nil. A
// zero threshold or window is the default's.
func (b Breaker) trips(s *Session, now time.Time) *Trip {
	if b.Denials <= 0 {
		b.Denials = DefaultBreaker.Denials
	}
	if b.Declined <= 0 {
		b.Declined = DefaultBreaker.Declined
	}
	if b.Window <= 0 {
		b.Window = DefaultBreaker.Window
	}
	if n := inWindow(s.Denials, now, b.Window); n >= b.Denials {
		return &Trip{Count: n, Window: b.Window}
	}
	if n := inWindow(s.Declined, now, b.Window); n >= b.Declined {
		return &Trip{Declined: true, Count: n, Window: b.Window}
	}
	return nil
}

// inWindow counts the times within window before now. Without a clock
// (now is zero) every time counts.
func inWindow(ts []time.Time, now time.Time, window time.Duration) int {
	n := 0
	for _, t := range ts {
		if now.IsZero() || !t.Before(now.Add(-window)) && !t.After(now) {
			n++
		}
	}
	return n
}
