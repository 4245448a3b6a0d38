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
	gap, err := Read(fstest.MapFS{"m/003_c.sql": {Data: []byte("C")}, "m/001_a.sql": {Data: []byte("A")}}, "m")
	if err != nil || len(gap) != 2 || gap[0].Version != 1 || gap[1].Version != 3 || Last(gap) != 3 {
		t.Fatalf("Read with a gap = %+v, %v", gap, err)
	}
	for name, fsys := range map[string]fstest.MapFS{
		"no number":   {"m/init.sql": {}},
		"number zero": {"m/000_a.sql": {}},
		"twice one":   {"m/001_a.sql": {}, "m/001_b.sql": {}},
	} {
		if _, err := Read(fsys, "m"); err == nil || !strings.Contains(err.Error(), "migration") {
			t.Errorf("%s: Read = %v, want an error naming the migration", name, err)
		}
	}
}
