package migration

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestRead(t *testing.T) {
	good := fstest.MapFS{
		"m/002_b.sql":  {Data: []byte("B")},
		"m/001_a.sql":  {Data: []byte("A")},
		"m/README.txt": {Data: []byte("not a migration")},
	}
	ms, err := Read(good, "m")
	if err != nil || len(ms) != 2 || ms[0].Version != 1 || ms[0].SQL != "A" || ms[1].Name != "002_b.sql" {
		t.Fatalf("Read = %+v, %v", ms, err)
	}
	for name, fsys := range map[string]fstest.MapFS{
		"a gap":       {"m/001_a.sql": {}, "m/003_c.sql": {}},
		"no number":   {"m/init.sql": {}},
		"number zero": {"m/000_a.sql": {}},
		"twice one":   {"m/001_a.sql": {}, "m/001_b.sql": {}},
	} {
		if _, err := Read(fsys, "m"); err == nil || !strings.Contains(err.Error(), "migration") {
			t.Errorf("%s: Read = %v, want an error naming the migration", name, err)
		}
	}
}

// TestReadNumbered: gaps are taken, in order; a number twice, none or zero
// is not.
func TestReadNumbered(t *testing.T) {
	ms, err := ReadNumbered(fstest.MapFS{"m/007_c.sql": {Data: []byte("C")}, "m/001_a.sql": {Data: []byte("A")}, "m/002_b.sql": {}}, "m")
	if err != nil || len(ms) != 3 || ms[0].Version != 1 || ms[2].Version != 7 || ms[2].SQL != "C" {
		t.Fatalf("ReadNumbered = %+v, %v", ms, err)
	}
	for name, fsys := range map[string]fstest.MapFS{
		"no number":   {"m/init.sql": {}},
		"number zero": {"m/000_a.sql": {}},
		"twice seven": {"m/001_a.sql": {}, "m/007_a.sql": {}, "m/007_b.sql": {}},
	} {
		if _, err := ReadNumbered(fsys, "m"); err == nil || !strings.Contains(err.Error(), "migration") {
			t.Errorf("%s: ReadNumbered = %v, want an error naming the migration", name, err)
		}
	}
}
