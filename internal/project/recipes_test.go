package project

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestMakeRecipes: a Makefile's plain rules are read into their recipe
// lines; assignments, pattern rules and special targets are not rules.
func TestMakeRecipes(t *testing.T) {
	dir := t.TempDir()
	mk := "GO := go\nURL = https://x:y\n.PHONY: all\n\nall build: deps\n\t@$(GO) build ./...\n\nrelease:\n\tgo test ./... && \\\n\t  git push --tags\n%.o: %.c\n\tcc -c $<\n"
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	got := makeRecipes(dir)
	want := map[string][]string{
		"":        {"@$(GO) build ./..."},
		"all":     {"@$(GO) build ./..."},
		"build":   {"@$(GO) build ./..."},
		"release": {"go test ./... &&  \t  git push --tags"},
		"%":       nil, // the pattern rule: a target not read may run it
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("makeRecipes = %q, want %q", got, want)
	}
	if got := makeRecipes(t.TempDir()); got != nil {
		t.Errorf("no Makefile = %q, want nil", got)
	}
}
