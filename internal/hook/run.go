package hook

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
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
func Run(ctx context.Context, a Adapter, in []byte, env Env, decide Decider, walls Walls) (res Result) {
	event := ""
	defer func() {
		if p := recover(); p != nil {
			res = a.Fail(event, "sayso: internal error; the step is denied")
			res.Err = fmt.Errorf("panic: %v", p)
		}
	}()
	if len(in) > MaxInput {
		r := a.Fail("", "sayso: hook input too large; the step is denied")
		r.Err = errorf("%d bytes of hook input", len(in))
		return r
	}
	q, err := a.Read(in, env)
	event = q.Event
	if err != nil {
		r := a.Fail(q.Event, "sayso: cannot read the hook input ("+short(err.Error(), 160)+"); the step is denied")
		r.Input, r.Err = q, err
		return r
	}
	attest(env.Witness, q.Events)
	for _, e := range q.Events {
		if e.Kind == EventSessionEnd {
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
	}
	if q.Rule != nil && q.Rule.Deny {
		// The person's own deny in their client: as the client would
		// without sayso, nothing runs, whatever sayso would say.
		return a.Answer(q, policy.Deny, "sayso: "+q.Rule.words(clientName(a.Name())))
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
	if d != policy.Deny && !outsideWall(d, &diag, q.Step.Dialog) {
		reach := diag.Reach
		if d == policy.Ask && reach == policy.ReachNone {
			reach = policy.ReachWide // what the person lets through still runs walled
		}
		if cmd, ok := walls.wrap(*q.Step, reach, accessOf(&diag, reach, d == policy.Ask && q.Step.Dialog)); ok {
			q.Step.Walled = cmd
		}
	}
	reason := Reason(d, &diag)
	if q.Rule != nil && d == policy.Allow && !diag.Answered {
		// The person's own ask: only their answer lets the step through,
		// on the page (Answered) or in the client's dialog.
		d, reason = policy.Ask, "sayso: "+q.Rule.words(clientName(a.Name()))+"; "+strings.TrimPrefix(reason, "sayso: ")
	}
	return a.Answer(q, d, reason)
}

// clientName is what the agent's client's makers call it.
func clientName(agent string) string {
	if c, ok := ClientOf(agent); ok {
		return c.Name
	}
	return agent
}

// outsideWall reports a step that gains root privilege (sudo, doas, a
// setuid program) on the person's say-so for exactly it: asked where the
// client's own dialog shows the person this command (dialog: Claude Code's
// attended terminal in a mode that asks, not bypass or its classifier), or
// allowed by the person on the page; let through by a lease, it is that
// one command alone. It runs as approved, outside the wall: inside,
// no_new_privs and the user namespace make every setuid program fail, so
// the wall would turn the person's yes into an error. Anything else in a
// leased step keeps the whole step walled, and so does the reviewer's
// waiver.
func outsideWall(d policy.Decision, diag *policy.Diagnostic, dialog bool) bool {
	a := &diag.Assessment
	if !a.Classes.Has(risk.Privilege) || a.Script == nil {
		return false
	}
	// The reviewer waiving the ceiling is not the person's say-so: what it
	// lets through runs walled, where sudo fails.
	return d == policy.Ask && dialog || d == policy.Allow && (diag.Answered || diag.Lease != "" && leasedAlone(a))
}

// leasedAlone reports a leased step that is one command run through the
// system's sudo and nothing of the project's: a script, a build or
// anything else the engine finds writing (local-write) or cannot see
// (opaque) is what the mode lets through, and it runs walled.
func leasedAlone(a *risk.Assessment) bool {
	return len(a.Script.Segments) == 1 && systemWrappers(&a.Script.Segments[0]) && !a.Classes.Has(risk.LocalWrite) && !a.Classes.Has(risk.Opaque)
}

// systemWrappers reports whether every wrapper of seg (sudo, doas) is
// named as the system's: by its bare name or from a system folder. A
// sudo named by another path (./bin/sudo, ~/bin/sudo) is a program the
// agent could have written; a lease for privilege does not carry it
// outside the wall.
func systemWrappers(seg *shell.Segment) bool {
	if len(seg.WrapperWords) != len(seg.Wrappers) {
		return false
	}
	for _, w := range seg.WrapperWords {
		if !strings.Contains(w, "/") {
			continue
		}
		ok := false
		for _, d := range []string{"/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/usr/local/bin/", "/usr/local/sbin/", "/run/wrappers/bin/"} {
			if strings.HasPrefix(w, d) && !strings.Contains(w[len(d):], "/") && !strings.Contains(w, "/../") {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// decideWithin runs decide under the hook's timeout, turning a panic into
// an error.
func decideWithin(ctx context.Context, decide Decider, s Step) (policy.Decision, policy.Diagnostic, error) {
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
	return "sayso: " + short(strings.Join(diag.Reasons, "; "), 600)
}

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "..."
}

// attest holds the events' claims against the witness: a session is
// bound to the client that opened it, and a message is the person's only
// when the witness finds the client itself behind the hook.
func attest(w Witness, events []Event) {
	for i := range events {
		e := &events[i]
		switch {
		case e.Kind == EventSession && w != nil:
			_ = w.Open(e.Agent, e.Session) // unwitnessed: no binding, so no person words
		case e.Kind == EventMessage && e.Source == SourcePerson:
			err := noEvidence("nothing witnesses the process that ran the hook")
			if w != nil {
				err = w.Person(e.Agent, e.Session, e.Turn)
			}
			if err != nil {
				e.Source, e.Why = SourceSystem, short(err.Error(), 200)
			}
		}
	}
}
