package web

import "fmt"

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
