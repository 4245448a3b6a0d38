// Package project reads the project one step runs in, once: its root and
// work trees, its manifests (package.json, pyproject.toml), scripts,
// Makefile recipes, repositories, and the compose files a step names. The
// gateway reads it once per step and hands the value to the decision and
// the wall's plan; nothing else reads the project's folder.
//
// It reads the disk and does nothing else: it starts no process, reaches
// no network and keeps nothing.
package project

import (
	"os"
	"path/filepath"

	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/wall"
)

// Read reads the project of a step that runs in folder dir, for the
// person whose home is home (git reads their configuration too).
func Read(dir, home string) policy.Project {
	root := paths.ProjectRoot(dir)
	p := policy.Project{Root: root, Worktrees: paths.Worktrees(root), Recipes: makeRecipes(root), GitDirs: ownGitDirs(root), NoHooks: !wall.RunsHooks(root, home)}
	p.Packages, p.Scripts, p.Commands = packages(root)
	fi, err := os.Lstat(filepath.Join(root, ".git"))
	p.GitFolder = err == nil && fi.IsDir()
	return p
}

// Disk is how a request for a step in the project p reads what the step
// names: links resolved by evalSymlinks, the compose files of compose
// steps read, the repositories git steps use looked at, the files it
// runs summed.
func Disk(p policy.Project, evalSymlinks func(string) (string, error)) policy.Disk {
	return policy.Disk{EvalSymlinks: evalSymlinks, RepoRuns: repoRuns(p.Root, p.GitDirs), Compose: readCompose, Sum: wall.Sum}
}
