package policy

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/sayso-dev/sayso/internal/enum"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/rule"
)

// TierID names a tier of the decision. Its number is the tier's place in
// the order; the zero value is no tier.
type TierID uint8

const (
	TierNone TierID = iota
	TierNever
	TierHeld
	TierExplicitDeny
	TierExplicitAsk
	TierLease
	TierCeiling
	TierScope
	TierMode
	TierAsk
)

var tierNames = enum.New[TierID]("tier", "unknown tier %q", "", "never", "held", "explicit deny", "explicit ask", "lease", "ceiling", "scope", "mode", "ask")

func (t TierID) String() string { return tierNames.String(t) }

// Reason is what a tier found: the kind of its outcome, from which every
// sentence about it is rendered. The zero value is ReasonNone: nothing in
// the tier applies to the step.
type Reason uint8

const (
	ReasonNone       Reason = iota
	ReasonProtected         // never: the step touches sayso itself
	ReasonHeld              // held: the session is held (by the person or an earlier trip)
	ReasonController        // held: controller "latest" and this session is not current
	ReasonBreaker           // held: the circuit breaker trips on this step
	ReasonReadsOnly         // held, but the step only reads
	ReasonDenyEntry         // explicit deny: a [[deny]] entry
	ReasonDenyRow           // explicit deny: an autonomy row "deny"
	ReasonAskEntry          // explicit ask: an [[ask]] entry
	ReasonAskRow            // explicit ask: an autonomy row "require_approval"
	ReasonLease             // lease: a live lease covers the step
	ReasonNoLease           // lease: no live lease covers the ceiling
	ReasonCeiling           // ceiling: it asks
	ReasonRule              // the person's kept rule covers the command
	ReasonAllowEntry        // the person's [[allow]] entry covers it
	ReasonReviewer          // the reviewer found the person asked for it
	ReasonOutOfScope        // scope: a path lies outside the root
	ReasonUnscoped          // scope: autopilot holds no path to the root
	ReasonUnwalled          // mode: it would pass, but there is no wall to run it in
	ReasonAutopilot         // mode: autopilot approves it
	ReasonWildcard          // mode: autopilot by the autonomy wildcard
	ReasonApproveRow        // mode: an autonomy row "auto_approve" in the project
	ReasonMode              // mode: the session's mode allows or asks by itself
	ReasonPerson            // ask: the person decides
	ReasonHook              // the hook answered without the policy (a tool it cannot read, a broken pin)
	ReasonNoPerson          // ask: a CI node has no person to ask, so it denies
)

var reasonNames = enum.New[Reason]("reason", "unknown reason %q",
	"none", "protected", "held", "controller", "breaker", "reads-only",
	"deny-entry", "deny-row", "ask-entry", "ask-row", "lease", "no-lease",
	"ceiling", "rule", "allow-entry", "reviewer", "out-of-scope", "unscoped",
	"unwalled", "autopilot", "wildcard", "approve-row", "mode", "person", "hook",
	"no-person")

func (r Reason) String() string { return reasonNames.String(r) }

// MarshalText implements encoding.TextMarshaler.
func (r Reason) MarshalText() ([]byte, error) { return reasonNames.Marshal(r) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Reason) UnmarshalText(b []byte) error { return reasonNames.Unmarshal(r, b) }

// ParseReason returns the reason named s.
func ParseReason(s string) (Reason, error) { return reasonNames.Parse(s) }

// Tier is one tier of the decision as the diagnostic reports it: its ID,
// what it found, whether it decided, and the sentence rendered for it.
type Tier struct {
	ID      TierID
	Reason  Reason
	Decided bool
	Why     string
}

// MarshalJSON writes the tier with its number and name.
func (t Tier) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		N       uint8  `json:"tier"`
		Name    string `json:"name"`
		Decided bool   `json:"decided"`
		Why     string `json:"why"`
		Reason  Reason `json:"reason"`
	}{uint8(t.ID), t.ID.String(), t.Decided, t.Why, t.Reason})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (t *Tier) UnmarshalJSON(b []byte) error {
	var v struct {
		N       uint8  `json:"tier"`
		Reason  Reason `json:"reason"`
		Decided bool   `json:"decided"`
		Why     string `json:"why"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = Tier{ID: TierID(v.N), Reason: v.Reason, Decided: v.Decided, Why: v.Why}
	return nil
}

// MatchKind is what matched the step.
type MatchKind uint8

const (
	MatchNone MatchKind = iota
	MatchClassPattern
	MatchAutonomyRow
	MatchDenyEntry
	MatchAskEntry
	MatchLease
	MatchAllowEntry
	MatchAllowUncounted // an allow entry that matched but covers no such class
	MatchRules
)

var matchNames = enum.New[MatchKind]("match", "unknown match kind %q", "", "class pattern", "autonomy row", "deny entry", "ask entry", "lease", "allow entry", "allow entry (not counted)", "rules")

func (k MatchKind) String() string { return matchNames.String(k) }

// MarshalText implements encoding.TextMarshaler.
func (k MatchKind) MarshalText() ([]byte, error) { return matchNames.Marshal(k) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *MatchKind) UnmarshalText(b []byte) error { return matchNames.Unmarshal(k, b) }

// Match is one entry, row, rule, lease or class pattern that matched the
// step, with where it came from.
type Match struct {
	Tier   TierID    `json:"tier"`
	Kind   MatchKind `json:"kind"`
	Source string    `json:"source"` // file:line, or the store's name for a rule or lease
	Text   string    `json:"text"`
}

// Trip is the circuit breaker's trip: how many steps were denied, or cards
// declined, within its window.
type Trip struct {
	Declined bool // cards declined; else steps denied
	Count    int
	Window   time.Duration
}

func (t Trip) String() string {
	what := "steps denied"
	if t.Declined {
		what = "cards declined"
	}
	return fmt.Sprintf("the circuit breaker tripped: %d %s within %s", t.Count, what, t.Window)
}

// Diagnostic explains a decision: what the step is, every tier consulted,
// everything that matched, and the reasons shown to the person and the
// agent.
type Diagnostic struct {
	Assessment risk.Assessment
	Tiers      []Tier
	Matches    []Match
	Reasons    []string
	Problems   []Problem      // what the policy files broke or ignored
	Where      string         // the host or the container, and the root held against
	Mode       Mode           // the mode in effect: the session's, or autopilot by the wildcard
	OutOfScope []risk.PathUse // paths the step writes, deletes or runs outside the root
	ReadsOut   []risk.PathUse // paths it reads outside the root
	// Lease is the ID of the lease the step consumes, or "". The store
	// consumes it in the same transaction as the ledger row.
	Lease string
	// Reach is how far the step may write once walled, when it goes
	// through, as the tiers decided it; Plan says all it may reach.
	Reach Reach
	// Plan is what the step may reach once walled (PlanOf): the hook
	// wraps a shell step in the launcher accordingly.
	Plan Plan
	// Trip is the breaker's trip when the breaker holds the session on
	// this step: the gateway holds the session for it.
	Trip *Trip
	// Unwalled reports that the mode would have let the step through but
	// there is no wall to run it in, so it asks (tier 8 says why).
	Unwalled bool
	// Reviewable reports that the step asks and the reviewer, not asked
	// yet, could waive it: the gateway may ask the reviewer and decide again.
	Reviewable bool
	// NoRule says why no card about this step may offer an "always allow"
	// rule, whatever its words: the session is held or in ask mode, it
	// holds a guest's words, or the person marked one of the step's
	// classes "show each time". "" when the words decide.
	NoRule string
	// Answered reports that the person allowed this very step on its card
	// (set by whoever showed them the card, after Evaluate): their say-so
	// for exactly this command. A client's own dialog about the step need
	// not ask again.
	Answered bool
	// Unit is the unit of the rule a card about this step offers: the
	// agent's rule_unit in the person's file, command unless it says verb.
	Unit rule.Unit
	// Hosts are the hosts a walled step's traffic may reach: the trusted
	// hosts. A step the person said yes to reaches those its command
	// names as well (risk.HostsNamed).
	Hosts []string
	// ApprovedWrites are the folders the person's policy lets every step
	// let through wide write beside what it names (Policy.ApprovedWrites),
	// absolute.
	ApprovedWrites []string
	// ProtectedPaths are the policy's own protected paths — the person's
	// and the org bundle's protected and secret paths — absolute: the
	// decision refuses a step that names one, and the wall hides them
	// from every step it runs, which may reach them without naming them
	// (the project's code).
	ProtectedPaths []string
	// Seen are the files that say what the step runs, with their SHA-256
	// when it was decided (Request.Seen).
	Seen map[string]string
}

// Decided returns the tier that decided.
func (d *Diagnostic) Decided() Tier {
	for _, t := range d.Tiers {
		if t.Decided {
			return t
		}
	}
	return Tier{}
}

// Tripped returns the breaker's trip when it decided the step, or nil.
func (d *Diagnostic) Tripped() *Trip {
	if d.Decided().Reason == ReasonBreaker {
		return d.Trip
	}
	return nil
}

// reasons renders the lines shown to the person and the agent from the
// diagnostic: the deciding tier, then each class with its first finding,
// then what the policy files broke.
func reasons(dec Decision, d *Diagnostic) []string {
	t := d.Decided()
	out := []string{fmt.Sprintf("%s (tier %d, %s): %s", dec, t.ID, t.ID, t.Why)}
	if dec == Ask || dec == Deny {
		for _, c := range d.Assessment.Classes.Classes() {
			if c == risk.Read || c == risk.LocalWrite {
				continue
			}
			out = append(out, c.String()+": "+whyOf(&d.Assessment, c))
		}
		for _, t := range d.Tiers {
			if t.Reason == ReasonOutOfScope || t.Reason == ReasonUnwalled || t.Reason == ReasonNoPerson {
				out = append(out, t.Why)
			}
		}
	}
	for _, p := range d.Problems {
		out = append(out, "policy: "+p.String())
	}
	return out
}

func whyOf(a *risk.Assessment, c risk.Class) string {
	for _, f := range a.Findings {
		if f.Class == c {
			return f.Why()
		}
	}
	return c.String()
}
