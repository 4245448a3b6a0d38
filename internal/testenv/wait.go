package testenv

import (
	"testing"
	"time"
)

// Hang is how long a test waits for a condition before it calls the wait
// a hang: long enough that no busy machine reaches it, so that only a
// thing that will never happen does.
const Hang = 3 * time.Minute

// Wait polls ok until it reports true, and fails the test when Hang
// passes first, saying what it waited for and what ok last saw. ok
// returns whether the condition holds and, when it does not, what it saw
// instead. A test waits on the thing itself, never on a sleep that
// stands for it.
func Wait(t testing.TB, what string, ok func() (bool, string)) {
	t.Helper()
	WaitUntil(t, time.Now().Add(Hang), what, ok)
}

// WaitUntil is Wait with a deadline of the caller's, for a condition the
// test itself bounds (a card's own timeout, say).
func WaitUntil(t testing.TB, deadline time.Time, what string, ok func() (bool, string)) {
	t.Helper()
	start := time.Now()
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		done, saw := ok()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s; last saw: %s", time.Since(start).Round(time.Millisecond), what, saw)
		}
		time.Sleep(pause)
	}
}
