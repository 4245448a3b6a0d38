package sayso_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/sayso-dev/sayso/internal/risk"
)

// TestToolNamesHaveOneOwner: the agents' tool names are spelled in one
// place, risk's table; any other package that needs one asks the table.
// Names that are also plain words (Read, shell, edit) are not looked for,
// nor the fake model, which plays the model that calls the tools.
func TestToolNamesHaveOneOwner(t *testing.T) {
	names := map[string]bool{}
	for k := risk.ToolKind(1); k <= risk.ToolMemory; k++ {
		for _, n := range risk.ToolNames(k) {
			if distinctive(n) {
				names[n] = true
			}
		}
	}
	if len(names) < 20 {
		t.Fatalf("only %d distinctive tool names in risk's table", len(names))
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || p == filepath.Join("internal", "risk") || p == "e2e" || p == filepath.Join("internal", "client", "fakemodel")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
					t.Errorf("%s spells the tool name %q: ask risk's table (risk.KindOfTool, risk.ShellTool)", fset.Position(lit.Pos()), s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// distinctive reports whether a tool name is no plain word: it holds an
// underscore or more than one capital.
func distinctive(n string) bool {
	caps := 0
	for _, r := range n {
		if unicode.IsUpper(r) {
			caps++
		}
	}
	return strings.Contains(n, "_") || caps > 1
}
