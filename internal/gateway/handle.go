package gateway

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/wall"
)

// egressRefused keeps a connection the wall refused in the ledger. It is
// the wall's report of what it did, not a step: it decides nothing and
// grants nothing, so it needs no pinned forwarder.
func (d *Decider) egressRefused(ctx context.Context, r Request) Reply {
	var e wall.Refusal
	if err := json.Unmarshal(r.Input, &e); err != nil || e.Host == "" {
		return Reply{Stderr: "sayso: a bad report of a refused connection", Exit: 2}
	}
	if err := d.DB.RecordEgressRefused(ctx, store.Egress{Session: e.Session, Host: e.Host, Step: e.Step, Cwd: e.Cwd}); err != nil {
		slog.Error("record a refused connection", "err", err)
		return Reply{Stderr: "sayso: " + err.Error(), Exit: 1}
	}
	return Reply{}
}

// Guard wraps a decider for one agent: the pin check of sayso install.
type Guard func(agent string, next client.Decider) client.Decider

// Handle answers hook requests with d: the client's adapter reads the
// input, d decides the step, and the events the adapter read are kept.
func (d *Decider) Handle(guard Guard) Handle {
	return func(ctx context.Context, r Request) Reply {
		if r.Agent == wall.ReportAgent {
			return d.egressRefused(ctx, r)
		}
		env := client.Env{Getenv: func(k string) string { return r.Env[k] }, Home: r.Home}
		if d.Forwarders != nil {
			if err := d.Forwarders.Check(r.Peer, r.PeerFD); err != nil {
				return d.refuse(ctx, r, env, err)
			}
		}
		if d.Witness != nil && r.Peer > 0 {
			env.Witness = d.Witness(r.Peer)
		}
		res := d.Run(ctx, r.Agent, r.Input, env, guard)
		return Reply{Stdout: res.Stdout, Stderr: res.Stderr, Exit: res.Exit}
	}
}

// Run answers one hook input: the adapter of agent reads it, the decider
// decides, the events are recorded. An unknown agent is denied in a form
// every client reads.
func (d *Decider) Run(ctx context.Context, agent string, in []byte, env client.Env, guard Guard) client.Result {
	a, err := client.ForAgent(agent)
	if err != nil {
		return client.Fallback.Fail("", "sayso: "+err.Error()+"; the step is denied")
	}
	decide := client.Decider(d.Decide)
	if guard != nil {
		decide = guard(a.Name(), decide)
	}
	res := hook.Run(ctx, a, in, env, decide, d.Walls)
	if err := d.Record(ctx, res.Input.Events); err != nil && res.Err == nil {
		res.Err = err
	}
	if res.Err != nil {
		RecordFailure(ctx, d.DB, agent, res)
	}
	return res
}

// RecordFailure keeps the real error behind the hook's fail-closed answer
// res in the ledger, and in sayso serve's log when even that fails.
func RecordFailure(ctx context.Context, db *store.DB, agent string, res client.Result) {
	f := store.Failure{Agent: agent, Event: res.Input.Event, Answer: res.Decision.String(), Reason: res.Reason, Err: res.Err.Error()}
	if s := res.Input.Step; s != nil {
		f.Session, f.Tool, f.Step = SessionOf(*s), s.Tool, Summary(*s)
	}
	if f.Reason == "" {
		f.Reason = res.Stderr
	}
	if err := db.RecordFailure(ctx, f); err != nil {
		slog.Error("hook failed closed", "agent", agent, "step", f.Step, "err", res.Err, "ledger", err)
	}
}

// refuse answers a request from a process that runs none of sayso's
// binaries: every step asks (a deny where the client cannot ask), no card
// is made and nothing it read is recorded — no message, no session.
func (d *Decider) refuse(ctx context.Context, r Request, env client.Env, why error) Reply {
	slog.Warn("hooks' socket: not sayso's binary", "pid", r.Peer, "why", why)
	a, err := client.ForAgent(r.Agent)
	if err != nil {
		a = client.Fallback
	}
	res := hook.Run(ctx, a, r.Input, env, hook.AskEvery("the hook that sent this step is not a binary sayso installed ("+why.Error()+"); every step asks"), d.Walls)
	return Reply{Stdout: res.Stdout, Stderr: res.Stderr, Exit: res.Exit}
}
