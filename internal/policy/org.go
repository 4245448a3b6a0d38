package policy

import (
	"fmt"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
)

// Team is a node's standing in a team (DESIGN §14), set when it joined:
// what the org's bundle adds to its policy, and how it decides without
// one. The zero value is a machine on its own: nothing changes.
type Team struct {
	Joined bool
	// Org is the org's verified bundle, or nil when the node holds no valid
	// one (missing, expired, badly signed): it then runs with no auto.
	Org *Org
	// Why says why the node holds no valid bundle.
	Why string
	// CI marks a node no person sits at: what would ask is denied.
	CI bool
}

// Org is what the org's signed bundle gives a node: it can only narrow.
// It holds no allow, no reviewer and no answer: those have no field here.
type Org struct {
	Name string
	Seq  uint64
	// Entries are deny and ask entries; OrgEntry makes them.
	Entries []Entry
	// ModeCap is the most a session's mode may be on the node.
	ModeCap Mode
	// ProtectedPaths are more paths no step may touch: the bundle's
	// protected and secret paths.
	ProtectedPaths []string
	// TrustedHosts, when not nil, caps the hosts a plain fetch may reach
	// and the egress a walled step has: only hosts also in this list stay
	// trusted.
	TrustedHosts []string
	// Tools put the org's own tools into risky classes.
	Tools []ClassPattern
}

// OrgEntry makes a deny or ask entry of the org's bundle. An allow, an
// entry naming nothing, or an unknown class is an error: the bundle is
// then refused whole.
func OrgEntry(eff Decision, tool, command, class string, src Source) (Entry, error) {
	if eff != Deny && eff != Ask {
		return Entry{}, fmt.Errorf("%s: the org's policy can only deny or ask, not %s", src, eff)
	}
	e := Entry{Effect: eff, Tool: tool, Command: command, Source: src, words: strings.Fields(command)}
	if class != "" {
		c, err := risk.ParseClass(class)
		if err != nil {
			return Entry{}, fmt.Errorf("%s: %w", src, err)
		}
		e.Class, e.ByClass = c, true
	}
	if tool == "" && command == "" && class == "" {
		return Entry{}, fmt.Errorf("%s: entry names no tool, command or class", src)
	}
	return e, nil
}

// SetTeam adds the node's standing in a team to the policy: the org's
// entries, protected paths, tool classes and trusted hosts when it holds
// a valid bundle. The mode cap and CI rule act in Evaluate.
func (p *Policy) SetTeam(t Team) {
	p.Team = t
	if !t.Joined {
		return
	}
	if t.Org == nil {
		why := t.Why
		if why == "" {
			why = "no org bundle"
		}
		p.Problems = append(p.Problems, Problem{Source: Source{File: "org bundle"}, Text: why + ": this node runs with no auto until it holds a valid one"})
		return
	}
	o := t.Org
	for _, e := range o.Entries {
		if e.Effect == Deny || e.Effect == Ask {
			p.Entries = append(p.Entries, e)
		}
	}
	p.ProtectedPaths = append(p.ProtectedPaths, o.ProtectedPaths...)
	for _, c := range o.Tools {
		if !risk.Safe(risk.Of(c.Class)) {
			p.Classes = append(p.Classes, c)
		}
	}
	if o.TrustedHosts != nil {
		base := p.TrustedHosts
		if base == nil {
			base = risk.DefaultTrustedHosts
		}
		kept := []string{}
		for _, h := range base {
			for _, allowed := range o.TrustedHosts {
				if h == allowed {
					kept = append(kept, h)
					break
				}
			}
		}
		p.TrustedHosts = kept
	}
	p.Prepare()
}

// modeCap is the most a session's mode may be: autopilot alone, ask on a
// team node with no valid bundle, else the bundle's cap.
func (p *Policy) modeCap() (Mode, string) {
	switch {
	case !p.Team.Joined:
		return ModeAutopilot, ""
	case p.Team.Org == nil:
		why := p.Team.Why
		if why == "" {
			why = "no org bundle"
		}
		return ModeAsk, "this team node holds no valid org bundle (" + why + "): it runs with no auto"
	default:
		return p.Team.Org.ModeCap, fmt.Sprintf("the org bundle %s #%d caps the mode at %s", p.Team.Org.Name, p.Team.Org.Seq, p.Team.Org.ModeCap)
	}
}
