package policy

import "github.com/sayso-dev/sayso/internal/enum"

// Decision is the answer for a step. The zero value is Deny.
type Decision uint8

const (
	Deny Decision = iota
	Ask
	Allow
)

var decisionNames = enum.New[Decision]("decision", "unknown decision %q", "deny", "ask", "allow")

func (d Decision) String() string { return decisionNames.String(d) }

// MarshalText implements encoding.TextMarshaler.
func (d Decision) MarshalText() ([]byte, error) { return decisionNames.Marshal(d) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Decision) UnmarshalText(b []byte) error { return decisionNames.Unmarshal(d, b) }

// ParseDecision returns the decision named s.
func ParseDecision(s string) (Decision, error) { return decisionNames.Parse(s) }

// Mode is how much a session lets through without asking. The zero value
// is ModeAsk, the most careful.
type Mode uint8

const (
	ModeAsk Mode = iota
	ModeAuto
	ModeAutopilot
)

var modeNames = enum.New[Mode]("mode", "unknown mode %q (want ask, auto or autopilot)", "ask", "auto", "autopilot")

func (m Mode) String() string { return modeNames.String(m) }

// MarshalText implements encoding.TextMarshaler.
func (m Mode) MarshalText() ([]byte, error) { return modeNames.Marshal(m) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (m *Mode) UnmarshalText(b []byte) error { return modeNames.Unmarshal(m, b) }

// ParseMode returns the mode named s.
func ParseMode(s string) (Mode, error) { return modeNames.Parse(s) }
