// Package migration reads a database's schema changes: numbered SQL
// files, embedded in the binary, applied in their order. The node's
// store (SQLite) and the hub (PostgreSQL) read theirs the same way, and
// each applies them in its own database's transactions.
package migration

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// Migration is one numbered file: 001_init.sql is version 1.
type Migration struct {
	Version int
	Name    string // the file's name
	SQL     string
}

// Read is every *.sql file of dir in fsys, in order of their numbers,
// each number once. A number may be missing: work on the schema goes on
// in parallel, each change under the number it was given, and a database
// records each version it applied (the hub) or refuses to go back (the
// store).
func Read(fsys fs.FS, dir string) ([]Migration, error) {
	names, err := fs.Glob(fsys, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, name := range names {
		base := strings.TrimPrefix(name, dir+"/")
		n, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with its number", base)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{n, base, string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i := 1; i < len(out); i++ {
		if out[i].Version == out[i-1].Version {
			return nil, fmt.Errorf("migration %s: number %d is taken by %s", out[i].Name, out[i].Version, out[i-1].Name)
		}
	}
	return out, nil
}

// Last is the newest version of ms: 0 for none.
func Last(ms []Migration) int {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].Version
}
