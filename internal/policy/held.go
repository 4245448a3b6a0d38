package policy

import (
	"fmt"
	"time"
)

// held says why a session may take no non-read step, or "".
func held(s *Session, pol *Policy, now time.Time) string {
	switch {
	case s.Held:
		if s.HeldWhy != "" {
			return "the session is held: " + s.HeldWhy
		}
		return "the session is held"
	case pol.Controller == ControllerLatest && !s.Current:
		return "the controller policy is latest and this session does not hold the newest epoch"
	}
	return pol.Breaker.trips(s, now)
}

// trips says why the breaker holds the session, or "". A zero threshold or
// window is the default's.
func (b Breaker) trips(s *Session, now time.Time) string {
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
		return fmt.Sprintf("the circuit breaker tripped: %d steps denied within %s", n, b.Window)
	}
	if n := inWindow(s.Declined, now, b.Window); n >= b.Declined {
		return fmt.Sprintf("the circuit breaker tripped: %d cards declined within %s", n, b.Window)
	}
	return ""
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
