package policy

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

var defaultPolicy = Defaults()

func policyOf(req *Request) *Policy {
	if req.Policy == nil {
		return defaultPolicy
	}
	return req.Policy
}

// assess classifies the step where it runs, with the policy's protected
// paths and trusted hosts.
func assess(req *Request, pol *Policy, w *where) risk.Assessment {
	ctx := &w.ctx
	if len(pol.ProtectedPaths) > 0 {
		ctx.Protected = append(append([]string(nil), ctx.Protected...), expandAll(pol.ProtectedPaths, ctx.Home)...)
	}
	if pol.TrustedHosts != nil && ctx.TrustedHosts == nil {
		ctx.TrustedHosts = pol.TrustedHosts
	}
	if req.Tool == "" || risk.ShellTool(req.Tool) && !req.Use.Given {
		return risk.Classify(shell.Parse(req.Command), *ctx)
	}
	u := req.Use
	u.Tool = req.Tool
	return risk.Tool(u, *ctx)
}

func expandAll(ps []string, home string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if p = expandHome(p, home); p != "" && strings.HasPrefix(p, "/") {
			out = append(out, p)
		}
	}
	return out
}

// Evaluate decides a step. Every tier is consulted and reported, even after
// one has decided: the diagnostic never stops early. The first tier that
// decides, decides. It is pure and deterministic: the same request gives
// the same decision and diagnostic.
func Evaluate(req Request) (Decision, Diagnostic) {
	pol := policyOf(&req)
	capped := ""
	if limit, why := pol.modeCap(); req.Mode > limit {
		req.Mode, capped = limit, why
	}
	w := place(&req, pol)
	a := assess(&req, pol, &w)
	withLinks(&a, req.Links, &w)
	withRepos(&a, req.Repos)
	if a.Script != nil && len(a.Script.Segments) > 0 {
		for _, f := range risk.NamedProtected(a.Script, w.ctx) {
			a.Classes = a.Classes.Add(f.Class)
			a.Findings = append(a.Findings, f)
		}
	}
	withProjectPolicy(&a, &req, &w)
	st := step{tool: req.Tool, classes: a.Classes}
	if st.tool == "" {
		st.tool = "Bash"
	}
	st.shell = shellName(st.tool)
	if st.shell {
		st.script = a.Script
		st.command = req.Command
		if req.Use.HasCommand && risk.ShellTool(st.tool) {
			st.command = req.Use.Command
		}
	}
	e := &evaluation{req: &req, pol: pol, w: &w, st: &st}
	e.d = Diagnostic{Where: w.String(), Problems: pol.Problems, Tiers: make([]Tier, 0, 9), Hosts: egressHosts(w.ctx.TrustedHosts), Seen: req.Seen,
		ApprovedWrites: expandAll(pol.ApprovedWrites, w.ctx.Home), ProtectedPaths: expandAll(pol.ProtectedPaths, w.ctx.Home)}
	e.classPatterns(&a)
	e.parallel(&a)
	st.classes = a.Classes
	e.d.Assessment = a
	if capped != "" {
		e.d.Problems = append(append([]Problem(nil), e.d.Problems...), Problem{Source: Source{File: "org bundle"}, Text: capped})
	}
	e.run()
	e.d.NoRule = noRule(&req, e.d.Mode, pol.ShowEachTime&a.Classes)
	e.d.Unit = pol.Agents[req.Agent].RuleUnit
	e.d.Reasons = reasons(e.decision, &e.d)
	if req.Review.Asked && !req.Review.Allow && e.decision != Allow {
		e.d.Reasons = append(e.d.Reasons, "the reviewer did not find that the person asked for it: "+req.Review.Why)
	}
	e.d.Plan = PlanOf(e.decision, &e.d, &req)
	return e.decision, e.d
}

// evaluation is one run of the tiers.
type evaluation struct {
	req      *Request
	pol      *Policy
	w        *where
	st       *step
	d        Diagnostic
	decision Decision
	decided  bool
}

func (e *evaluation) tier(id TierID, r Reason, outcome *Decision, why string) {
	t := Tier{ID: id, Reason: r, Why: why}
	if outcome != nil && !e.decided {
		e.decision, e.decided, t.Decided = *outcome, true, true
	}
	e.d.Tiers = append(e.d.Tiers, t)
}

// explicitTier is tier 3 or 4: the policy file's entries of one effect,
// then an autonomy row of the value that means the same.
type explicitTier struct {
	id               TierID
	effect           Decision
	kind             MatchKind
	row              Autonomy
	byEntry, byRow   Reason
	entryWhy, rowWhy string // the sentence's start; the source ends it
	none             string
}

var explicitTiers = [...]explicitTier{
	{TierExplicitDeny, Deny, MatchDenyEntry, DenyTool, ReasonDenyEntry, ReasonDenyRow,
		"the policy file denies it", "the autonomy row denies ", "no deny entry or row matches"},
	{TierExplicitAsk, Ask, MatchAskEntry, RequireApproval, ReasonAskEntry, ReasonAskRow,
		"the policy file asks, in every mode", "the autonomy row requires approval for ", "no ask entry or row matches"},
}

// explicit decides tier t from the policy file's entries and the
// autonomy row auto, recording every entry that matched.
func (e *evaluation) explicit(pol *Policy, auto Resolved, t explicitTier) {
	hits := pol.matchEntries(t.effect, e.st)
	for _, i := range hits {
		e.match(t.id, t.kind, pol.Entries[i].Source.String(), describeEntry(&pol.Entries[i]))
	}
	outcome := t.effect
	switch {
	case len(hits) > 0:
		e.tier(t.id, t.byEntry, &outcome, t.entryWhy+" ("+pol.Entries[hits[0]].Source.String()+")")
	case auto.Found && auto.Value == t.row:
		e.tier(t.id, t.byRow, &outcome, t.rowWhy+e.st.tool+" ("+auto.Row.Source.String()+")")
	default:
		e.tier(t.id, ReasonNone, nil, t.none)
	}
}

func (e *evaluation) match(tier TierID, kind MatchKind, source, text string) {
	e.d.Matches = append(e.d.Matches, Match{Tier: tier, Kind: kind, Source: source, Text: text})
}

// classPatterns puts tools into the classes the policy file names for them.
func (e *evaluation) classPatterns(a *risk.Assessment) {
	for _, c := range e.pol.Classes {
		if e.req.Tool != "" && toolMatch(c.Pattern, e.st.tool) && !shellName(c.Pattern) {
			addFinding(a, c.Class, fmt.Sprintf("%s is put in %s by the policy file (%s)", e.st.tool, c.Class, c.Source))
			e.match(TierNone, MatchClassPattern, c.Source.String(), c.Pattern+" = "+c.Class.String())
		}
	}
}

// parallel counts a sub-agent spawn against max_parallel.
func (e *evaluation) parallel(a *risk.Assessment) {
	if risk.KindOfTool(e.req.Tool) != risk.ToolAgent {
		return
	}
	max := e.pol.MaxParallel
	if max <= 0 {
		max = DefaultMaxParallel
	}
	if e.req.Session.Tasks+1 > max {
		addFinding(a, risk.Parallelize, fmt.Sprintf("a sub-agent past max_parallel: %d running, %d allowed", e.req.Session.Tasks, max))
	}
}

// withProjectPolicy protects the project's own policy file: the person's
// deny and ask entries there must not be taken out by the agent.
func withProjectPolicy(a *risk.Assessment, req *Request, w *where) {
	dirs := []string{w.ctx.Root + "/.sayso"}
	if w.container {
		dirs = append(dirs, w.hostRoot+"/.sayso")
	} else if req.Context.Root != "" {
		dirs[0] = req.Context.Root + "/.sayso"
	}
	for _, p := range a.Paths {
		if p.Op == risk.OpRead || p.Path == "" {
			continue
		}
		for _, d := range dirs {
			// .Sayso is .sayso on a case-insensitive file system.
			if d != "/.sayso" && (within(p.Path, d) || within(strings.ToLower(p.Path), strings.ToLower(d))) {
				addFinding(a, risk.Protected, p.Op.String()+"s the project's sayso policy ("+p.Raw+"): only the person edits it")
			}
		}
	}
}

func (e *evaluation) run() {
	deny, ask, allow := Deny, Ask, Allow
	req, pol, classes := e.req, e.pol, e.st.classes
	ceilings := ceilingSet(classes)

	// 1. Never.
	if classes.Has(risk.Protected) {
		e.tier(TierNever, ReasonProtected, &deny, "the step touches sayso itself: "+whyOf(&e.d.Assessment, risk.Protected))
	} else {
		e.tier(TierNever, ReasonNone, nil, "no protected path or sayso setting is touched")
	}

	// 2. Held.
	h := held(&req.Session, pol, req.Now)
	heldWhy := h.why
	e.d.Trip = h.trip
	switch {
	case h.reason != ReasonNone && classes != risk.Of(risk.Read):
		e.tier(TierHeld, h.reason, &deny, heldWhy+"; only reading is let through")
	case h.reason != ReasonNone:
		e.tier(TierHeld, ReasonReadsOnly, nil, heldWhy+"; the step only reads")
	default:
		e.tier(TierHeld, ReasonNone, nil, "the session is not held")
	}

	// 3. and 4. The person's policy file: entries and autonomy rows.
	auto := pol.ResolveAutonomy(req.Agent, e.st.tool)
	if limit, _ := pol.modeCap(); limit < ModeAutopilot && auto.Found && auto.Value == AutoApprove {
		// An approving row is autopilot for its tools: a cap below
		// autopilot sets it aside.
		auto = Resolved{}
	}
	if auto.Found {
		origin := "specific"
		if auto.Wildcard {
			origin = "wildcard"
		}
		text := fmt.Sprintf("[autonomy.%s] %q = %s (%s)", auto.Row.Agent, auto.Row.Pattern, auto.Row.Value, origin)
		if auto.Wildcard && auto.Specific != nil {
			text += fmt.Sprintf("; the specific %q = %s at %s resolves as the wildcard", auto.Specific.Pattern, auto.Specific.Value, auto.Specific.Source)
		}
		e.match(tierOfAutonomy(auto.Value), MatchAutonomyRow, auto.Row.Source.String(), text)
	}
	for _, t := range explicitTiers {
		e.explicit(pol, auto, t)
	}

	// 5. Lease. A lease is for the action it names: a step that also
	// hides what it runs (opaque) is not that action alone.
	leaseAt, leaseWhy := coveringLease(req, e.w, &e.d.Assessment, ceilings)
	restWhy := ""
	if leaseAt >= 0 {
		restWhy = e.leaseRest(req.Leases[leaseAt].Category, classes)
	}
	if i := leaseAt; i >= 0 && heldWhy == "" && !classes.Has(risk.Opaque) && restWhy == "" {
		l := req.Leases[i]
		e.match(TierLease, MatchLease, "lease "+l.ID, "one "+l.Category.String()+" step in "+l.Cwd)
		if !e.decided {
			e.d.Lease = l.ID
		}
		e.tier(TierLease, ReasonLease, &allow, "a lease the person granted covers this "+l.Category.String()+" step; it is consumed")
	} else if i >= 0 && classes.Has(risk.Opaque) {
		e.tier(TierLease, ReasonNoLease, nil, "a lease covers "+ceilings.String()+", not what this step hides (opaque)")
	} else if i >= 0 && restWhy != "" && heldWhy == "" {
		e.tier(TierLease, ReasonNoLease, nil, "a lease covers "+ceilings.String()+", not the rest of this step: "+restWhy)
	} else if !ceilings.Empty() {
		if leaseAt >= 0 {
			leaseWhy = "the session is held: no lease is spent"
		}
		e.tier(TierLease, ReasonNoLease, nil, leaseWhy)
	} else {
		e.tier(TierLease, ReasonNone, nil, "no ceiling to lease")
	}

	// The person's standing words: their kept rules and allow entries.
	liftable := heldWhy == "" && rulesMayCover(classes) && !req.Session.Guest
	allows := pol.matchEntries(Allow, e.st)
	if len(allows) > 0 && !rulesMayCover(classes) {
		for _, i := range allows {
			e.match(TierCeiling, MatchAllowUncounted, pol.Entries[i].Source.String(), describeEntry(&pol.Entries[i])+": no allow covers "+classes.String())
		}
		allows = nil
	}
	for _, i := range allows {
		e.match(TierCeiling, MatchAllowEntry, pol.Entries[i].Source.String(), describeEntry(&pol.Entries[i]))
	}
	var rules RuleAnswer
	if req.Rules != nil && e.st.shell && liftable && req.Mode != ModeAsk {
		rules = req.Rules(RuleQuery{Tool: e.st.tool, Command: e.st.command, Cwd: req.Context.Cwd, Assessment: e.d.Assessment, Held: heldWhy != "", Guest: req.Session.Guest, EachTime: pol.ShowEachTime})
		for _, l := range rules.Lines {
			e.match(TierCeiling, MatchRules, "rule store", l)
		}
	}
	ruleFound := rules.Allow
	ruleText := strings.Join(rules.Rules, ", ")
	reviewWaives := req.Mode == ModeAuto && heldWhy == "" && reviewerMayWaive(classes)
	reviewAllows := reviewWaives && req.Review.Asked && req.Review.Allow

	// 6. Ceilings.
	if !ceilings.Empty() {
		why := ceilings.String() + " is a ceiling: no mode approves it by itself, only the person, for this step"
		switch {
		case ruleFound && rulesName(rules.Rules, outsideWrites(e)):
			e.tier(TierCeiling, ReasonRule, &allow, why+"; the person's own rule "+ruleText+" covers exactly this command")
		case len(allows) > 0 && e.st.shell && allCommandEntries(pol, allows) && !classes.Any(risk.KindSevere):
			e.tier(TierCeiling, ReasonAllowEntry, &allow, why+"; the person's allow entry names exactly this command ("+pol.Entries[allows[0]].Source.String()+")")
		case reviewAllows:
			e.tier(TierCeiling, ReasonReviewer, &allow, why+"; the reviewer found the person asked for exactly this step: "+req.Review.Why)
		default:
			e.tier(TierCeiling, ReasonCeiling, &ask, why)
		}
	} else {
		e.tier(TierCeiling, ReasonNone, nil, "no ceiling class")
	}

	// 7. Scope.
	mode := req.Mode
	if auto.Found && auto.Value == AutoApprove && auto.Wildcard {
		mode = ModeAutopilot
	}
	e.d.Mode = mode
	outOfScope := e.scope(mode)

	// 8. Mode. A shell step the mode alone lets through runs inside the
	// wall; where there is none, auto and autopilot let only reading through.
	unwalled := e.st.shell && !req.Wall.On && !pol.AutoWithoutWall && classes != risk.Of(risk.Read)
	noWall := "there is no wall to run it in (" + wallWhy(req.Wall) + "): without it auto and autopilot ask about anything but reading"
	if e.st.shell && req.Wall.On && req.Wall.Partial && !pol.AutoWithoutWall && req.Wall.leans(e.d.Assessment, classes) {
		unwalled = true
		noWall = "sayso's wall is only partly there (" + wallWhy(req.Wall) + "): auto and autopilot ask about anything but reading and the writes sayso reads on the command line"
	}
	reach := ReachWide
	switch {
	case (mode == ModeAutopilot || auto.Found && auto.Value == AutoApprove && !outOfScope || mode == ModeAuto && risk.Safe(classes) && !outOfScope) && unwalled && len(allows) == 0 && !ruleFound && !reviewAllows:
		e.d.Unwalled = true
		e.tier(TierMode, ReasonUnwalled, nil, noWall)
	case mode == ModeAutopilot:
		why, r := "autopilot approves everything but ceilings", ReasonAutopilot
		if req.Mode != ModeAutopilot {
			r = ReasonWildcard
			why = "autopilot by the autonomy wildcard (" + auto.Row.Source.String() + "): it approves everything but ceilings"
		}
		e.tier(TierMode, r, &allow, why)
	case auto.Found && auto.Value == AutoApprove && !outOfScope:
		reach = ReachProject
		e.tier(TierMode, ReasonApproveRow, &allow, "the autonomy row approves "+e.st.tool+" in the project ("+auto.Row.Source.String()+")")
	case len(allows) > 0 && ceilings.Empty():
		e.tier(TierMode, ReasonAllowEntry, &allow, "the person's allow entry covers it ("+pol.Entries[allows[0]].Source.String()+")")
	case mode == ModeAuto && risk.Safe(classes) && !outOfScope:
		reach = ReachProject
		e.tier(TierMode, ReasonMode, &allow, "auto allows reading and local work in the project")
	case mode == ModeAuto && reviewAllows && ceilings.Empty():
		e.tier(TierMode, ReasonReviewer, &allow, "the reviewer found the person asked for this step: "+req.Review.Why)
	case mode == ModeAuto && ruleFound && ceilings.Empty() && rulesName(rules.Rules, e.d.OutOfScope):
		e.tier(TierMode, ReasonRule, &allow, "the person's rule "+ruleText+" covers it")
	case mode == ModeAuto:
		e.tier(TierMode, ReasonMode, nil, "auto asks about "+riskWords(classes, outOfScope))
	case mode == ModeAsk && classes == risk.Of(risk.Read) && !outOfScope:
		reach = ReachProject
		e.tier(TierMode, ReasonMode, &allow, "ask mode allows reading in the project")
	default:
		e.tier(TierMode, ReasonMode, nil, "ask mode asks before anything but reading in the project")
	}

	// 9. Ask.
	e.tier(TierAsk, ReasonPerson, &ask, "the person decides")
	if e.st.shell && e.decision != Deny {
		// A tier before the mode decided: the person's own say-so, or a
		// question only the person answers.
		switch e.d.Decided().ID {
		case TierMode:
		case TierLease:
			// The lease lifts its one action; the rest of the step is what
			// the mode lets through, and runs as far as the mode reaches.
			reach = ReachProject
			if mode == ModeAutopilot {
				reach = ReachWide
			}
		default:
			reach = ReachWide
		}
		e.d.Reach = reach
	}
	if pol.Team.CI && e.decision == Ask {
		e.decision = Deny
		e.d.Tiers = append(e.d.Tiers, Tier{ID: TierAsk, Reason: ReasonNoPerson, Why: "a CI node has no person to ask: what would ask is denied"})
	}
	e.d.Reviewable = e.decision == Ask && reviewWaives && !req.Review.Asked && e.d.Decided().ID != TierExplicitAsk && !classes.Any(risk.KindNever)
}

// outside returns the paths the step writes, deletes, moves or runs
// outside the root, and those it reads there.
func (e *evaluation) outside() (out, reads []risk.PathUse) {
	w := e.w
	for _, p := range e.d.Assessment.Paths {
		hostPath := w.container && p.Path != "" && within(p.Path, w.hostRoot) && !within(p.Path, w.mount)
		switch {
		case hostPath:
			out = append(out, p) // it does not exist in the container
		case w.ctx.InScope(p.Path):
		case !w.container && w.ctx.Scratch(p.Path):
			// The temporary folders: the wall lets every step write them.
		case p.Op == risk.OpRead:
			reads = append(reads, p)
		default:
			out = append(out, p)
		}
	}
	return out, reads
}

// rulesName reports whether the kept rules that covered a step name every
// path it writes outside the root (seed 004 §6): a kept rule of either
// unit never lifts scope it does not name. A path is named when a word of
// a rule other than its * — the rule's own words — is the path as the
// step wrote it, or ends in "=" and it.
func rulesName(rules []string, out []risk.PathUse) bool {
	for _, p := range out {
		named := false
		for _, r := range rules {
			for _, w := range strings.Fields(r) {
				if !strings.Contains(w, "*") && p.Raw != "" && (w == p.Raw || strings.HasSuffix(w, "="+p.Raw)) {
					named = true
				}
			}
		}
		if !named {
			return false
		}
	}
	return true
}

// leaseRest says why the rest of a step a lease of category cat covers —
// every class but cat, every path it writes — is more than the mode lets
// through by itself, or "": a lease lifts one action, never what rides
// along with it (project code run wide, a fetch, a write elsewhere).
func (e *evaluation) leaseRest(cat risk.Class, classes risk.Set) string {
	rest := classes.Without(cat)
	mode := e.req.Mode
	switch {
	case mode == ModeAsk && !rest.Without(risk.Read).Empty():
		return "ask mode asks about " + rest.Without(risk.Read).String()
	case mode == ModeAuto && !risk.Safe(rest):
		return "auto asks about " + rest.Without(risk.Read).Without(risk.LocalWrite).String()
	case mode != ModeAutopilot && e.st.shell && !e.req.Wall.On && !e.pol.AutoWithoutWall && !rest.Without(risk.Read).Empty():
		return "there is no wall to run its " + rest.Without(risk.Read).String() + " in"
	case mode != ModeAutopilot && e.st.shell && e.req.Wall.On && !e.pol.AutoWithoutWall && e.req.Wall.leans(e.d.Assessment, rest):
		return "sayso's wall is only partly there to run its " + rest.Without(risk.Read).String() + " in"
	}
	if mode == ModeAutopilot {
		return ""
	}
	for _, p := range e.d.Assessment.Paths {
		if p.Op != risk.OpRead && p.Path != "" && !e.w.ctx.InScope(p.Path) && !e.w.container {
			return p.Op.String() + "s " + p.Path + ", outside " + e.w.ctx.Root
		}
	}
	return ""
}

// scope holds the step's paths against the root and reports the tier.
func (e *evaluation) scope(mode Mode) bool {
	w := e.w
	e.d.OutOfScope, e.d.ReadsOut = e.outside()
	out := len(e.d.OutOfScope) > 0 || mode == ModeAsk && len(e.d.ReadsOut) > 0
	switch {
	case mode == ModeAutopilot:
		e.tier(TierScope, ReasonUnscoped, nil, "autopilot does not hold steps to the project folder")
	case out:
		e.tier(TierScope, ReasonOutOfScope, nil, "out of scope "+w.scopeWords()+": "+describePaths(e.d.OutOfScope, e.d.ReadsOut, mode, w)+"; the mode alone will not allow it")
	default:
		e.tier(TierScope, ReasonNone, nil, "every path is inside "+w.scopeWords())
	}
	return out
}

func (w *where) scopeWords() string {
	if w.container {
		return w.mount + " and the container's /tmp"
	}
	return w.ctx.Root
}

func wallWhy(w Wall) string {
	if w.Why == "" {
		return "the wall is not applied here"
	}
	return w.Why
}

func tierOfAutonomy(v Autonomy) TierID {
	switch v {
	case DenyTool:
		return TierExplicitDeny
	case RequireApproval:
		return TierExplicitAsk
	}
	return TierMode
}

func describeEntry(e *Entry) string {
	var parts []string
	parts = append(parts, "["+e.Effect.String()+"]")
	if e.Tool != "" {
		parts = append(parts, "tool = "+e.Tool)
	}
	if e.Command != "" {
		parts = append(parts, fmt.Sprintf("command = %q", e.Command))
	}
	if e.ByClass {
		parts = append(parts, "class = "+e.Class.String())
	}
	return strings.Join(parts, " ")
}

func allCommandEntries(pol *Policy, is []int) bool {
	for _, i := range is {
		if pol.Entries[i].Command == "" {
			return false
		}
	}
	return true
}

// rulesMayCover reports whether a rule or allow entry may be consulted for
// a step of these classes: risk's table of class gates says.
func rulesMayCover(s risk.Set) bool { return s.Liftable() }

// reviewerMayWaive reports whether the reviewer may waive a step of these
// classes: risk's table of class gates says.
func reviewerMayWaive(s risk.Set) bool { return s.Waivable() }

func ceilingSet(s risk.Set) risk.Set {
	var out risk.Set
	for _, c := range s.Classes() {
		if c.Ceiling() {
			out = out.Add(c)
		}
	}
	return out
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

func describePaths(out, reads []risk.PathUse, m Mode, w *where) string {
	var parts []string
	for _, p := range out {
		name := p.Path
		if name == "" {
			name = p.Raw + " (cannot be known)"
		} else if w.container && within(p.Path, w.hostRoot) {
			name += " (a host path, not there in the container)"
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

// noRule says why a card about the step may offer no rule, whatever its
// words (seed 000 §3): rules are offered in auto and autopilot only, never
// in a held session, and never for someone else's words.
func noRule(req *Request, mode Mode, eachTime risk.Set) string {
	switch {
	case !eachTime.Empty():
		return "the person asked to see " + eachTime.String() + " each time: no rule is offered for it"
	case req.Session.Held:
		return "the session is held: the person answers each step"
	case req.Session.Guest:
		return "the session holds someone else's words: no rule is kept on them"
	case mode == ModeAsk:
		return "the session is in ask mode: the person answers each step, and rules are offered in auto and autopilot only"
	}
	return ""
}

func outsideWrites(e *evaluation) []risk.PathUse {
	out, _ := e.outside()
	return out
}

// egressHosts are the hosts a walled step's traffic may reach through the
// wall's egress proxy: the trusted hosts (the registries, the policy's,
// the project's remotes), without the loopback's names and addresses in
// any spelling (127.0.0.2, ::ffff:127.0.0.1, and 0.0.0.0 or ::, which a
// connect leads to the loopback), which in a wall are the wall's own:
// a yes to git remote add for one remote is not one to open the host's
// own services to every later step.
func egressHosts(trusted []string) []string {
	if trusted == nil {
		trusted = risk.DefaultTrustedHosts
	}
	out := make([]string, 0, len(trusted))
	for _, h := range trusted {
		if strings.EqualFold(strings.TrimSuffix(h, "."), "localhost") {
			continue
		}
		if ip, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil && (ip.Unmap().IsLoopback() || ip.Unmap().IsUnspecified()) {
			continue
		}
		out = append(out, h)
	}
	return out
}
