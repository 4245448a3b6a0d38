package risk

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/program"
)

// tables lists the families, each by its first name. A name is in
// exactly one of them.
func tables() map[string][]string {
	out := map[string][]string{}
	for _, f := range families() {
		out["family "+f.names[0]] = f.names
	}
	return out
}

// TestLayout: every program name sayso classifies belongs to exactly one
// family; a family's names have the traits it states in the
// registry; and no init function builds a table behind the reader's back.
func TestLayout(t *testing.T) {
	owner := map[string]string{}
	var clashes []string
	for table, names := range tables() {
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n] {
				clashes = append(clashes, n+" twice in "+table)
			}
			seen[n] = true
			if o, ok := owner[n]; ok {
				a, b := o, table
				if a > b {
					a, b = b, a
				}
				clashes = append(clashes, n+" in "+a+" and "+b)
				continue
			}
			owner[n] = table
		}
	}
	sort.Strings(clashes)
	for _, c := range clashes {
		t.Errorf("program %s: a name belongs to one family", c)
	}

	for _, f := range families() {
		if len(f.names) == 0 || f.classify == nil {
			t.Errorf("family %v has no name or no classifier", f.names)
		}
		for _, n := range f.names {
			if !program.Known(n) {
				t.Errorf("family %s: the registry does not list %q", f.names[0], n)
			}
			if got := program.Traits(n); got&f.traits != f.traits {
				t.Errorf("family %s: the registry gives %q the traits %v, the family says %v", f.names[0], n, got, f.traits)
			}
		}
	}

	for _, dir := range []string{".", "../program"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("list %s: %v", dir, err)
		}
		fset := token.NewFileSet()
		for _, file := range files {
			f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
					t.Errorf("%s: func init: build tables with a function the reader can follow", fset.Position(fd.Pos()))
				}
			}
		}
	}
}

// TestFamilyInOneFile: a family's entry is written in the file of its
// classifier, with the checks only it uses before and after it: a
// reader of the file reads the whole family. Checks several families
// share may live elsewhere.
func TestFamilyInOneFile(t *testing.T) {
	_, files := parseGo(t, ".")
	declared := map[string]string{} // function or method name → file
	type entry struct{ file, fn string }
	var entries []entry
	uses := map[string]int{} // before/after function → families using it
	for file, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			declared[fd.Name.Name] = file
			ast.Inspect(fd, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "family" {
					return true
				}
				for _, e := range lit.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					key := kv.Key.(*ast.Ident).Name
					if key != "classify" && key != "before" && key != "after" {
						continue
					}
					name := funcName(kv.Value)
					if name == "" {
						continue
					}
					entries = append(entries, entry{file, key + " " + name})
					if key != "classify" {
						uses[name]++
					}
				}
				return true
			})
		}
	}
	if len(entries) == 0 {
		t.Fatal("found no family entries")
	}
	for _, e := range entries {
		key, name, _ := strings.Cut(e.fn, " ")
		if key != "classify" && uses[name] > 1 {
			continue // a check several families share
		}
		if got := declared[name]; got != e.file {
			t.Errorf("%s: a family's %s is %s, written in %s: a family is whole in one file", e.file, key, name, got)
		}
	}
}

// funcName is the name of the function an expression names: f, (*cmd).m.
func funcName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}
