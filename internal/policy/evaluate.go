package policy

import (
	"fmt"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// Request is one step to decide, with everything the decision needs.
type Request struct {
	Command string       // the shell command line
	Mode    Mode         // the session's mode
	Context risk.Context // where the step runs: root, cwd, home, protected paths
}

// Tier is one tier of the decision as the diagnostic reports it.
type Tier struct {
	N       int    `json:"tier"`
	Name    string `json:"name"`
	Decided bool   `json:"decided"`
	Why     string `json:"why"`
}

// Diagnostic explains a decision: what the step is, every tier consulted,
// and the reasons shown to the person and the agent.
type Diagnostic struct {
	Assessment risk.Assessment
	Tiers      []Tier
	Reasons    []string
	OutOfScope []risk.PathUse // paths the step writes, deletes or runs outside the project
	ReadsOut   []risk.PathUse // paths it reads outside the project
}

// Decided returns the tier that decided.
func (d *Diagnostic) Decided() Tier {
	for _, t := range d.Tiers {
		if t.Decided {
			return t
		}
	}
	return Tier{}
}

// Evaluate decides a step. Every tier is consulted and reported, even after
// one has decided: the diagnostic never stops early. The first tier that
// decides, decides.
func Evaluate(req Request) (Decision, Diagnostic) {
	a := risk.Classify(shell.Parse(req.Command), req.Context)
	return decide(req, a)
}

func decide(req Request, a risk.Assessment) (Decision, Diagnostic) {
	d := Diagnostic{Assessment: a}
	decision, decided := Deny, false
	tier := func(n int, name string, outcome *Decision, why string) {
		t := Tier{N: n, Name: name, Why: why}
		if outcome != nil && !decided {
			decision, decided, t.Decided = *outcome, true, true
		}
		d.Tiers = append(d.Tiers, t)
	}
	deny, ask, allow := Deny, Ask, Allow
	classes := a.Classes

	// 1. Never.
	if classes.Has(risk.Protected) {
		tier(1, "never", &deny, "the step touches sayso itself: "+whyOf(a, risk.Protected))
	} else {
		tier(1, "never", nil, "no protected path or sayso setting is touched")
	}
	// 2. Held.
	tier(2, "held", nil, "the session is not held")
	// 3. and 4. The person's policy file.
	tier(3, "explicit deny", nil, "no deny entry matches")
	tier(4, "explicit ask", nil, "no ask entry matches")
	// 5. Lease.
	tier(5, "lease", nil, "no lease covers the step")
	// 6. Ceilings.
	ceilings := ceilingClasses(classes)
	if len(ceilings) > 0 {
		why := fmt.Sprintf("%s is a ceiling: no mode approves it by itself, only the person, for this step", joinClasses(ceilings))
		tier(6, "ceiling", &ask, why)
	} else {
		tier(6, "ceiling", nil, "no ceiling class")
	}
	// 7. Scope.
	for _, p := range a.Paths {
		if req.Context.InScope(p.Path) {
			continue
		}
		if p.Op == risk.OpRead {
			d.ReadsOut = append(d.ReadsOut, p)
		} else {
			d.OutOfScope = append(d.OutOfScope, p)
		}
	}
	outOfScope := len(d.OutOfScope) > 0 || req.Mode == ModeAsk && len(d.ReadsOut) > 0
	switch {
	case req.Mode == ModeAutopilot:
		tier(7, "scope", nil, "autopilot does not hold steps to the project folder")
	case outOfScope:
		tier(7, "scope", nil, "out of scope: "+describePaths(d.OutOfScope, d.ReadsOut, req.Mode)+"; the mode alone will not allow it")
	default:
		tier(7, "scope", nil, "every path is inside "+req.Context.Root)
	}
	// 8. Mode.
	switch req.Mode {
	case ModeAutopilot:
		if len(ceilings) == 0 {
			tier(8, "mode", &allow, "autopilot approves everything but ceilings")
		} else {
			tier(8, "mode", nil, "autopilot never approves a ceiling")
		}
	case ModeAuto:
		if risk.Safe(classes) && !outOfScope {
			tier(8, "mode", &allow, "auto allows reading and local work in the project")
		} else {
			tier(8, "mode", nil, "auto asks about "+riskWords(classes, outOfScope))
		}
	default:
		if classes == risk.Of(risk.Read) && !outOfScope {
			tier(8, "mode", &allow, "ask mode allows reading in the project")
		} else {
			tier(8, "mode", nil, "ask mode asks before anything but reading in the project")
		}
	}
	// 9. Ask.
	tier(9, "ask", &ask, "the person decides")
	d.Reasons = reasons(decision, &d)
	return decision, d
}

func ceilingClasses(s risk.Set) []risk.Class {
	var out []risk.Class
	for _, c := range s.Classes() {
		if c.Ceiling() {
			out = append(out, c)
		}
	}
	return out
}

func joinClasses(cs []risk.Class) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, ", ")
}

func whyOf(a risk.Assessment, c risk.Class) string {
	for _, f := range a.Findings {
		if f.Class == c {
			return f.Why
		}
	}
	return c.String()
}

func riskWords(s risk.Set, outOfScope bool) string {
	var parts []string
	for _, c := range s.Classes() {
		if c != risk.Read && c != risk.LocalWrite {
			parts = append(parts, c.String())
		}
	}
	if outOfScope {
		parts = append(parts, "paths outside the project")
	}
	if len(parts) == 0 {
		return "this step"
	}
	return strings.Join(parts, ", ")
}

func describePaths(out, reads []risk.PathUse, m Mode) string {
	var parts []string
	for _, p := range out {
		name := p.Path
		if name == "" {
			name = p.Raw + " (cannot be known)"
		}
		parts = append(parts, p.Op.String()+"s "+name)
	}
	if m == ModeAsk {
		for _, p := range reads {
			parts = append(parts, "reads "+p.Path)
		}
	}
	if len(parts) > 4 {
		parts = append(parts[:4], fmt.Sprintf("and %d more", len(parts)-4))
	}
	return strings.Join(parts, ", ")
}

// reasons renders the lines shown to the person and the agent from the
// diagnostic: the deciding tier, then each class with its first finding.
func reasons(dec Decision, d *Diagnostic) []string {
	t := d.Decided()
	out := []string{fmt.Sprintf("%s (tier %d, %s): %s", dec, t.N, t.Name, t.Why)}
	if dec == Ask || dec == Deny {
		for _, c := range d.Assessment.Classes.Classes() {
			if c == risk.Read || c == risk.LocalWrite {
				continue
			}
			out = append(out, c.String()+": "+whyOf(d.Assessment, c))
		}
		for _, t := range d.Tiers {
			if t.N == 7 && strings.HasPrefix(t.Why, "out of scope") {
				out = append(out, t.Why)
			}
		}
	}
	return out
}
