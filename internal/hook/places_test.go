package hook

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
	"github.com/sayso-dev/sayso/internal/wall"
)

// TestPlacesAgree: the engine and the wall read one table of places
// (package place). A place the engine asks about before a step writes it
// is one the wall keeps read-only, and a credential the engine calls a
// secret read is one the wall hides: the day one of them treats a place
// the other does not, this fails.
func TestPlacesAgree(t *testing.T) {
	const home, root = "/home/user", "/home/user/project"
	ctx := risk.Context{Root: root, Home: home}
	local := wall.For(wall.Inputs{Home: home, Root: root, Scope: wall.Local})
	kept := func(p string) bool {
		for _, r := range local.ReadOnly {
			if p == r || strings.HasPrefix(p, r+"/") {
				return true
			}
		}
		return false
	}
	classes := func(cmd string) risk.Set { return risk.Classify(shell.Parse(cmd), ctx).Classes }

	for _, e := range place.Project {
		p := filepath.Join(root, e)
		if !classes("echo x > " + p).Has(risk.InstructionPatch) {
			t.Errorf("the wall keeps %s; the engine lets a step write it as local work", e)
		}
		if !kept(p) {
			t.Errorf("the engine asks before %s is written; the wall does not keep it", e)
		}
	}
	// The other way: project places the engine asks about, as a person
	// would name them, are each kept by the wall.
	for _, e := range []string{"CLAUDE.md", "AGENTS.md", "GEMINI.md", ".mcp.json", ".claude/settings.local.json", ".codex/config.toml",
		".gemini/settings.json", ".agents/skills/x/SKILL.md", ".cursor/rules/x.mdc", ".cursorrules", ".github/copilot-instructions.md",
		".git/hooks/pre-commit", ".git/config", ".gitattributes", ".gitmodules", ".husky/pre-commit", ".pre-commit-config.yaml",
		"lefthook.yml", ".envrc", ".vscode/tasks.json", ".vscode/settings.json", ".idea/workspace.xml", ".devcontainer/devcontainer.json",
		".npmrc", ".yarnrc.yml", ".pnpmfile.cjs", "bunfig.toml", ".cargo/config.toml", "nuget.config", ".bundle/config"} {
		p := filepath.Join(root, e)
		if !classes("echo x > " + p).Has(risk.InstructionPatch) {
			t.Errorf("%s: the engine lets a step write it as local work", e)
		}
		if !kept(p) && !strings.HasPrefix(e, ".git/") {
			t.Errorf("%s: the engine asks before it is written; the wall does not keep it", e)
		}
	}

	// What the clients load code from, in the home: asked about by the
	// engine, kept by the wall in every scope a mode lets a step run in.
	for _, scope := range []wall.Scope{wall.Read, wall.Local, wall.Approved} {
		prof := wall.For(wall.Inputs{Home: home, Root: root, Scope: scope})
		for _, e := range place.ClientCode {
			p := filepath.Join(home, e)
			if scope == wall.Local && !classes("echo x > "+p).Has(risk.InstructionPatch) {
				t.Errorf("%s: the engine lets a step write what the client loads as local work", e)
			}
			held := false
			for _, r := range prof.ReadOnly {
				held = held || p == r || strings.HasPrefix(p, r+"/")
			}
			if !held {
				t.Errorf("%s: the wall's %v scope does not keep what the client loads", e, scope)
			}
		}
	}

	for _, c := range place.Credentials {
		p := filepath.Join(home, c)
		if !classes("cat " + p).Has(risk.Secret) {
			t.Errorf("the wall hides %s; the engine reads it as a plain read", c)
		}
		if !slices.Contains(local.Hidden, p) {
			t.Errorf("the engine calls reading %s a secret; the wall shows it to local work", c)
		}
	}
}
