package gateway

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// Work that arrives while the shutdown waits is refused, never counted
// after the wait began; what was admitted is waited for.
func TestInflightRefusesAfterClose(t *testing.T) {
	var f inflight
	if !f.enter() {
		t.Fatal("enter before close was refused")
	}
	idle := f.close()
	if f.enter() {
		t.Fatal("enter after close was admitted")
	}
	if wait(idle, 10*time.Millisecond) {
		t.Fatal("close reported idle with work under way")
	}
	f.exit()
	if !wait(idle, time.Second) {
		t.Fatal("close never reported idle after the last exit")
	}
	if c := f.close(); !wait(c, 0) {
		t.Fatal("a second close is not idle")
	}
}

// Under -race: enters and exits from many goroutines racing one close.
func TestInflightRace(t *testing.T) {
	for range 200 {
		var f inflight
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for range 8 {
					if f.enter() {
						f.exit()
					}
				}
			})
		}
		if !wait(f.close(), testenv.Hang) {
			t.Fatal("close waited past the work")
		}
		wg.Wait()
		if f.enter() {
			t.Fatal("enter admitted after close")
		}
	}
}

// A step that would wait for the person once the cards stop is denied
// with the reason, and posts no card.
func TestCardsRefuseWhileStopping(t *testing.T) {
	c := &Cards{Timeout: time.Minute}
	if !wait(c.stop(), time.Second) {
		t.Fatal("no card waits, yet stop did not end")
	}
	s := client.Step{Agent: "claude", Event: "PreToolUse", Tool: "Bash", Command: "git push origin main"}
	dec, diag, err := c.Wait(context.Background(), s, store.Step{Summary: s.Command}, policy.Ask, policy.Diagnostic{})
	if err != nil || dec != policy.Deny || len(diag.Reasons) == 0 || diag.Reasons[0] != ReasonStopping {
		t.Fatalf("Wait after stop = %v, %q, %v; want deny with %q", dec, diag.Reasons, err, ReasonStopping)
	}
	if n := len(c.List()); n != 0 {
		t.Errorf("%d cards posted while stopping", n)
	}
}
