package rule

import "github.com/sayso-dev/sayso/internal/enum"

// Unit is how much of a command one press keeps. The zero value is
// UnitCommand, the narrow one.
type Unit uint8

const (
	// UnitCommand keeps the whole command: its words one for one, nothing
	// after them.
	UnitCommand Unit = iota
	// UnitVerb keeps one pattern per segment: the verb and its subcommand,
	// for hosts whose steps run in a proven container.
	UnitVerb
)

var unitNames = enum.New[Unit]("unit", "unknown unit %q (want command or verb)", "command", "verb")

func (u Unit) String() string { return unitNames.String(u) }

// MarshalText implements encoding.TextMarshaler.
func (u Unit) MarshalText() ([]byte, error) { return unitNames.Marshal(u) }

// UnmarshalText implements encoding.TextUnmarshaler; unknown text is an error.
func (u *Unit) UnmarshalText(b []byte) error { return unitNames.Unmarshal(u, b) }

// ParseUnit returns the unit named s.
func ParseUnit(s string) (Unit, error) { return unitNames.Parse(s) }
