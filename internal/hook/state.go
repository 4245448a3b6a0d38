package hook

import (
	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
)

// StateFor is what the decision is told about the wall for the step s:
// State, made partial where the step may run in a client's sandbox that
// the whole wall cannot nest in (the client's registry line says which
// clients have one; the step's Sandbox, what the client recorded).
func (w Walls) StateFor(s client.Step) policy.Wall {
	st := w.State()
	if c, ok := client.Of(s.Agent); ok && c.OwnSandbox && st.On && s.Kind == client.KindShell && s.Sandbox.Confines() {
		st.Partial = true
		st.Why = s.Sandbox.Words()
	}
	return st
}
