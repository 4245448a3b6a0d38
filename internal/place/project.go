package place

import "strings"

// Project are the files and folders of a project, relative to its root,
// that hold what an agent reads as instructions or settings, or what a
// tool runs later on its own — at the person's next commit, checkout,
// install, build, cd or opening of the editor: the engine asks before a
// step writes one (an instruction patch), and the wall keeps each that
// exists read-only in every walled step. Folders hold all they contain.
var Project = []string{
	// The agents' instructions and settings (the clients' own folders,
	// .claude, .codex, .gemini and .agents, with sayso's .sayso, are made
	// when missing and kept by the wall as clientDirs).
	"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENTS.override.md", "GEMINI.md", ".mcp.json",
	".cursorrules", ".windsurfrules", ".cursor", ".github/copilot-instructions.md",
	// What git runs, or is told to run, at the person's next command.
	".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml", ".husky", ".gitmodules", ".gitattributes",
	// What the shell, the editors and dev containers run on their own.
	".envrc", ".vscode", ".idea", ".devcontainer",
	// The package tools' project settings: a registry to install from, a
	// script shell, a hook every install or build runs.
	".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", "bunfig.toml", ".cargo/config", ".cargo/config.toml",
	"nuget.config", "NuGet.Config", ".bundle/config", "pip.conf",
}

// InProject says which entry of Project path p (slash-separated, any
// case: a case-insensitive file system makes .VSCode/ .vscode/) is or
// lies in, looking at its last components wherever the project's root
// is (a sub-folder's CLAUDE.md, a virtual environment's pip.conf); ""
// when none.
func InProject(p string) string {
	p = strings.Trim(p, "/")
	for _, e := range Project {
		if hasPart(p, e) {
			return e
		}
	}
	return ""
}

// hasPart reports whether the parts of the path p (no leading slash)
// hold e, one part or several, in any case: p ends with it, or it is a
// folder of p. It builds no string: the engine asks for every path of
// every step.
func hasPart(p, e string) bool {
	for i := 0; i+len(e) <= len(p); i++ {
		if (i == 0 || p[i-1] == '/') && (i+len(e) == len(p) || p[i+len(e)] == '/') && strings.EqualFold(p[i:i+len(e)], e) {
			return true
		}
	}
	return false
}
