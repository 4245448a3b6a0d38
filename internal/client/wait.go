package client

import (
	"encoding/json"
	"time"
)

// Waits is how long agent's client waits for its hook on event, as the
// definitions sayso pinned say: the shortest of them. With none pinned, or
// pins that cannot be read, it is HookTimeout, the shortest wait sayso
// ever wrote: a longer guess would let Codex or Gemini time the hook out,
// and run the step, before sayso answers.
func Waits(store PinStore, agent, event string) time.Duration {
	fallback := time.Duration(HookTimeout) * time.Second
	if store == nil {
		return fallback
	}
	pins, err := store.Load()
	if err != nil {
		return fallback
	}
	var least time.Duration
	for _, p := range pins {
		if p.Kind != PinDefinition || p.Agent != agent || p.Event != event {
			continue
		}
		d, ok := p.timeout()
		if !ok {
			return fallback
		}
		if least == 0 || d < least {
			least = d
		}
	}
	if least == 0 {
		return fallback
	}
	return least
}

// timeout is the timeout a definition pin gives its handler: seconds,
// milliseconds for a client that counts them.
func (p Pin) timeout() (time.Duration, bool) {
	var g struct {
		Hooks []struct {
			Timeout float64 `json:"timeout"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(p.Entry, &g); err != nil || len(g.Hooks) != 1 || g.Hooks[0].Timeout <= 0 {
		return 0, false
	}
	unit := time.Second
	if c, _ := Of(p.Agent); c.Milliseconds {
		unit = time.Millisecond
	}
	return time.Duration(g.Hooks[0].Timeout * float64(unit)), true
}
