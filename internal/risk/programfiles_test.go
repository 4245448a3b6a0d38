package risk

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestProgramFiles: a family lives in one file on each side. Its names
// are registered (package program) in the file named like the file of its
// classifier here, and in no other: risk/git.go's git in program/git.go.
func TestProgramFiles(t *testing.T) {
	registered := registeredIn(t, "../program")
	classified := map[string]bool{}
	for _, f := range families() {
		fn := runtime.FuncForPC(reflect.ValueOf(f.classify).Pointer())
		file, _ := fn.FileLine(fn.Entry())
		want := filepath.Base(file)
		for _, n := range f.names {
			classified[n] = true
			if got := registered[n]; len(got) != 1 || got[0] != want {
				t.Errorf("family %s, classified in risk/%s: program %q is registered in %v, want program/%s alone",
					f.names[0], want, n, got, want)
			}
		}
	}
	for n, files := range registered {
		if !classified[n] {
			t.Errorf("program %q is registered in %v, and no family classifies it", n, files)
		}
	}
}

// registeredIn reads the program files of dir and returns, for each name
// registered, the files that register it (sorted, each once). It reads
// the calls a builder method makes on r: add's names (a string, a string
// constant, strings.Join of a list) and the name the lists' setters
// (verbs, progOpts, ...) take first, also from a range over a list.
func registeredIn(t *testing.T, dir string) map[string][]string {
	t.Helper()
	fset, parsed := parseGo(t, dir)
	consts := map[string][]string{} // a package-level string or list → its names
	for _, f := range parsed {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				v, ok := s.(*ast.ValueSpec)
				if !ok || len(v.Names) != len(v.Values) {
					continue
				}
				for i, name := range v.Names {
					if names, ok := literalNames(v.Values[i]); ok {
						consts[name.Name] = names
					}
				}
			}
		}
	}
	setters := map[string]bool{"verbs": true, "progOpts": true, "workOpts": true, "repoOpts": true, "state": true, "creds": true}
	out := map[string][]string{}
	for file, f := range parsed {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil {
				continue
			}
			if id, ok := fd.Recv.List[0].Type.(*ast.Ident); !ok || id.Name != "builder" {
				continue
			}
			bound := map[string][]string{} // a range variable → the list it ranges over
			names := func(e ast.Expr) []string {
				if names, ok := literalNames(e); ok {
					return names
				}
				switch e := e.(type) {
				case *ast.Ident:
					if names, ok := bound[e.Name]; ok {
						return names
					}
					if names, ok := consts[e.Name]; ok {
						return names
					}
				case *ast.CallExpr: // strings.Join(list, " ")
					if s, ok := e.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Join" && len(e.Args) == 2 {
						if id, ok := e.Args[0].(*ast.Ident); ok {
							if names, ok := consts[id.Name]; ok {
								return names
							}
						}
					}
				}
				t.Errorf("%s: cannot read the names registered: write them plainly", fset.Position(e.Pos()))
				return nil
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.RangeStmt:
					if v, ok := n.Value.(*ast.Ident); ok {
						if names, ok := literalNames(n.X); ok {
							bound[v.Name] = names
						}
					}
				case *ast.CallExpr:
					s, ok := n.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if id, ok := s.X.(*ast.Ident); !ok || id.Name != "r" || len(n.Args) == 0 {
						return true
					}
					var reg []string
					switch {
					case s.Sel.Name == "add" && len(n.Args) == 2:
						reg = names(n.Args[1])
					case setters[s.Sel.Name]:
						reg = names(n.Args[0])
					default:
						return true
					}
					for _, name := range reg {
						out[name] = appendOnce(out[name], file)
					}
				}
				return true
			})
		}
	}
	return out
}

// literalNames reads the names of a string literal (space-separated) or
// of a []string literal of string literals.
func literalNames(e ast.Expr) ([]string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return nil, false
		}
		s, err := strconv.Unquote(e.Value)
		return strings.Fields(s), err == nil
	case *ast.CompositeLit:
		var out []string
		for _, el := range e.Elts {
			names, ok := literalNames(el)
			if !ok || len(names) != 1 {
				return nil, false
			}
			out = append(out, names[0])
		}
		return out, true
	}
	return nil, false
}

// appendOnce adds file to the sorted set files.
func appendOnce(files []string, file string) []string {
	for _, f := range files {
		if f == file {
			return files
		}
	}
	files = append(files, file)
	sort.Strings(files)
	return files
}

// parseGo parses the Go files of dir but its tests, by base name.
func parseGo(t *testing.T, dir string) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("list %s: %v", dir, err)
	}
	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		parsed[filepath.Base(file)] = f
	}
	return fset, parsed
}
