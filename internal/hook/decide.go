package hook

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// Local decides in the hook's own process with policy.Evaluate, until the
// store keeps sessions, modes and leases: the mode is the policy file's
// default (auto unless set), the scope the project holding the session's
// folder, and the protected paths sayso's own plus the hook definitions it
// installed.
type Local struct {
	Home      string
	ConfigDir string // holds the person's policy.toml
	Protected []string
	Now       func() time.Time
}

// Decide implements Decider.
func (l Local) Decide(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
	if err := ctx.Err(); err != nil {
		return policy.Deny, policy.Diagnostic{}, err
	}
	root := paths.ProjectRoot(s.Project())
	pol := policy.Load(policy.Files{Person: filepath.Join(l.ConfigDir, "policy.toml"), Root: root, ReadFile: os.ReadFile})
	req := policy.Request{
		Agent:   s.Agent,
		Tool:    s.Tool,
		Input:   s.Input,
		Command: s.Command,
		Mode:    pol.DefaultMode,
		Policy:  pol,
		// The tool's own working folder is in its input: the step starts
		// from the session's.
		Context: risk.Context{Root: root, Cwd: s.Project(), Home: l.Home, Protected: l.Protected},
		Session: policy.Session{ID: s.Session, Turn: s.Turn},
	}
	if l.Now != nil {
		req.Now = l.Now()
	}
	policy.Resolve(&req, Resolver(l.Protected))
	d, diag := policy.Evaluate(req)
	return d, diag, nil
}

// Project is the session's folder: the client's cwd, before a shell tool's
// own working folder moves the step.
func (s Step) Project() string {
	if s.project != "" {
		return s.project
	}
	return s.Cwd
}

// made is the diagnostic of a decision the hook makes about a tool the
// policy does not read.
func made(d policy.Decision, c risk.Class, why string) (policy.Decision, policy.Diagnostic, error) {
	n, name := 8, "mode"
	if d == policy.Ask {
		n, name = 9, "ask"
	}
	diag := policy.Diagnostic{
		Assessment: risk.Assessment{Classes: risk.Of(c), Findings: []risk.Finding{{Class: c, Segment: -1, Why: why}}},
		Tiers:      []policy.Tier{{N: n, Name: name, Decided: true, Why: why}},
		Reasons:    []string{d.String() + ": " + why},
	}
	return d, diag, nil
}

// Guard makes every step of agent ask while one of its pins is broken:
// the binary or a definition changed since install.
func Guard(store PinStore, agent string, next Decider) Decider {
	return func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
		if probs := CheckPins(store, agent); len(probs) > 0 {
			return made(policy.Ask, risk.Protected, probs[0].What+"; every step asks until the person runs '"+probs[0].Fix+"'")
		}
		return next(ctx, s)
	}
}

// AskEvery asks about every step, for why: the hook cannot trust where it
// would decide.
func AskEvery(why string) Decider {
	return func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
		return made(policy.Ask, risk.Protected, why)
	}
}
