package card

import (
	"time"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/step"
)

// Card is a pending question to the person about one step.
type Card struct {
	ID      string
	Session string
	Agent   string
	Tool    string // the tool's name as the agent gives it
	Step    string // the command, or the tool call, as the person reads it
	Cwd     string // the folder the step runs in
	Mode    policy.Mode
	Classes []string // the step's classes, most severe first
	Reason  string   // built from the decision's diagnostic
	// Diagnostic is the decision's diagnostic: the card's headline, its
	// badge and its details are rendered from its fields. Nil when the
	// backend has none; the page then shows Classes and Reason.
	Diagnostic *policy.Diagnostic
	// Words are the person's own words that started the step's turn, and
	// Described the agent's own description of the step; each is shown
	// labelled as whose it is, and "" when unknown.
	Words     string
	Described string
	// Offer is the one offer the gateway computed: the rules "Always
	// allow" keeps. When it is empty, NoOffer says why.
	Offer   []rule.Rule
	NoOffer string
	// Shows is what the step does beyond its line: a write's diff, a
	// tool's arguments, a sub-agent's prompt; bounded, its secrets
	// masked. Nil when there is nothing more (a shell step).
	Shows   *step.Shown
	Created time.Time
	Expires time.Time // when the agent stops waiting; zero: never

	Answered bool
	Answer   Answer
	Message  string // what the person told the agent with a deny
}

// OfferText is the offer as the card's button names it.
func (c Card) OfferText() string {
	s := ""
	for i, r := range c.Offer {
		if i > 0 {
			s += " · "
		}
		s += r.String()
	}
	return s
}

// Summary is the card in one line, for a notifier.
func (c Card) Summary() string {
	s := "sayso asks: " + c.Step
	if len(c.Classes) > 0 {
		s += " (" + c.Classes[0] + ")"
	}
	if c.Agent != "" {
		s += " — " + c.Agent
	}
	return s
}
