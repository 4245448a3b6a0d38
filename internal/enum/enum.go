// Package enum gives sayso's small typed enums their text from one table
// of names: the type keeps its values and its zero value (the fail-closed
// one), and Names writes, for all of them alike, the text of a value and
// the parser that rejects unknown text. It is pure: no disk, no clock.
package enum

import "fmt"

// Names is the text of each value of an enum T: the value i is names[i].
type Names[T ~uint8] struct {
	kind    string   // a value past the table prints as kind(N)
	unknown string   // the error for unknown text: a format with one %q
	names   []string // an empty name is a value no text parses to
}

// New is the table of T's names, in the order of its values. kind names a
// value past the table (kind(N)); unknown is the error's format for text
// that names no value, with one %q for the text.
func New[T ~uint8](kind, unknown string, names ...string) Names[T] {
	return Names[T]{kind: kind, unknown: unknown, names: names}
}

// String is v's name, or kind(N) for a value past the table.
func (n Names[T]) String(v T) string {
	if int(v) < len(n.names) {
		return n.names[v]
	}
	return fmt.Sprintf("%s(%d)", n.kind, uint8(v))
}

// Marshal is v's name as bytes, for MarshalText.
func (n Names[T]) Marshal(v T) ([]byte, error) { return []byte(n.String(v)), nil }

// Parse is the value named s; unknown or empty text is an error and the
// zero value.
func (n Names[T]) Parse(s string) (T, error) {
	for i, name := range n.names {
		if name != "" && name == s {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf(n.unknown, s)
}

// Unmarshal sets *v to the value b names, for UnmarshalText; unknown text
// sets the zero value and is an error.
func (n Names[T]) Unmarshal(v *T, b []byte) error {
	x, err := n.Parse(string(b))
	*v = x
	return err
}

// Len is how many values the table names.
func (n Names[T]) Len() int { return len(n.names) }
