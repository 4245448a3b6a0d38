package policy

import "fmt"

// Decision is the answer for a step. The zero value is Deny.
type Decision uint8

const (
	Deny Decision = iota
	Ask
	Allow
)

var decisionNames = [...]string{"deny", "ask", "allow"}

func (d Decision) String() string {
	if int(d) < len(decisionNames) {
		return decisionNames[d]
	}
	return fmt.Sprintf("decision(%d)", uint8(d))
}

// MarshalText implements encoding.TextMarshaler.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Decision) UnmarshalText(b []byte) error {
	v, err := ParseDecision(string(b))
	*d = v
	return err
}

// ParseDecision returns the decision named s.
func ParseDecision(s string) (Decision, error) {
	for i, n := range decisionNames {
		if n == s {
			return Decision(i), nil
		}
	}
	return Deny, fmt.Errorf("unknown decision %q", s)
}

// Mode is how much a session lets through without asking. The zero value
// is ModeAsk, the most careful.
type Mode uint8

const (
	ModeAsk Mode = iota
	ModeAuto
	ModeAutopilot
)

var modeNames = [...]string{"ask", "auto", "autopilot"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", uint8(m))
}

// MarshalText implements encoding.TextMarshaler.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	*m = v
	return err
}

// ParseMode returns the mode named s.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return ModeAsk, fmt.Errorf("unknown mode %q (want ask, auto or autopilot)", s)
}
