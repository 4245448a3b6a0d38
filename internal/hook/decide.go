package hook

import (
	"context"
	"strings"

	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// Local decides in the hook's own process with policy.Evaluate, until the
// store keeps sessions, modes and leases: the mode is the policy default
// (auto), the scope the project holding the session's folder, and the
// protected paths sayso's own plus the hook definitions it installed.
type Local struct {
	Mode      policy.Mode
	Home      string
	Protected []string
}

// Decide implements Decider.
func (l Local) Decide(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
	if err := ctx.Err(); err != nil {
		return policy.Deny, policy.Diagnostic{}, err
	}
	rc := risk.Context{
		Root:      paths.ProjectRoot(s.Project()),
		Cwd:       s.Cwd,
		Home:      l.Home,
		Protected: l.Protected,
	}
	switch s.Kind {
	case KindQuiet:
		return made(policy.Allow, risk.Read, s.Tool+" changes nothing outside the agent")
	case KindAgent:
		if l.Mode == policy.ModeAsk {
			return made(policy.Ask, risk.LocalWrite, s.Tool+" starts a sub-agent; ask mode asks first")
		}
		return made(policy.Allow, risk.LocalWrite, s.Tool+" starts a sub-agent; its own steps pass through sayso")
	case KindTool:
		return made(policy.Ask, risk.Opaque, s.Tool+" is a tool sayso cannot see into")
	case KindFetch:
		if s.URL == "" {
			return made(policy.Ask, risk.Network, s.Tool+" sends a query to the network")
		}
	}
	d, diag := policy.Evaluate(policy.Request{Command: command(s), Mode: l.Mode, Context: rc})
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

// command renders a file or fetch step as the shell command that does the
// same, so the shell classifier holds it to the same paths: scope,
// protected, secrets, instruction files.
func command(s Step) string {
	switch s.Kind {
	case KindShell:
		return s.Command
	case KindRead:
		words := []string{"cat", "--"}
		for _, f := range s.Files {
			words = append(words, shellWord(f.Path))
		}
		return strings.Join(words, " ")
	case KindWrite:
		var parts []string
		for _, f := range s.Files {
			if f.Op == risk.OpDelete {
				parts = append(parts, "rm -f -- "+shellWord(f.Path))
			} else {
				parts = append(parts, ": > "+shellWord(f.Path))
			}
		}
		return strings.Join(parts, "; ")
	case KindFetch:
		return "curl -sS -- " + shellWord(s.URL)
	}
	return "false"
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
