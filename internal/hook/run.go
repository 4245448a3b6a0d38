package hook

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// MaxInput bounds the hook JSON read from stdin: a Write of a large file
// carries its content.
const MaxInput = 16 << 20

// Timeout is how long a decision may take before the step is denied. It
// is well under the timeout install writes, so the client never times the
// hook out (which it would read as "run it"). Tests shorten it.
var Timeout = 10 * time.Second

// Run reads one hook JSON, decides its step and returns the client's
// answer. It never panics and always returns a valid answer: every failure
// is the client's deny with a short reason, and the real error in Err.
//
// A shell step that goes through is wrapped in walls: the client runs it
// inside sayso's wall, as far as the decision lets it write.
func Run(ctx context.Context, a client.Adapter, in []byte, env client.Env, decide client.Decider, walls Walls) (res client.Result) {
	event := ""
	defer func() {
		if p := recover(); p != nil {
			res = a.Fail(event, "sayso: internal error; the step is denied")
			res.Err = fmt.Errorf("panic: %v", p)
		}
	}()
	if len(in) > MaxInput {
		r := a.Fail("", "sayso: hook input too large; the step is denied")
		r.Err = fmt.Errorf("%w: %d bytes of hook input", client.ErrInput, len(in))
		return r
	}
	q, err := a.Read(in, env)
	event = q.Event
	if err != nil {
		r := a.Fail(q.Event, "sayso: cannot read the hook input ("+client.Short(err.Error(), 160)+"); the step is denied")
		r.Input, r.Err = q, err
		return r
	}
	client.Attest(env.Witness, q.Events)
	for _, e := range q.Events {
		if e.Kind == client.EventSessionEnd {
			// What the session's steps left running ends with it.
			walls.EndSession(e.Agent, e.Session)
		}
	}
	if q.Step == nil {
		return a.Ack(q)
	}
	if decide == nil {
		r := a.Fail(q.Event, "sayso: no decider; the step is denied")
		r.Input, r.Err = q, errors.New("no decider")
		return r
	}
	if inner, ok := walls.Unwrap(*q.Step); ok {
		// The client hands back the line the hook rewrote: decide the
		// command it runs.
		q.Step.Command = inner
		q.Step.Input = withCommand(q.Step.Input, inner)
		q.Step.Use = risk.ReadUse(q.Step.Tool, q.Step.Input)
	}
	if q.Rule != nil && q.Rule.Deny {
		// The person's own deny in their client: as the client would
		// without sayso, nothing runs, whatever sayso would say.
		return a.Answer(q, policy.Deny, "sayso: "+q.Rule.Words(clientName(a.Name())))
	}
	d, diag, err := decideWithin(ctx, decide, *q.Step)
	if err != nil {
		why := "could not decide"
		if errors.Is(err, context.DeadlineExceeded) {
			why = "timed out deciding"
		}
		r := a.Answer(q, policy.Deny, "sayso: "+why+"; the step is denied")
		r.Err = err
		return r
	}
	q.Step.Answered = diag.Answered
	if d != policy.Deny {
		// The wall carries out the plan the decision returned.
		if cmd, ok := walls.Wrap(*q.Step, diag.Plan); ok {
			q.Step.Walled = cmd
		}
	}
	reason := Reason(d, &diag)
	if q.Rule != nil && d == policy.Allow && !diag.Answered {
		// The person's own ask: only their answer lets the step through,
		// on the page (Answered) or in the client's dialog.
		d, reason = policy.Ask, "sayso: "+q.Rule.Words(clientName(a.Name()))+"; "+strings.TrimPrefix(reason, "sayso: ")
	}
	return a.Answer(q, d, reason)
}

// clientName is what the agent's client's makers call it.
func clientName(agent string) string {
	if c, ok := client.Of(agent); ok {
		return c.Name
	}
	return agent
}

// decideWithin runs decide under the hook's timeout, turning a panic into
// an error.
func decideWithin(ctx context.Context, decide client.Decider, s client.Step) (policy.Decision, policy.Diagnostic, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	type answer struct {
		d    policy.Decision
		diag policy.Diagnostic
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- answer{err: fmt.Errorf("decide: panic: %v", p)}
			}
		}()
		d, diag, err := decide(ctx, s)
		ch <- answer{d, diag, err}
	}()
	select {
	case a := <-ch:
		return a.d, a.diag, a.err
	case <-ctx.Done():
		return policy.Deny, policy.Diagnostic{}, fmt.Errorf("decide: %w", ctx.Err())
	}
}

// Reason renders what the agent is told from the diagnostic: its reasons
// in order, short.
func Reason(d policy.Decision, diag *policy.Diagnostic) string {
	if len(diag.Reasons) == 0 {
		return "sayso: " + d.String()
	}
	return "sayso: " + client.Short(strings.Join(diag.Reasons, "; "), 600)
}
