package policy

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/enum"
	"github.com/sayso-dev/sayso/internal/risk"
)

// Autonomy is the value of an autonomy row. The zero value is
// RequireApproval: a row that cannot be read asks.
type Autonomy uint8

const (
	RequireApproval Autonomy = iota
	AutoApprove
	DenyTool
)

var autonomyNames = enum.New[Autonomy]("autonomy", "unknown autonomy %q (want auto_approve, require_approval or deny)", "require_approval", "auto_approve", "deny")

func (a Autonomy) String() string { return autonomyNames.String(a) }

// MarshalText implements encoding.TextMarshaler.
func (a Autonomy) MarshalText() ([]byte, error) { return autonomyNames.Marshal(a) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *Autonomy) UnmarshalText(b []byte) error { return autonomyNames.Unmarshal(a, b) }

// ParseAutonomy returns the autonomy value named s.
func ParseAutonomy(s string) (Autonomy, error) { return autonomyNames.Parse(s) }

// Wildcard is the tool pattern of the autopilot row: "*" = "auto_approve".
const Wildcard = "*"

// Resolved is what the autonomy rows say about one tool of one agent.
type Resolved struct {
	Found    bool
	Value    Autonomy
	Wildcard bool // the value is the wildcard's: autopilot when it is auto_approve
	Row      Row  // the row whose value holds (the wildcard's, when it is)
	Specific *Row // the most specific row for the tool, when there is one
}

// ResolveAutonomy resolves the rows of agent for tool. A specific
// auto_approve under an auto_approve wildcard resolves as the wildcard,
// reporting the wildcard's origin, so that pressing "always allow" never
// turns the autopilot off; a specific require_approval or deny wins over
// the wildcard.
func (p *Policy) ResolveAutonomy(agent, tool string) Resolved {
	var r Resolved
	if p == nil || agent == "" {
		return r
	}
	var wild, spec *Row
	for i := range p.Autonomy {
		row := &p.Autonomy[i]
		if row.Agent != agent {
			continue
		}
		switch {
		case row.Pattern == Wildcard:
			if wild == nil || row.Value != AutoApprove {
				wild = row // a tighter wildcard row later in the files wins
			}
		case toolMatch(row.Pattern, tool):
			if spec == nil || moreSpecific(row.Pattern, spec.Pattern) || row.Pattern == spec.Pattern && tighter(row.Value, spec.Value) {
				spec = row
			}
		}
	}
	r.Specific = spec
	switch {
	case spec != nil && spec.Value == AutoApprove && wild != nil && wild.Value == AutoApprove:
		r.Found, r.Value, r.Wildcard, r.Row = true, AutoApprove, true, *wild
	case spec != nil:
		r.Found, r.Value, r.Row = true, spec.Value, *spec
	case wild != nil:
		r.Found, r.Value, r.Wildcard, r.Row = true, wild.Value, true, *wild
	}
	return r
}

// moreSpecific reports whether pattern a names fewer tools than b: an exact
// name beats a pattern, a longer fixed prefix beats a shorter one.
func moreSpecific(a, b string) bool {
	ae, be := !strings.Contains(a, "*"), !strings.Contains(b, "*")
	if ae != be {
		return ae
	}
	return len(strings.ReplaceAll(a, "*", "")) > len(strings.ReplaceAll(b, "*", ""))
}

func tighter(a, b Autonomy) bool { return rank(a) > rank(b) }

func rank(a Autonomy) int {
	switch a {
	case DenyTool:
		return 2
	case RequireApproval:
		return 1
	}
	return 0
}

// toolMatch matches a tool name against a pattern where * stands for any
// run of characters. The shell tool is one tool whatever the agent calls
// it: "shell" or any agent's shell tool name matches them all.
func toolMatch(pattern, tool string) bool {
	if tool == "" {
		tool = "Bash"
	}
	if shellName(pattern) && shellName(tool) {
		return true
	}
	return glob(pattern, tool)
}

func shellName(s string) bool { return risk.ShellTool(s) }

// glob matches s against pattern, where * is any run of characters and
// every other character stands for itself. It backtracks only to the last
// star, so it runs in time linear in len(pattern)*len(s) at worst.
func glob(pattern, s string) bool {
	px, sx := 0, 0
	star, next := -1, 0
	for px < len(pattern) || sx < len(s) {
		if px < len(pattern) {
			switch c := pattern[px]; {
			case c == '*':
				star, next = px, sx+1
				px++
				continue
			case sx < len(s) && c == s[sx]:
				px++
				sx++
				continue
			}
		}
		if star >= 0 && next <= len(s) {
			px, sx = star+1, next
			next++
			continue
		}
		return false
	}
	return true
}
