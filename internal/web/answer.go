package web

import (
	"fmt"
	"strings"
	"unicode"
)

// Answer is the person's answer to a card. The zero value is Deny.
type Answer uint8

const (
	Deny        Answer = iota // deny this step
	DenyAndHold               // deny it and hold the session
	AllowOnce                 // allow this step, keep nothing
	AlwaysAllow               // allow it and keep the card's offer
)

var answerNames = [...]string{"deny", "deny-hold", "allow-once", "always"}

func (a Answer) String() string {
	if int(a) < len(answerNames) {
		return answerNames[a]
	}
	return fmt.Sprintf("answer(%d)", uint8(a))
}

// MarshalText implements encoding.TextMarshaler.
func (a Answer) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *Answer) UnmarshalText(b []byte) error {
	v, err := ParseAnswer(string(b))
	*a = v
	return err
}

// ParseAnswer returns the answer named s; unknown text is an error.
func ParseAnswer(s string) (Answer, error) {
	for i, n := range answerNames {
		if n == s {
			return Answer(i), nil
		}
	}
	return Deny, fmt.Errorf("unknown answer %q", s)
}

// MaxDenyMessage is the most characters a deny's message to the agent
// holds.
const MaxDenyMessage = 300

// DenyMessage is the person's message to the agent, as the form sent it,
// made one line: control characters and line breaks become spaces, runs
// of spaces one, and it is cut to MaxDenyMessage characters.
func DenyMessage(s string) string {
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
