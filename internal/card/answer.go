package card

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/sayso-dev/sayso/internal/enum"
)

// Answer is the person's answer to a card. The zero value is Deny.
type Answer uint8

const (
	Deny        Answer = iota // deny this step
	DenyAndHold               // deny it and hold the session
	AllowOnce                 // allow this step, keep nothing
	AlwaysAllow               // allow it and keep the card's offer
)

// answerNames are the answers' one text form: the page's form values,
// the ledger's rows, the hub's wire and the passkey's signed verdict.
var answerNames = enum.New[Answer]("answer", "unknown answer %q", "deny", "deny-hold", "allow-once", "always")

func (a Answer) String() string { return answerNames.String(a) }

// MarshalText implements encoding.TextMarshaler.
func (a Answer) MarshalText() ([]byte, error) { return answerNames.Marshal(a) }

// UnmarshalText implements encoding.TextUnmarshaler; unknown text is an
// error and Deny.
func (a *Answer) UnmarshalText(b []byte) error { return answerNames.Unmarshal(a, b) }

// ParseAnswer returns the answer named s; unknown text is an error, and
// Deny.
func ParseAnswer(s string) (Answer, error) {
	a, err := answerNames.Parse(s)
	if err != nil {
		return Deny, fmt.Errorf("%w: %w", ErrUnknownAnswer, err)
	}
	return a, nil
}

// Known says a is one of the four answers.
func (a Answer) Known() bool { return int(a) < answerNames.Len() }

// Allows says the answer lets the step run.
func (a Answer) Allows() bool { return a == AllowOnce || a == AlwaysAllow }

// Holds says the answer holds the step's session.
func (a Answer) Holds() bool { return a == DenyAndHold }

// Keeps says the answer keeps the card's offered rule.
func (a Answer) Keeps() bool { return a == AlwaysAllow }

// MaxDenyMessage is the most characters a deny's message to the agent
// holds.
const MaxDenyMessage = 300

// Message is the person's message to the agent that answer a carries: a
// deny's, as the person typed it, made one line (control characters and
// line breaks become spaces, runs of spaces one) and cut to
// MaxDenyMessage characters; an allow carries none.
func (a Answer) Message(s string) string {
	if a.Allows() || !a.Known() {
		return ""
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > MaxDenyMessage {
		s = string(r[:MaxDenyMessage])
	}
	return s
}
