package web

import (
	"context"
	"errors"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/step"
)

// Backend is what the page reads and changes. Every method is called for
// the person, after the server has checked the person's session, anti-CSRF
// token and Origin. Errors wrapping ErrNotFound, ErrAnswered, ErrExpired,
// ErrNoOffer or ErrInvalid are shown as such; any other is a server error.
type Backend interface {
	// Cards lists the cards waiting for an answer, oldest first.
	Cards(ctx context.Context) ([]card.Card, error)
	// Card returns one card, answered or not.
	Card(ctx context.Context, id string) (card.Card, error)
	// Answer answers a card once. AlwaysAllow keeps exactly the card's
	// own offer, and fails with ErrNoOffer, keeping nothing, when it has
	// none. A second answer fails with ErrAnswered and keeps nothing.
	// message is the person's words to the agent with a deny (already
	// cleaned by card.Answer.Message), "" for none; an allow carries none.
	Answer(ctx context.Context, id string, a card.Answer, message string) (card.Card, error)
	// WatchCards sends on the channel, without blocking, whenever a card
	// is added, answered or expires, and closes it once ctx is done.
	WatchCards(ctx context.Context) <-chan struct{}

	// Sessions lists sessions with their tasks, never with any words.
	Sessions(ctx context.Context) ([]Session, error)
	// SetMode sets a session's own mode.
	SetMode(ctx context.Context, session string, m policy.Mode) error
	// Release lets a held session go on.
	Release(ctx context.Context, session string) error

	// Rules lists the rules the person kept. There is no way to add one
	// here: only Answer with AlwaysAllow keeps a rule.
	Rules(ctx context.Context) ([]KeptRule, error)
	// ForgetRule forgets one rule.
	ForgetRule(ctx context.Context, id string) error

	// Leases lists leases, live and past.
	Leases(ctx context.Context) ([]Lease, error)
	// GrantLease grants a lease bound to the session's current epoch and turn.
	GrantLease(ctx context.Context, g Grant) (Lease, error)
	// RevokeLease revokes a live lease.
	RevokeLease(ctx context.Context, id string) error

	// Note returns the environment note, exactly as it was saved.
	Note(ctx context.Context) (string, error)
	// SetNote saves the environment note exactly as typed (at most
	// MaxNote characters).
	SetNote(ctx context.Context, note string) error

	// Ledger returns the ledger rows the filter selects, newest first.
	Ledger(ctx context.Context, f LedgerFilter) ([]Entry, error)

	// Settings returns the person's policy file settings, to show.
	Settings(ctx context.Context) (Settings, error)
}

// Errors a Backend wraps so that the page can say what happened.
var (
	ErrNotFound = errors.New("not found")
	ErrInvalid  = errors.New("invalid")
)

// MaxNote is the most characters the environment note holds.
const MaxNote = policy.MaxNote

// Session is one agent conversation as the page lists it: its own mode,
// whether it is held, and its tasks. It carries no words.
type Session struct {
	ID      string
	Agent   string
	Mode    policy.Mode
	Held    bool
	HeldWhy string
	Tainted bool // it holds a guest's message
	Turns   int
	Cwd     string // the folder the session works in, when known
	Created time.Time
	// Ended says the session's agent said it ended, at EndedAt, and it
	// did nothing since: no lease is granted for it, and the page hides
	// it until asked.
	Ended   bool
	EndedAt time.Time
	Tasks   []Task
}

// Task is handed-off work under a session. The words it copied from its
// parent are never shown: only whether it holds a copy, and why not.
type Task struct {
	ID      string
	Agent   string
	Mode    policy.Mode
	Held    bool
	HeldWhy string
	Scoped  bool
	CopyWhy string // why it holds no copy of its parent's words; "" when it holds one
	Created time.Time
}

// KeptRule is a rule the person kept by pressing "Always allow".
type KeptRule struct {
	ID string
	rule.Rule
}

// Lease is a one-shot permission for one category of ceiling step.
type Lease struct {
	ID       string
	Category string
	Session  string
	Turn     string
	Cwd      string
	Created  time.Time
	Expires  time.Time
	State    string // live, consumed, revoked or expired
}

// Grant is a lease the person grants on the page.
type Grant struct {
	Category string // one of LeaseCategories
	Session  string
	Cwd      string        // absolute
	TTL      time.Duration // at most MaxLeaseTTL
}

// MaxLeaseTTL is the longest a lease lives.
const MaxLeaseTTL = policy.MaxLeaseTTL

// LeaseCategories are the classes a lease may be granted for.
func LeaseCategories() []string {
	var out []string
	for _, c := range policy.Leasable.Classes() {
		out = append(out, c.String())
	}
	return out
}

// Entry is one ledger row.
type Entry struct {
	ID       string
	At       time.Time
	Kind     string // decision, answer, rule-kept, lease-granted, …
	Session  string
	Class    string // the step's class, for a decision or an answer
	Decision string // allow, ask or deny, for a decision
	Summary  string
	Reasons  []string // the decision's reasons, from its diagnostic, when it has one
	// Findings are the decision's findings as the ledger keeps them: the
	// page renders each one's words from its reason's kind.
	Findings []Finding
	// Outcome is what became of an ask: the person's answer ("deny",
	// "allow-once"…) or "missed", and Why in words; "" when not known.
	Outcome    string
	OutcomeWhy string
	// Shows is what the decided step does, as its card showed it; nil
	// for any other row.
	Shows *step.Shown
}

// Finding is one finding of a decided step as the ledger keeps it: its
// class and its reason's kind and operands, with the words the ledger
// wrote beside them.
type Finding struct {
	Class  string
	Reason risk.Reason
	Words  string // as written when the step was decided
}

// Says is the finding in words, rendered from its reason's kind; a row
// whose kind this sayso does not know (an older or newer ledger) keeps
// the words it was written with.
func (f Finding) Says() string {
	if f.Reason.Kind == risk.ReasonUnknown {
		return f.Words
	}
	return f.Reason.String()
}

// LedgerFilter selects ledger rows. The zero value selects the newest rows.
type LedgerFilter struct {
	Session  string
	Kind     string // only rows of this kind ("decision": the steps)
	Class    string
	Decision string
	Text     string // words every row must contain, in any case
	Before   string // only rows older than the row of this ID: the next page
	Limit    int    // at most this many; 0 is the backend's default
}

// Settings are the person's policy file settings, shown read-only.
type Settings struct {
	Looked []policy.Look  // the policy files looked for, there or not (the loaded policy's Looked)
	Policy *policy.Policy // nil is the defaults
}
