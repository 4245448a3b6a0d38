package rule

import "fmt"

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

var unitNames = [...]string{"command", "verb"}

func (u Unit) String() string {
	if int(u) < len(unitNames) {
		return unitNames[u]
	}
	return fmt.Sprintf("unit(%d)", uint8(u))
}

// MarshalText implements encoding.TextMarshaler.
func (u Unit) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; unknown text is an error.
func (u *Unit) UnmarshalText(b []byte) error {
	v, err := ParseUnit(string(b))
	*u = v
	return err
}

// ParseUnit returns the unit named s.
func ParseUnit(s string) (Unit, error) {
	for i, n := range unitNames {
		if n == s {
			return Unit(i), nil
		}
	}
	return UnitCommand, fmt.Errorf("unknown unit %q (want command or verb)", s)
}
