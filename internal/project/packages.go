package project

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/sayso-dev/sayso/internal/risk"
)

// packages are the project's own npm packages and the programs
// they installed — package.json's dependencies of every kind, the names in
// node_modules/.bin, pyproject.toml's dependencies —, package.json's
// scripts, and the commands the project declares as its own (package.json's
// bin, pyproject.toml's scripts). A project without them depends on none.
func packages(root string) (map[string]bool, map[string]string, map[string]string) {
	out, scripts, commands := map[string]bool{}, map[string]string{}, map[string]string{}
	if b, err := os.ReadFile(filepath.Join(root, "package.json")); err == nil && len(b) < 4<<20 {
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) == nil {
			_ = json.Unmarshal(m["scripts"], &scripts)
			npmBins(m, commands)
			for _, k := range []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"} {
				var deps map[string]string
				if json.Unmarshal(m[k], &deps) == nil {
					for name := range deps {
						out[name] = true
					}
				}
			}
		}
	}
	if ents, err := os.ReadDir(filepath.Join(root, "node_modules", ".bin")); err == nil {
		for _, e := range ents {
			out[e.Name()] = true
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "pyproject.toml")); err == nil && len(b) < 4<<20 {
		var doc map[string]any
		if toml.Unmarshal(b, &doc) == nil {
			pythonPackages(doc, out)
			pythonScripts(doc, commands)
		}
	}
	return out, scripts, commands
}

// commandName reports whether name can be a command the project declares:
// a plain word, which a shell finds on PATH. A name with a folder in it,
// or one a shell would read as something else, is not taken.
func commandName(name string) bool {
	return name != "" && name[0] != '-' && name != "." && name != ".." && len(name) <= 214 &&
		!strings.ContainsAny(name, "/\\ \t\n\x00$`'\"*?[]{}()<>|&;=~#!")
}

// npmBins adds the commands package.json's bin declares: an object of
// command names, or one path, whose command is the package's name without
// its scope (npm's normalize-package-bin).
func npmBins(m map[string]json.RawMessage, out map[string]string) {
	var bins map[string]string
	if json.Unmarshal(m["bin"], &bins) != nil {
		var one, name string
		if json.Unmarshal(m["bin"], &one) != nil || one == "" || json.Unmarshal(m["name"], &name) != nil {
			return
		}
		bins = map[string]string{name[strings.LastIndexByte(name, '/')+1:]: one}
	}
	for name := range bins {
		if commandName(name) {
			out[name] = risk.CommandOfPackageJSON
		}
	}
}

// pythonScripts adds the commands pyproject.toml declares: the console and
// GUI scripts of PEP 621 ([project.scripts], [project.gui-scripts]) and
// poetry's [tool.poetry.scripts], which an install of the project (pip
// install -e ., uv sync) puts in its environment's bin folder.
func pythonScripts(doc map[string]any, out map[string]string) {
	tables := []any{}
	if p, ok := doc["project"].(map[string]any); ok {
		tables = append(tables, p["scripts"], p["gui-scripts"])
	}
	if t, ok := doc["tool"].(map[string]any); ok {
		if p, ok := t["poetry"].(map[string]any); ok {
			tables = append(tables, p["scripts"])
		}
	}
	for _, t := range tables {
		if m, ok := t.(map[string]any); ok {
			for name := range m {
				if commandName(name) {
					out[name] = risk.CommandOfPyproject
				}
			}
		}
	}
}

// pythonPackages adds the names a pyproject.toml depends on: the project's
// dependencies and optional ones, its dependency groups, uv's and poetry's
// development dependencies.
func pythonPackages(doc map[string]any, out map[string]bool) {
	add := func(v any) {
		switch v := v.(type) {
		case []any: // PEP 621 and PEP 735: "ruff>=0.5"
			for _, x := range v {
				s, _ := x.(string)
				if f := strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" <>=!~;[(@,", r) }); len(f) > 0 {
					out[strings.ToLower(f[0])] = true
				}
			}
		case map[string]any: // poetry: ruff = "^0.5"
			for name := range v {
				out[strings.ToLower(name)] = true
			}
		}
	}
	get := func(m any, keys ...string) any {
		for _, k := range keys {
			mm, ok := m.(map[string]any)
			if !ok {
				return nil
			}
			m = mm[k]
		}
		return m
	}
	add(get(doc, "project", "dependencies"))
	for _, group := range []any{get(doc, "project", "optional-dependencies"), get(doc, "dependency-groups")} {
		if g, ok := group.(map[string]any); ok {
			for _, v := range g {
				add(v)
			}
		}
	}
	add(get(doc, "tool", "uv", "dev-dependencies"))
	add(get(doc, "tool", "poetry", "dependencies"))
	add(get(doc, "tool", "poetry", "dev-dependencies"))
	if g, ok := get(doc, "tool", "poetry", "group").(map[string]any); ok {
		for name := range g {
			add(get(g, name, "dependencies"))
		}
	}
}
