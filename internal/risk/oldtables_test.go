package risk

import (
	"strings"
	"testing"
)

// olderTablesCeiling is how many program names still sit in the tables
// from before the families. A move into a family lowers it; nothing may
// raise it. At zero the older tables, this test and their entries in
// tables go.
const olderTablesCeiling = 23

// TestOlderTablesShrink: the older tables only ever lose names.
func TestOlderTablesShrink(t *testing.T) {
	n := 0
	for table, names := range tables() {
		if !strings.HasPrefix(table, "family ") {
			n += len(names)
		}
	}
	switch {
	case n > olderTablesCeiling:
		t.Errorf("the older tables hold %d program names, more than their ceiling %d: a new program goes into a family", n, olderTablesCeiling)
	case n < olderTablesCeiling:
		t.Errorf("the older tables hold %d program names, fewer than their ceiling %d: lower olderTablesCeiling to %d", n, olderTablesCeiling, n)
	}
}
