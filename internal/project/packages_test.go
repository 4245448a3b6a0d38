package project

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

// TestProjectCommands: package.json's bin, in both its forms, and
// pyproject.toml's scripts are read as the commands the project declares;
// a name a shell would not look up on PATH is not taken.
func TestProjectCommands(t *testing.T) {
	root := t.TempDir()
	write(t, root, "package.json", `{"name": "acme", "bin": {"acme": "./bin/acme.js", "acme-dev": "./bin/dev.js", "../evil": "./x.js", "a b": "./y.js", "-x": "./z.js"}}`)
	write(t, root, "pyproject.toml", "[project]\nname = \"acme\"\n[project.scripts]\nacme-py = \"acme.cli:main\"\n"+
		"[project.gui-scripts]\nacme-gui = \"acme.gui:main\"\n[tool.poetry.scripts]\nacme-poetry = \"acme.cli:poetry\"\n")
	_, _, got := packages(root)
	want := map[string]string{
		"acme": risk.CommandOfPackageJSON, "acme-dev": risk.CommandOfPackageJSON,
		"acme-py": risk.CommandOfPyproject, "acme-gui": risk.CommandOfPyproject, "acme-poetry": risk.CommandOfPyproject,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands = %v, want %v", got, want)
	}
	// bin as one path: the command is the package's name without its scope.
	root = t.TempDir()
	write(t, root, "package.json", `{"name": "@acme/tool", "bin": "./cli.js"}`)
	if _, _, got := packages(root); !reflect.DeepEqual(got, map[string]string{"tool": risk.CommandOfPackageJSON}) {
		t.Errorf("commands of a string bin = %v, want tool", got)
	}
	if _, _, got := packages(t.TempDir()); len(got) != 0 {
		t.Errorf("commands of an empty folder = %v, want none", got)
	}
}

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
