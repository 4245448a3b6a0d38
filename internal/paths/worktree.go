package paths

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sayso-dev/sayso/internal/gitdir"
)

// Worktrees are the other work trees of the repository of the project at
// root, as git worktree list would list them: the main one and every one
// its git folder's worktrees/*/gitdir names, absolute and clean, root
// itself left out. A work tree whose gitdir file does not lead back to a
// .git file that names it (a stale or forged entry) is left out too: it
// is a folder, not the project. Nil when root is in no repository.
func Worktrees(root string) []string {
	root = filepath.Clean(root)
	common := commonDir(filepath.Join(root, ".git"))
	if common == "" {
		return nil
	}
	var out []string
	add := func(dir string) {
		dir = filepath.Clean(dir)
		if dir == root || !filepath.IsAbs(dir) {
			return
		}
		for _, o := range out {
			if o == dir {
				return
			}
		}
		out = append(out, dir)
	}
	if filepath.Base(common) == ".git" {
		if fi, err := os.Stat(common); err == nil && fi.IsDir() {
			add(filepath.Dir(common)) // the main work tree; a bare repository has none
		}
	}
	ents, err := os.ReadDir(filepath.Join(common, "worktrees"))
	if err != nil {
		return out
	}
	for _, e := range ents {
		gd := filepath.Join(common, "worktrees", e.Name())
		b, err := os.ReadFile(filepath.Join(gd, "gitdir"))
		if err != nil || len(b) > 4096 {
			continue
		}
		link := strings.TrimSpace(string(b))
		if !filepath.IsAbs(link) || filepath.Base(link) != ".git" {
			continue
		}
		if named := gitdir.Named(link); named == "" || filepath.Clean(named) != gd {
			continue
		}
		add(filepath.Dir(link))
	}
	return out
}

// commonDir is the repository's common git folder for the .git at link:
// the folder itself, or for a work tree's .git file the folder its
// gitdir's commondir names; "" when there is none.
func commonDir(link string) string {
	fi, err := os.Lstat(link)
	if err != nil {
		return ""
	}
	if fi.IsDir() {
		return link
	}
	dir := gitdir.Named(link)
	if dir == "" {
		return ""
	}
	return gitdir.Common(dir) // none: a submodule's .git file, its own repository
}
