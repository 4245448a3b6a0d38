package hook

import (
	"context"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/project"
	"github.com/sayso-dev/sayso/internal/risk"
)

// made is the diagnostic of a decision the hook makes about the step s,
// without the policy's reading of it. What an ask lets through runs
// walled, as the core plans for a step it knows nothing of.
func made(s Step, d policy.Decision, c risk.Class, why string) (policy.Decision, policy.Diagnostic, error) {
	id := policy.TierMode
	if d == policy.Ask {
		id = policy.TierAsk
	}
	diag := policy.Diagnostic{
		Assessment: risk.Assessment{Classes: risk.Of(c), Findings: []risk.Finding{{Class: c, Segment: -1, Reason: risk.Words(why)}}},
		Tiers:      []policy.Tier{{ID: id, Reason: policy.ReasonHook, Decided: true, Why: why}},
		Reasons:    []string{d.String() + ": " + why},
	}
	if s.Kind == KindShell && d != policy.Deny {
		proj := project.Read(s.Project(), "")
		diag.Plan = policy.PlanOf(d, &diag, &policy.Request{Context: proj.Context(risk.Context{Cwd: s.Project()}), Dir: s.Cwd, Dialog: s.Dialog, Project: proj})
	}
	return d, diag, nil
}

// Guard makes every step of agent ask while one of its pins is broken:
// the binary or a definition changed since install.
func Guard(store client.PinStore, agent string, next client.Decider) client.Decider {
	return func(ctx context.Context, s client.Step) (policy.Decision, policy.Diagnostic, error) {
		if probs := client.CheckPins(store, agent); len(probs) > 0 {
			return made(s, policy.Ask, risk.Protected, probs[0].What+"; every step asks until the person runs '"+probs[0].Fix+"'")
		}
		return next(ctx, s)
	}
}

// AskEvery asks about every step, for why: the hook cannot trust where it
// would decide.
func AskEvery(why string) client.Decider {
	return func(ctx context.Context, s client.Step) (policy.Decision, policy.Diagnostic, error) {
		return made(s, policy.Ask, risk.Protected, why)
	}
}
