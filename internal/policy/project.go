package policy

import "github.com/sayso-dev/sayso/internal/risk"

// Project is the project one step runs in, as package project read it from
// the disk, once, for that step: the decision reads its packages, scripts,
// commands and recipes (through risk.Context), the wall's plan its root,
// work trees and repository. The zero value is a folder in no repository
// that declares nothing.
type Project struct {
	Root      string              // the top of the git work tree holding the step's folder, or the folder
	Worktrees []string            // the repository's other work trees (git worktree list), absolute, Root left out
	Packages  map[string]bool     // the packages it depends on and the programs they installed
	Scripts   map[string]string   // package.json's scripts
	Commands  map[string]string   // the commands it declares as its own, with where
	Recipes   map[string][]string // its Makefile's targets' recipe lines ("%": rules sayso cannot read)
	// GitDirs are the real paths of the project's own git folders: .git,
	// or the folder a .git file names and its common folder.
	GitDirs []string
	// GitFolder reports that Root/.git is a folder, not a link or a .git
	// file naming a folder elsewhere.
	GitFolder bool
	// NoHooks reports that no git command in the project runs a hook:
	// no hook in its git folders, no configuration git reads naming a
	// hooks folder, a hook or another file to include, all of it read.
	// The zero value may run one.
	NoHooks bool
}

// Context is ctx with what risk reads of the project: its root, work
// trees, packages, scripts, commands and recipes.
func (p Project) Context(ctx risk.Context) risk.Context {
	ctx.Root, ctx.Roots, ctx.Packages, ctx.Scripts, ctx.Commands, ctx.Recipes = p.Root, p.Worktrees, p.Packages, p.Scripts, p.Commands, p.Recipes
	return ctx
}
