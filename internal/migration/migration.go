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
// which must run from 1 with no gap: the node's store records only the
// highest it applied (SQLite's user_version), so a number landing below
// it later would never be applied.
func Read(fsys fs.FS, dir string) ([]Migration, error) {
	out, err := ReadNumbered(fsys, dir)
	if err != nil {
		return nil, err
	}
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration %s: want number %d", m.Name, i+1)
		}
	}
	return out, nil
}

// ReadNumbered is every *.sql file of dir in fsys, in order of their
// numbers, each number once; numbers may leave gaps. It is for a
// database that records each migration it applied (the hub's
// schema_version), and so applies one whose number lands below another
// it already holds.
func ReadNumbered(fsys fs.FS, dir string) ([]Migration, error) {
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
