package web

import (
	"path"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// cardView is a card as the page draws it: every sentence is made here
// from the card's fields and its diagnostic's, never taken from what the
// terminal prints.
type cardView struct {
	card.Card
	Headline string   // the step's effect, in plain words
	Effects  []effect // everything the step does that made sayso ask
	Badge    badge
	Name     string // agent · folder · session started-at
	Project  string // the project's folder, short: its queue row names it
	Tiers    []tierView
	Preview  *preview // what "Always allow" also allows and never will; nil without an offer
	NoOffer  string   // why there is no "Always allow", in plain words
	Lease    string   // the lease category that would cover the step, or ""
}

type effect struct {
	Class  string
	Reason string // the finding's reason kind, a stable identifier
	What   string // its words, rendered from the kind
}

type tierView struct {
	N       int
	Name    string
	Decided bool
	Why     string
}

// badge is the card's severity: Level is the CSS hook, Label what it says.
type badge struct {
	Level string // never, severe, ceiling, risky
	Label string // never, severe, ceiling, network, opaque, count, …
	Class string // the most severe class
}

// preview says what a kept rule covers besides this step, and what it
// never covers.
type preview struct {
	Rule    string
	Folder  string
	Star    string // the fixed text before the last word's *, "" when none
	Also    []string
	NotEver []string
}

func newCardView(c card.Card, started time.Time) cardView {
	v := cardView{Card: c}
	v.Effects = effects(c)
	v.Badge = badgeOf(c.Classes)
	switch {
	case len(v.Effects) > 0:
		v.Headline = capital(v.Effects[0].What)
	case c.Step != "":
		v.Headline = headlineOf(c.Tool, c.Step)
	}
	if len(v.Effects) > 0 {
		v.Effects = v.Effects[1:]
	}
	if slices.Contains(LeaseCategories(), v.Badge.Class) {
		v.Lease = v.Badge.Class
	}
	v.Name = sessionName(c.Agent, c.Cwd, started)
	if c.Cwd != "" {
		v.Project = shortFolder(c.Cwd)
	}
	if d := c.Diagnostic; d != nil {
		for _, t := range d.Tiers {
			v.Tiers = append(v.Tiers, tierView{N: int(t.ID), Name: t.ID.String(), Decided: t.Decided, Why: tierWhy(t, d)})
		}
	}
	if len(c.Offer) > 0 {
		v.Preview = previewOf(c)
	} else {
		v.NoOffer = unquote(c.NoOffer)
	}
	return v
}

// effects are the diagnostic's findings of the classes that ask, most
// severe first, each said once; without a diagnostic, the classes.
func effects(c card.Card) []effect {
	var out []effect
	if d := c.Diagnostic; d != nil {
		fs := slices.Clone(d.Assessment.Findings)
		slices.SortStableFunc(fs, func(a, b risk.Finding) int { return b.Class.Severity() - a.Class.Severity() })
		seen := map[string]bool{}
		for _, f := range fs {
			if k := f.Class.Kind(); k == risk.KindSafe || k == risk.KindLocal {
				continue
			}
			what := unquote(f.Reason.String())
			if what == "" {
				continue
			}
			if seen[what] {
				continue
			}
			seen[what] = true
			out = append(out, effect{Class: f.Class.String(), Reason: f.Reason.Kind.String(), What: what})
		}
	}
	return out
}

// verbOf is what the card says the step does, by what risk's table of
// the agents' tools says the tool is.
// headlineOf is a step with no effect to lead with, in words: its
// verb and the step. A step of a tool that is not the shell already
// names the tool ("Write: write /p/x", "mcp__x__y"): it is not said twice.
func headlineOf(tool, step string) string {
	if rest, ok := strings.CutPrefix(step, tool+": "); ok && tool != "" {
		if strings.HasPrefix(rest, "/") || strings.Contains(rest, "://") {
			return capital(verbOf(tool)) + " " + rest
		}
		return capital(rest)
	}
	if step == tool {
		return "Use " + tool
	}
	return capital(verbOf(tool)) + " " + step
}

func verbOf(tool string) string {
	if tool == "" {
		return "run"
	}
	switch risk.KindOfTool(tool) {
	case risk.ToolShell:
		return "run"
	case risk.ToolWrite, risk.ToolMultiEdit, risk.ToolPatch:
		return "write"
	case risk.ToolRead:
		return "read"
	case risk.ToolFetch:
		return "fetch"
	}
	return "use " + tool + ":"
}

// badgeOf names the step's severity from its most severe class.
func badgeOf(classes []string) badge {
	c := card.Gravest(classes)
	b := badge{Level: "risky", Label: c.String(), Class: c.String()}
	switch c.Kind() {
	case risk.KindNever:
		b.Level, b.Label = "never", "never"
	case risk.KindSevere:
		b.Level, b.Label = "severe", "severe"
	case risk.KindCeiling:
		b.Level, b.Label = "ceiling", "ceiling"
	}
	return b
}

// sessionName is how the page names a session: agent · folder · started.
func sessionName(agent, cwd string, started time.Time) string {
	var parts []string
	if agent != "" {
		parts = append(parts, agent)
	}
	if cwd != "" {
		parts = append(parts, shortFolder(cwd))
	}
	if !started.IsZero() {
		parts = append(parts, "started "+started.Local().Format("Jan 2 15:04"))
	}
	if len(parts) == 0 {
		return "a session"
	}
	return strings.Join(parts, " · ")
}

// shortFolder is a folder's last two names: enough to tell projects apart.
func shortFolder(dir string) string {
	dir = path.Clean(dir)
	parent, base := path.Split(dir)
	if p := path.Base(path.Clean(parent)); p != "/" && p != "." && base != "" {
		return p + "/" + base
	}
	return dir
}

func previewOf(c card.Card) *preview {
	r := c.Offer[0]
	p := &preview{Rule: c.OfferText(), Folder: r.Cwd}
	if strings.HasSuffix(r.Pattern, "*") {
		words := strings.Fields(r.Pattern)
		p.Star = strings.TrimSuffix(words[len(words)-1], "*")
	}
	p.Also = []string{
		"the same words run in " + r.Cwd + " or any folder below it",
		"in every session, by every agent, until you forget it on the Rules page",
	}
	if p.Star != "" {
		p.Also = append(p.Also, "with any plain name after "+p.Star+" in place of the last word")
		p.NotEver = append(p.NotEver, "a last word where * stands for “:”, “..”, a space, or nothing at all")
	}
	p.NotEver = append(p.NotEver,
		"the same command with anything added before or after it",
		"the same command inside a pipe, a list (; && ||) or a script",
		"anywhere outside "+r.Cwd,
	)
	return p
}

// unquote turns a terminal sentence's `x` marks into plain text and its
// straight quotes around "always" into the page's own.
func unquote(s string) string {
	s = strings.ReplaceAll(s, "`", "")
	s = strings.ReplaceAll(s, `"always"`, "“Always allow”")
	s = strings.ReplaceAll(s, "the person answers each time", "you answer it each time")
	s = strings.ReplaceAll(s, "the person asked", "you asked")
	return strings.TrimSpace(s)
}

func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// tierWhy says what a tier found, for the page, from the tier's reason
// and the diagnostic's fields; a reason it has no words for keeps the
// tier's own sentence.
func tierWhy(t policy.Tier, d *policy.Diagnostic) string {
	var asking []string
	for _, c := range d.Assessment.Classes.Classes() {
		if k := c.Kind(); k != risk.KindSafe && k != risk.KindLocal {
			asking = append(asking, c.String())
		}
	}
	classes := strings.Join(asking, ", ")
	switch t.Reason {
	case policy.ReasonNone:
		switch t.ID {
		case policy.TierNever:
			return "nothing of sayso's own is touched"
		case policy.TierHeld:
			return "the session is not held"
		case policy.TierExplicitDeny:
			return "no deny entry of your policy file matches"
		case policy.TierExplicitAsk:
			return "no ask entry of your policy file matches"
		case policy.TierLease:
			return "no lease is needed"
		case policy.TierCeiling:
			return "no class here is a ceiling"
		case policy.TierScope:
			return "every path is inside the project"
		}
	case policy.ReasonProtected:
		return "it touches sayso's own files or settings: nothing lets that through"
	case policy.ReasonHeld:
		return "the session is held: only reading goes on until you release it"
	case policy.ReasonController:
		return "another session holds your newest message: this one may only read"
	case policy.ReasonBreaker:
		if d.Trip != nil {
			return d.Trip.String()
		}
		return "the circuit breaker tripped"
	case policy.ReasonReadsOnly:
		return "the session is held, but this step only reads"
	case policy.ReasonDenyEntry, policy.ReasonDenyRow:
		return "your policy file denies it"
	case policy.ReasonAskEntry, policy.ReasonAskRow:
		return "your policy file asks about it"
	case policy.ReasonLease:
		return "a lease you granted covers it"
	case policy.ReasonNoLease:
		return "no lease you granted covers " + classes
	case policy.ReasonCeiling:
		return classes + ": no mode lets this through by itself; only you can, one step at a time"
	case policy.ReasonRule:
		return "a rule you kept covers it"
	case policy.ReasonAllowEntry:
		return "an allow entry of your policy file covers it"
	case policy.ReasonReviewer:
		return "the reviewer found that you asked for it"
	case policy.ReasonOutOfScope:
		var paths []string
		for _, p := range d.OutOfScope {
			w := p.Raw
			if w == "" {
				w = p.Path
			}
			paths = append(paths, p.Op.String()+" "+w)
		}
		return "it acts outside the project: " + strings.Join(paths, ", ")
	case policy.ReasonUnscoped:
		return "autopilot holds no path of it to the project"
	case policy.ReasonUnwalled:
		return "the mode would let it through, but there is no wall to run it in"
	case policy.ReasonAutopilot:
		return "autopilot lets it through"
	case policy.ReasonWildcard:
		return "autopilot, by the autonomy wildcard, lets it through"
	case policy.ReasonApproveRow:
		return "an auto_approve row of the project lets it through"
	case policy.ReasonPerson:
		return "you decide"
	}
	return unquote(t.Why)
}
