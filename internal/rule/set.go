package rule

import (
	"fmt"
	"path"
	"strings"
)

// Set holds the kept rules, each validated once as it is read, indexed by
// their first words.
type Set struct {
	rules   []Rule
	pats    []pattern
	command map[string][]int // command rules by commandKey
	verb    map[string][]int // verb rules by their verb
	invalid []Problem
}

// Problem is a kept rule sayso refuses today: it is ignored and reported.
type Problem struct {
	Index int   // its position in the list NewSet was given
	Rule  Rule  //
	Err   error // why Validate refuses it
}

// NewSet validates rules again and indexes those sayso would keep today.
// The others are ignored and listed by Problems.
func NewSet(rules []Rule) *Set {
	s := &Set{command: map[string][]int{}, verb: map[string][]int{}}
	for i, r := range rules {
		p, err := compile(r)
		if err != nil {
			s.invalid = append(s.invalid, Problem{Index: i, Rule: r, Err: err})
			continue
		}
		k := len(s.rules)
		s.rules = append(s.rules, r)
		s.pats = append(s.pats, p)
		if r.Unit == UnitVerb {
			s.verb[p.words[0]] = append(s.verb[p.words[0]], k)
		} else {
			key := commandKey(p.words, p.star)
			s.command[key] = append(s.command[key], k)
		}
	}
	return s
}

// Len is the number of rules kept and valid.
func (s *Set) Len() int { return len(s.rules) }

// Problems lists the rules ignored because Validate refuses them.
func (s *Set) Problems() []Problem { return s.invalid }

// Found is what Lookup found for a step.
type Found struct {
	Allow bool     // a rule covers the step
	Rules []Rule   // the command rule that matched, or the verb rule for each segment
	Lines []string // the diagnostic: where rules were not counted and why, what matched, each rule ignored
}

// Lookup says whether a kept rule covers step s. Rules count only for
// shell steps, only in the rule's folder or below, never for a severe,
// never or held step, a count, a class no words lift or one the person
// sees each time, never in a session with guest words; a verb rule never
// lifts a ceiling. Each ignored rule is reported in Lines.
func (s *Set) Lookup(st Step) Found {
	var f Found
	if s != nil {
		for _, p := range s.invalid {
			f.Lines = append(f.Lines, fmt.Sprintf("rule %d ignored: %v", p.Index+1, p.Err))
		}
	}
	if s == nil || len(s.rules) == 0 {
		f.Lines = append(f.Lines, "no rule is kept")
		return f
	}
	if why := uncounted(&st); why != "" {
		f.Lines = append(f.Lines, "rules do not count: "+why)
		return f
	}
	st.Cwd = path.Clean(st.Cwd)
	v := newView(&st)
	if v.words != nil {
		for _, key := range [2]string{commandKey(v.words, false), commandKey(v.words, true)} {
			for _, k := range s.command[key] {
				if s.pats[k].matchWords(v.words) && within(st.Cwd, s.rules[k].Cwd) {
					f.Allow, f.Rules = true, []Rule{s.rules[k]}
					f.Lines = append(f.Lines, "rule "+quote(s.rules[k].Pattern)+" kept in "+s.rules[k].Cwd+" covers the command")
					return f
				}
			}
		}
	}
	if c, ok := ceilingIn(st.Assessment.Classes); ok {
		f.Lines = append(f.Lines, "no command rule covers it, and a verb rule never lifts `"+c.String()+"`")
		return f
	}
	if rules, why := s.verbCover(&st, &v); why == "" {
		f.Allow, f.Rules = true, rules
		names := make([]string, len(rules))
		for i, r := range rules {
			names[i] = quote(r.Pattern)
		}
		f.Lines = append(f.Lines, "verb rules "+strings.Join(names, ", ")+" cover every segment")
		return f
	} else if len(s.verb) > 0 {
		f.Lines = append(f.Lines, "no rule covers it: "+why)
		return f
	}
	f.Lines = append(f.Lines, "no rule covers it")
	return f
}

// verbCover finds a verb rule for each segment of the step, or says which
// segment none covers.
func (s *Set) verbCover(st *Step, v *view) ([]Rule, string) {
	if len(s.verb) == 0 {
		return nil, "no verb rule is kept"
	}
	if len(v.script.Opaque) > 0 || len(v.script.Segments) == 0 {
		return nil, "sayso cannot read the command"
	}
	v.segments()
	var out []Rule
	for i := range v.script.Segments {
		seg := &v.script.Segments[i]
		if v.segWhy[i] != "" {
			return nil, segText(seg) + ": " + v.segWhy[i]
		}
		hit := -1
		for _, k := range s.verb[seg.Args[0].Value] {
			if verbCovers(&s.pats[k], seg) && within(st.Cwd, s.rules[k].Cwd) {
				hit = k
				break
			}
		}
		if hit < 0 {
			return nil, "no verb rule covers " + segText(seg)
		}
		out = append(out, s.rules[hit])
	}
	return out, ""
}

// uncounted says why no rule counts for a step, whatever its words.
func uncounted(st *Step) string {
	switch {
	case !ShellTool(st.Tool):
		return "rules count only for shell steps"
	case st.Held:
		return "the session is held"
	case st.Guest:
		return "the session holds guest words"
	case !path.IsAbs(st.Cwd):
		return "the step's folder is not known"
	}
	if why := unliftable(st.Assessment.Classes); why != "" {
		return why
	}
	if each := st.EachTime & st.Assessment.Classes; !each.Empty() {
		return "the person sees `" + each.Top().String() + "` each time"
	}
	return ""
}

// commandKey indexes command rules: an exact rule by all its words; a rule
// whose last word ends in * by the words before it and the last word up to
// its first '/' (git push origin feature/). A step is looked up under both.
func commandKey(words []string, star bool) string {
	if !star {
		return strings.Join(words, " ")
	}
	n := len(words) - 1
	last := words[n]
	i := strings.IndexByte(last, '/')
	if i < 0 {
		return ""
	}
	return strings.Join(words[:n], " ") + "\x00" + last[:i+1]
}

// within reports whether dir is folder or below it. Both are absolute and
// clean; the rule's is validated, the step's comes from the caller.
func within(dir, folder string) bool {
	if folder == "/" {
		return strings.HasPrefix(dir, "/")
	}
	rest, ok := strings.CutPrefix(dir, folder)
	return ok && (rest == "" || rest[0] == '/')
}
