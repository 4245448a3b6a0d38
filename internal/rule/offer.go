package rule

import (
	"path"
	"strings"
)

// Offer computes the one offer a card about step s may carry: the rules a
// press keeps, or none and why. Unit command offers the command's own
// words, a pushed branch with a '/' by its kind (feature/login →
// feature/*); unit verb offers one rule per segment it can keep, and why
// the others are not kept. There is no offer where the step is severe,
// never, held, a count or of a class no words lift, or where the command
// breaks a rule Validate holds. The rules carry the step's tool and folder;
// the caller sets CreatedAt when the person presses.
func Offer(s Step, u Unit) ([]Rule, string) {
	if why := unkept(&s); why != "" {
		return nil, why
	}
	if u == UnitVerb {
		return verbOffer(s)
	}
	words, why := simple(s.Command, s.script())
	if why != "" {
		return nil, why
	}
	r := Rule{Tool: s.Tool, Unit: UnitCommand, Pattern: strings.Join(byKind(words), " "), Cwd: s.Cwd}
	if err := Validate(r); err != nil {
		return nil, strings.TrimPrefix(err.Error(), "rule "+quote(r.Pattern)+": ")
	}
	if !Match(r, s) {
		return nil, "the rule would not match its own step"
	}
	return []Rule{r}, ""
}

// unkept says why no rule is offered for a step, whatever its words.
func unkept(s *Step) string {
	switch {
	case !ShellTool(s.Tool):
		return "rules are kept only for shell steps"
	case s.Cwd == "" || !path.IsAbs(s.Cwd):
		return "the step's folder is not known"
	case s.Held:
		return "the session is held: the person answers each step"
	}
	if why := unliftable(s.Assessment.Classes); why != "" {
		return why
	}
	for _, c := range s.EachTime.Classes() {
		if s.Assessment.Classes.Has(c) {
			return "the person asked to see `" + c.String() + "` each time"
		}
	}
	return ""
}

// byKind offers a pushed branch with a '/' in its name by its kind:
// git push origin feature/login → git push origin feature/*.
func byKind(words []string) []string {
	if len(words) != 4 || words[0] != "git" || words[1] != "push" || strings.HasPrefix(words[2], "-") {
		return words
	}
	branch := words[3]
	kind, rest, ok := strings.Cut(branch, "/")
	if !ok || rest == "" || !pinned(kind+"/") || !starCovers(rest) {
		return words
	}
	out := append([]string(nil), words...)
	out[3] = kind + "/*"
	return out
}
