package policy

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
)

// readingMatch holds a deny or ask pattern against one segment, both read
// as the program reads them (risk.Reading): the program by its name; every
// option of the pattern given in the segment, in any order, clustered or
// apart, with the same value; the pattern's operands matching the
// segment's first operands in order, each with * standing for any run of
// characters, and the segment may go on after them; the items xargs reads
// from its input may be any operands after the segment's own. A last operand of
// "*" alone also matches nothing at all. Where a reading is loose, every
// way of reading it counts, so the match errs on the side of the entry.
func readingMatch(p, s *risk.Reading) bool {
	if p.Program == "" || !glob(p.Program, s.Program) {
		return false
	}
	for j := range p.Options {
		if !optionGiven(&p.Options[j], s) {
			return false
		}
	}
	memo := make([]int8, (len(p.Operands)+1)*(len(s.Operands)+1))
	return operandsFrom(p, s, 0, 0, memo)
}

// operandsFrom matches p's operands from pi against s's from si.
func operandsFrom(p, s *risk.Reading, pi, si int, memo []int8) bool {
	if pi == len(p.Operands) {
		return true
	}
	k := pi*(len(s.Operands)+1) + si
	if memo[k] != 0 {
		return memo[k] > 0
	}
	ok := operandsStep(p, s, pi, si, memo)
	memo[k] = -1
	if ok {
		memo[k] = 1
	}
	return ok
}

func operandsStep(p, s *risk.Reading, pi, si int, memo []int8) bool {
	po := p.Operands[pi]
	if pi == len(p.Operands)-1 && po.Value == "*" {
		return true
	}
	// The pattern's word may be the value of the option before it.
	if po.Of >= 0 && valueGiven(p.Options[po.Of].Name, po.Value, s) && operandsFrom(p, s, pi+1, si, memo) {
		return true
	}
	if si == len(s.Operands) {
		return s.Open // what xargs reads may be the rest
	}
	// The segment's word may be the value of the option before it.
	if s.Operands[si].Of >= 0 && operandsFrom(p, s, pi, si+1, memo) {
		return true
	}
	so := s.Operands[si]
	return (operandMatch(po.Value, so.Value) || so.Also != "" && operandMatch(po.Value, so.Also)) && operandsFrom(p, s, pi+1, si+1, memo)
}

// operandMatch matches one operand: * as any run of characters, and two
// absolute paths by their clean form (// and /. are /).
func operandMatch(p, v string) bool {
	if glob(p, v) {
		return true
	}
	if strings.HasPrefix(p, "/") && strings.HasPrefix(v, "/") {
		return glob(path.Clean(p), path.Clean(v))
	}
	return false
}

// optionGiven reports whether the segment gives the pattern's option o,
// with its value when o has one.
func optionGiven(o *risk.Option, s *risk.Reading) bool {
	if o.HasValue {
		return valueGiven(o.Name, o.Value, s)
	}
	if nameGiven(o.Name, s) {
		return true
	}
	if !o.Cluster {
		return false
	}
	for _, c := range o.Name[1:] {
		if !nameGiven("-"+string(c), s) {
			return false
		}
	}
	return true
}

// nameGiven reports whether the segment gives an option called name: by
// that name, as a letter of a loose cluster, or as an option built at run
// time.
func nameGiven(name string, s *risk.Reading) bool {
	for _, x := range s.Options {
		if x.Dyn || sameName(x.Name, name) || x.Cluster && len(name) == 2 && name[0] == '-' && strings.IndexByte(x.Name[1:], name[1]) >= 0 {
			return true
		}
	}
	return false
}

// valueGiven reports whether the segment gives the option called name
// with value v: attached, in the next word, or as the rest of a loose
// cluster (-nprod).
func valueGiven(name, v string, s *risk.Reading) bool {
	for j, x := range s.Options {
		switch {
		case x.Dyn:
			return true
		case sameName(x.Name, name) && x.HasValue && operandMatch(v, x.Value):
			return true
		case x.Cluster && !x.HasValue && len(name) == 2 && strings.HasPrefix(x.Name, name) && operandMatch(v, x.Name[2:]):
			return true
		case sameName(x.Name, name):
			for _, op := range s.Operands {
				if op.Of == j && operandMatch(v, op.Value) {
					return true
				}
			}
		}
	}
	return false
}

// sameName reports whether two option names are one: equal, or one with
// one dash and the other with two where a name of several letters has
// one dash (Go's flag package takes -auto-approve and --auto-approve
// alike, and a loose reading does not know which reads it).
func sameName(a, b string) bool {
	if a == b {
		return true
	}
	ta, tb := strings.TrimPrefix(a, "-"), strings.TrimPrefix(b, "-")
	return len(ta) > 1 && len(tb) > 1 && (ta == strings.TrimPrefix(tb, "-") || tb == strings.TrimPrefix(ta, "-")) &&
		(!strings.HasPrefix(ta, "-") || !strings.HasPrefix(tb, "-"))
}
