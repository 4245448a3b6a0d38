package gateway

import (
	"context"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
)

// TestCardWait: what a running gateway tells 'sayso status' of its cards'
// wait is what Cards gives a card that arrives now, for a cap or none and
// for a client waiting more or less than the cap.
func TestCardWait(t *testing.T) {
	for _, c := range []struct {
		timeout, wait, want time.Duration
	}{
		{0, 600 * time.Second, 595 * time.Second},
		{time.Second, 600 * time.Second, time.Second},
		{2 * time.Minute, 600 * time.Second, 2 * time.Minute},
		{20 * time.Minute, 600 * time.Second, 595 * time.Second},
		{2 * time.Minute, 60 * time.Second, 55 * time.Second},
	} {
		got := Running{CardTimeout: c.timeout}.CardWait(c.wait)
		if got != c.want {
			t.Errorf("CardWait(timeout %v, client waits %v) = %v, want %v", c.timeout, c.wait, got, c.want)
		}
		cards := &Cards{Timeout: c.timeout, Waits: func(string, string) time.Duration { return c.wait }}
		ctx := context.WithValue(context.Background(), arrivedKey{}, time.Now())
		life := cards.life(ctx, client.Step{Agent: "claude", Event: "PreToolUse"})
		if d := got - life; d < 0 || d > time.Second {
			t.Errorf("timeout %v, client waits %v: a card lives %v, status would say %v", c.timeout, c.wait, life, got)
		}
	}
}
