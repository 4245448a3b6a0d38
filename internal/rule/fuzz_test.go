package rule

import (
	"testing"

	"github.com/sayso-dev/sayso/internal/shell"
)

// maxFuzz bounds the inputs the fuzz targets read: commands an agent sends
// are short, and long ones are the parser's own fuzz target's to try.
const maxFuzz = 512

func seeds(f *testing.F, add func(m matchCase)) {
	for _, name := range []string{"rules-dev.jsonl", "match.jsonl"} {
		for _, c := range loadCases(f, name) {
			add(c)
		}
	}
}

// FuzzRule: no rule Validate accepts ever matches a command whose parse
// holds an operator, a redirect, a substitution, a variable, a glob, an
// assignment before the command or a wrapper.
func FuzzRule(f *testing.F) {
	seeds(f, func(c matchCase) { f.Add(c.Rule, c.Cmd) })
	f.Fuzz(func(t *testing.T, pattern, cmd string) {
		if len(pattern)+len(cmd) > maxFuzz {
			return
		}
		r := Rule{Tool: "Bash", Pattern: pattern, Cwd: testCwd}
		if Validate(r) != nil {
			return
		}
		s := NewStep(cmd, testCtx)
		if why := holds(cmd, s.script()); why != "" && Match(r, s) {
			t.Fatalf("rule %q matches %q, which holds %s", pattern, cmd, why)
		}
	})
}

// holds names what a command's parse holds around its words, or "". A
// comment or a line break around one command runs nothing and holds none.
func holds(cmd string, sc *shell.Script) string {
	if len(sc.Opaque) > 0 || len(sc.Segments) != 1 {
		return "more than one command, or something sayso cannot read"
	}
	seg := &sc.Segments[0]
	switch {
	case len(seg.Redirs) > 0:
		return "a redirect"
	case len(seg.Wrappers) > 0:
		return "a wrapper"
	case len(seg.Via) > 0:
		return "a command inside another"
	case len(seg.Assigns) > 0 && !declares(seg):
		return "an assignment"
	}
	for _, w := range seg.Args {
		switch {
		case len(w.Subst) > 0:
			return "a substitution"
		case len(w.Params) > 0:
			return "a variable"
		case w.Glob || w.Brace || w.Tilde:
			return "a glob"
		case w.Escaped:
			return "an escape"
		}
	}
	return ""
}

// FuzzOffer: Offer never returns a rule Validate refuses, nor one that does
// not cover the step it came from.
func FuzzOffer(f *testing.F) {
	seeds(f, func(c matchCase) { f.Add(c.Cmd, c.Unit == "verb") })
	f.Add("git push origin feature/login", false)
	f.Add("npm test 2>&1 | head -200 && go vet ./...", true)
	f.Fuzz(func(t *testing.T, cmd string, verb bool) {
		if len(cmd) > maxFuzz {
			return
		}
		u := UnitCommand
		if verb {
			u = UnitVerb
		}
		s := NewStep(cmd, testCtx)
		rules, why := Offer(s, u)
		for _, r := range rules {
			if err := Validate(r); err != nil {
				t.Fatalf("Offer(%q, %s) = %q, which Validate refuses: %v", cmd, u, r.Pattern, err)
			}
		}
		switch {
		case len(rules) == 0:
			if why == "" {
				t.Fatalf("Offer(%q, %s) = none without a reason", cmd, u)
			}
		case u == UnitCommand:
			if len(rules) != 1 || !Match(rules[0], s) {
				t.Fatalf("Offer(%q) = %q, which does not match its own step", cmd, rules[0].Pattern)
			}
		case why == "":
			v := newView(&s)
			if _, miss := NewSet(rules).verbCover(&s, &v); miss != "" {
				t.Fatalf("Offer(%q, verb) = %v, which does not cover its own step: %s", cmd, rules, miss)
			}
		}
	})
}
