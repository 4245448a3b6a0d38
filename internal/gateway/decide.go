package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/project"
	"github.com/sayso-dev/sayso/internal/review"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
)

// Decider decides steps against the store.
type Decider struct {
	DB        *store.DB
	Home      string
	ConfigDir string   // holds the person's policy.toml
	Protected []string // sayso's own paths and the hook definitions it installed
	Reviewer  *review.Reviewer
	Verdicts  *review.Cache
	Cards     *Cards // when sayso serve runs: a question waits for the person
	// Forwarders checks the binary of each process on the hooks' socket;
	// New sets one that knows only the gateway's own binary when none is
	// set.
	Forwarders *Forwarders
	// Witness checks the process at the other end of the socket for
	// person evidence (client.Procs); nil: no message is the person's.
	Witness func(peer int) client.Witness
	// Walls runs the shell steps let through inside sayso's wall; the
	// zero value has none, and auto then lets only reading through.
	Walls hook.Walls
}

// Decide implements client.Decider: the step runs on the host.
func (d *Decider) Decide(ctx context.Context, s client.Step) (policy.Decision, policy.Diagnostic, error) {
	return d.DecideIn(ctx, s, nil)
}

// DecideIn decides a step that runs in the container c, as a host declared
// it; nil is the host. The policy validates c and holds the step against
// the host when it refuses it.
func (d *Decider) DecideIn(ctx context.Context, s client.Step, c *policy.Container) (policy.Decision, policy.Diagnostic, error) {
	base, err := d.Request(ctx, s, c)
	if err != nil {
		return policy.Deny, policy.Diagnostic{}, err
	}
	pol := base.Policy
	if s.Task != "" {
		// A task's steps follow its parent's mode and hold: it must be
		// known as the parent's task before its first step is decided.
		if err := d.ensureTask(ctx, s.Agent, s.Session, s.Task, "", pol); err != nil {
			return policy.Deny, policy.Diagnostic{}, err
		}
	}
	step := store.Step{
		Session: store.NewSession{ID: SessionOf(s), Agent: s.Agent, Mode: pol.DefaultMode.String()},
		Turn:    s.Turn,
		Cwd:     s.Project(),
		Tool:    s.Tool,
		Summary: Summary(s),
		// The breaker counts as far back as the person's file says.
		BreakerWindow: pol.Breaker.Window,
		Spawn:         risk.KindOfTool(s.Tool) == risk.ToolAgent,
		Shows:         d.shows(s),
	}
	return d.finish(ctx, s, step, base)
}

// Request builds the request for the step s, on the host or in the
// container c: the project, read once for the step (package project), the
// person's and the project's policy files, the kept
// rules, sayso's protected paths, the wall. It is the one place a request
// is built — for the hook, the gateway and sayso check alike — so what
// check explains is what the hook decides. The session's own state is
// added inside the store's transaction.
func (d *Decider) Request(ctx context.Context, s client.Step, c *policy.Container) (policy.Request, error) {
	proj := project.Read(s.Project(), d.Home)
	pol := policy.Load(policy.Files{Person: filepath.Join(d.ConfigDir, "policy.toml"), Root: proj.Root, ReadFile: os.ReadFile})
	chained, err := d.DB.Chained(ctx)
	pol.SetTeam(team.Current(d.ConfigDir, now(), chained, err))
	kept, err := d.DB.Rules(ctx)
	if err != nil {
		return policy.Request{}, err
	}
	rules := rule.NewSet(ruleList(kept))
	base := policy.Request{
		Agent:   s.Agent,
		Tool:    s.Tool,
		Use:     s.Use,
		Command: s.Command,
		Dir:     s.Cwd,
		Dialog:  s.Dialog,
		Policy:  pol,
		Project: proj,
		// The repository's other work trees (git worktree list) are the
		// project as much as this one: the wall lets them be written too.
		Context: proj.Context(risk.Context{Cwd: s.Project(), Home: d.Home, Protected: d.Protected, TempDir: s.TempDir}),
		Rules:   lookup(rules),
		// A host's declared container; nil, the host, for the clients.
		Container: c,
		Wall:      d.Walls.StateFor(s),
	}
	policy.Resolve(&base, project.Disk(proj, hook.Resolver(d.Protected)))
	return base, nil
}

// finish decides the step against the store, asks the reviewer where it
// may waive the question, and waits for the person when a card can be
// answered.
func (d *Decider) finish(ctx context.Context, s client.Step, step store.Step, base policy.Request) (policy.Decision, policy.Diagnostic, error) {
	dec, diag, st, err := d.decide(ctx, step, base, policy.Review{})
	if err != nil {
		return policy.Deny, diag, err
	}
	if dec == policy.Ask && diag.Reviewable && d.Reviewer != nil {
		rv := d.review(ctx, s, base, &diag, st)
		if rv.Asked {
			if dec, diag, _, err = d.decide(ctx, step, base, rv); err != nil {
				return policy.Deny, diag, err
			}
		}
	}
	if dec == policy.Ask && d.Cards != nil {
		dec, diag, err = d.Cards.Wait(ctx, s, step, dec, diag)
		// The person's answer is their say-so for exactly this step: the
		// core plans again what it may reach.
		diag.Plan = policy.PlanOf(dec, &diag, &base)
		return dec, diag, err
	}
	return dec, diag, nil
}

// decide evaluates the step inside the store's transaction and returns the
// state it saw.
func (d *Decider) decide(ctx context.Context, step store.Step, base policy.Request, rv policy.Review) (policy.Decision, policy.Diagnostic, store.State, error) {
	var dec policy.Decision
	var diag policy.Diagnostic
	var seen store.State
	_, err := d.DB.Decide(ctx, step, func(st *store.State) store.Outcome {
		req := base
		req.Mode = modeOf(st.Live.Mode)
		req.Now = st.Now
		req.Session = sessionOf(st)
		req.Leases = leasesOf(st.Leases)
		req.Review = rv
		dec, diag = policy.Evaluate(req)
		seen = *st
		out := store.Outcome{Decision: dec.String(), Reason: firstReason(&diag), Diagnostic: diagJSON(&diag)}
		if id, err := strconv.ParseInt(diag.Lease, 10, 64); err == nil && dec == policy.Allow {
			out.Lease = id
		}
		if trip := diag.Tripped(); trip != nil && !st.Live.Held {
			out.Hold = trip.String()
		}
		out.Standing = dec == policy.Deny && diag.Decided().ID == policy.TierHeld
		return out
	})
	if err != nil {
		return policy.Deny, diag, seen, fmt.Errorf("decide %s: %w", step.Summary, err)
	}
	return dec, diag, seen, nil
}

// review asks the reviewer whether the person's own words asked for the
// step, through the cache of verdicts per step and epoch.
func (d *Decider) review(ctx context.Context, s client.Step, base policy.Request, diag *policy.Diagnostic, st store.State) policy.Review {
	in := review.Input{
		Agent:      s.Agent,
		Cwd:        s.Project(),
		Step:       review.Step{Tool: s.Tool, Command: s.Command, Input: s.Input},
		Classes:    diag.Assessment.Classes,
		Diagnostic: diag.Reasons,
		Note:       st.Note,
	}
	for _, m := range st.OwnerWords {
		in.OwnerWords = append(in.OwnerWords, review.OwnerWord{Text: m.Text, FromParent: m.FromParent})
	}
	situation := review.Situation{Auto: modeOf(st.Live.Mode) == policy.ModeAuto, WouldAsk: true, Held: st.Live.Held, Guest: st.Session.Tainted, ExplicitAsk: explicitAsk(diag)}
	if ok, _ := review.May(situation, in); !ok {
		return policy.Review{}
	}
	key := review.KeyOf(in, uint64(st.Epoch.ID))
	if d.Verdicts != nil {
		if v, ok := d.Verdicts.Get(key); ok {
			return verdictReview(v)
		}
	}
	v := d.Reviewer.Review(ctx, in)
	if d.Verdicts != nil {
		d.Verdicts.Put(key, v)
	}
	return verdictReview(v)
}

func verdictReview(v review.Verdict) policy.Review {
	why := v.Reason
	if v.Quote != "" {
		why += " (the person said: " + v.Quote + ")"
	}
	if v.Err != nil {
		why = "the reviewer could not answer: " + v.Err.Error()
	}
	return policy.Review{Asked: true, Allow: v.Answer == review.Allow, Why: why}
}

func explicitAsk(diag *policy.Diagnostic) bool {
	return diag.Decided().ID == policy.TierExplicitAsk
}

// SessionOf is the store's session of a step: the task it runs in, or its
// conversation.
func SessionOf(s client.Step) string {
	if s.Task != "" {
		return s.Task
	}
	return s.Session
}

// Summary is a step in one line, for the ledger and the card.
func Summary(s client.Step) string {
	switch {
	case s.Command != "":
		return s.Command
	case len(s.Files) > 0:
		parts := make([]string, len(s.Files))
		for i, f := range s.Files {
			parts[i] = f.Op.String() + " " + f.Path
		}
		return s.Tool + ": " + strings.Join(parts, ", ")
	case s.URL != "":
		return s.Tool + ": " + s.URL
	}
	return s.Tool
}

func modeOf(m string) policy.Mode {
	mode, err := policy.ParseMode(m)
	if err != nil {
		return policy.ModeAsk
	}
	return mode
}

func sessionOf(st *store.State) policy.Session {
	return policy.Session{
		ID:       st.Session.ID,
		Turn:     st.Turn,
		Epoch:    st.Epoch.ID,
		Held:     st.Live.Held,
		HeldWhy:  st.Live.HeldWhy,
		Current:  st.Controls(),
		Guest:    st.Session.Tainted,
		Denials:  st.Breaker.Denials,
		Declined: st.Breaker.Declined,
		Tasks:    st.Running,
	}
}

func leasesOf(ls []store.Lease) []policy.Lease {
	out := make([]policy.Lease, 0, len(ls))
	for _, l := range ls {
		c, err := risk.ParseClass(string(l.Category))
		if err != nil {
			continue
		}
		out = append(out, policy.Lease{
			ID:       strconv.FormatInt(l.ID, 10),
			Category: c,
			Session:  l.Session,
			Turn:     l.Turn,
			Epoch:    l.Epoch,
			Cwd:      l.Cwd,
			Expires:  l.ExpiresAt,
			Consumed: !l.ConsumedAt.IsZero() || !l.RevokedAt.IsZero(),
		})
	}
	return out
}

func ruleList(kept []store.Rule) []rule.Rule {
	out := make([]rule.Rule, 0, len(kept))
	for _, k := range kept {
		u, err := rule.ParseUnit(k.Unit)
		if err != nil {
			u = rule.UnitCommand
		}
		out = append(out, rule.Rule{Tool: k.Tool, Unit: u, Pattern: k.Pattern, Cwd: k.Cwd, CreatedAt: k.CreatedAt})
	}
	return out
}

// lookup adapts the kept rules to the policy's rule tiers.
func lookup(set *rule.Set) policy.RuleLookup {
	return func(q policy.RuleQuery) policy.RuleAnswer {
		f := set.Lookup(rule.Step{Tool: q.Tool, Command: q.Command, Assessment: q.Assessment, Cwd: q.Cwd, Held: q.Held, Guest: q.Guest, EachTime: q.EachTime})
		a := policy.RuleAnswer{Allow: f.Allow, Lines: f.Lines}
		for _, r := range f.Rules {
			a.Rules = append(a.Rules, r.Pattern)
		}
		return a
	}
}

func firstReason(d *policy.Diagnostic) string {
	if len(d.Reasons) == 0 {
		return ""
	}
	return d.Reasons[0]
}

// diagJSON is the diagnostic as the ledger keeps it.
func diagJSON(d *policy.Diagnostic) json.RawMessage {
	// A finding keeps its reason's kind and operands beside the words
	// rendered from them: the page renders its own words from the kind.
	type finding struct {
		Class   string          `json:"class"`
		Segment int             `json:"segment"`
		Reason  risk.ReasonKind `json:"reason"`
		Program string          `json:"program,omitempty"`
		Verb    string          `json:"verb,omitempty"`
		Object  string          `json:"object,omitempty"`
		What    string          `json:"what,omitempty"`
		Why     string          `json:"why"`
	}
	v := struct {
		Classes  []string       `json:"classes"`
		Reasons  []string       `json:"reasons"`
		Tiers    []policy.Tier  `json:"tiers"`
		Findings []finding      `json:"findings"`
		Matches  []policy.Match `json:"matches,omitempty"`
		Where    string         `json:"where,omitempty"`
	}{Reasons: d.Reasons, Tiers: d.Tiers, Matches: d.Matches, Where: d.Where}
	for _, c := range d.Assessment.Classes.Classes() {
		v.Classes = append(v.Classes, c.String())
	}
	for _, f := range d.Assessment.Findings {
		r := f.Reason
		v.Findings = append(v.Findings, finding{f.Class.String(), f.Segment, r.Kind, r.Program, r.Verb, r.Object, r.What, r.String()})
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return capJSON(b)
}

// capJSON caps every string of a long diagnostic as the ledger caps a
// step's text: a megabyte command quoted in a reason keeps its first
// bytes, its length and its SHA-256.
func capJSON(b []byte) json.RawMessage {
	if len(b) <= 4*store.MaxText {
		return b
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil
	}
	var walk func(any) any
	walk = func(x any) any {
		switch x := x.(type) {
		case string:
			return store.Cap(x)
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return x
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		return nil
	}
	return out
}

// now is the wall clock; tests of waiting inject theirs through Cards.
var now = time.Now

// warnings are what the page shows on every page: a policy file that
// lets auto and autopilot run steps without the wall, read as it is now.
func (d *Decider) warnings() []string {
	pol := policy.Load(policy.Files{Person: filepath.Join(d.ConfigDir, "policy.toml"), ReadFile: os.ReadFile})
	if !pol.AutoWithoutWall {
		return nil
	}
	why := "the wall is applied here, but the setting stays in force wherever it is not"
	if w := d.Walls.State(); !w.On {
		why = "there is no wall here (" + w.Why + "): what auto and autopilot let run can do whatever you can, sayso's own database and policy file included"
	}
	return []string{"auto_without_wall = true in your policy file: " + why + ". Take it out to have auto ask instead."}
}
