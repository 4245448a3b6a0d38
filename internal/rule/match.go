package rule

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// Match reports whether r covers the command of step s, on the words of
// its parse, not its text: quoting that does not change a word matches;
// escapes, $'…', a second word or anything around the command do not. An
// invalid rule matches nothing. Match looks at the words only; where a
// rule counts (its folder, the step's classes, the session) is Set.Lookup's.
func Match(r Rule, s Step) bool {
	p, err := compile(r)
	if err != nil {
		return false
	}
	v := newView(&s)
	return p.matches(&v)
}

// view is a step read once for matching against many rules.
type view struct {
	script *shell.Script
	words  []string // the words of the one simple command; nil when it is more
	why    string   // why it is not one simple command
	segWhy []string // per segment, why no verb rule can cover it
}

func newView(s *Step) view {
	sc := s.script()
	v := view{script: sc}
	v.words, v.why = simple(s.Command, sc)
	return v
}

// segments prepares the per-segment reasons verb rules need.
func (v *view) segments() {
	if v.segWhy != nil {
		return
	}
	v.segWhy = make([]string, len(v.script.Segments))
	for i := range v.script.Segments {
		v.segWhy[i] = coverable(&v.script.Segments[i])
	}
}

func (p *pattern) matches(v *view) bool {
	if p.unit == UnitVerb {
		if len(v.script.Opaque) > 0 || len(v.script.Segments) == 0 {
			return false
		}
		v.segments()
		for i := range v.script.Segments {
			if v.segWhy[i] != "" || !verbCovers(p, &v.script.Segments[i]) {
				return false
			}
		}
		return true
	}
	return p.matchWords(v.words)
}

// matchWords matches a command-unit pattern against the words of one
// simple command: one for one, nothing after, the last word's * covering
// only a plain name.
func (p *pattern) matchWords(words []string) bool {
	if len(words) != len(p.words) {
		return false
	}
	n := len(words) - 1
	for i := 0; i < n; i++ {
		if words[i] != p.words[i] {
			return false
		}
	}
	if !p.star {
		return words[n] == p.words[n]
	}
	rest, ok := strings.CutPrefix(words[n], p.words[n])
	return ok && starCovers(rest)
}
