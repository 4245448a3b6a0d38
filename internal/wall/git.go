package wall

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sayso-dev/sayso/internal/gitdir"
)

// gitPaths are the paths of the project's repository that would run a
// step's code at the person's next git command, read-only, and the
// folders among them made first when missing: the hooks and the
// configuration (core.fsmonitor, core.hooksPath, aliases …) of the
// repository, of each worktree and of each submodule; for a worktree or
// submodule whose .git is a file naming its repository elsewhere, that
// file too; and the hooks folder core.hooksPath names (.husky …).
//
// configs are the configuration files among readOnly of the project's own
// repository and its worktrees and modules.
func gitPaths(root, home string) (readOnly, configs, mk []string) {
	link := filepath.Join(root, ".git")
	fi, err := os.Lstat(link)
	if err != nil {
		return nil, nil, nil
	}
	var dirs []string // git folders whose hooks and configuration count
	switch {
	case fi.IsDir():
		dirs = append(dirs, link)
		dirs = append(dirs, subGitDirs(filepath.Join(link, "worktrees"), 1)...)
		dirs = append(dirs, subGitDirs(filepath.Join(link, "modules"), 4)...)
	case fi.Mode().IsRegular():
		readOnly = append(readOnly, link)
		dirs = append(dirs, LinkedGitDirs(link)...)
	}
	for _, d := range dirs {
		// A git folder without hooks gets an empty hooks folder, bound
		// read-only like any other, rather than one a step can plant.
		mk = append(mk, filepath.Join(d, "hooks"))
		readOnly = append(readOnly, filepath.Join(d, "hooks"))
		own := []string{filepath.Join(d, "config"), filepath.Join(d, "config.worktree")}
		readOnly = append(readOnly, own...)
		configs = append(configs, own...)
	}
	for _, c := range append([]string{filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config")}, configs...) {
		h := hooksPath(c)
		switch {
		case h == "":
			continue
		case h == "~" || strings.HasPrefix(h, "~/"):
			h = filepath.Join(home, h[1:])
		case !filepath.IsAbs(h):
			h = filepath.Join(root, h)
		}
		h = filepath.Clean(h)
		readOnly = append(readOnly, h)
		if strings.HasPrefix(h, root+"/") && within(filepath.Dir(h), root) {
			mk = append(mk, h)
		}
	}
	return readOnly, configs, mk
}

// within reports whether dir, its links followed, is root or lies in it,
// its links followed too: a folder made for a step outside the wall is
// made where it is named, never where a link a step planted leads.
func within(dir, root string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	return d == r || strings.HasPrefix(d, r+"/")
}

// LinkedGitDirs are the git folders a .git file leads to: the one it
// names and, for a worktree, the common folder that one names; nil when
// it names none.
func LinkedGitDirs(link string) []string {
	dir := gitdir.Named(link)
	if dir == "" {
		return nil
	}
	dirs := []string{dir}
	if common := gitdir.Common(dir); common != "" {
		dirs = append(dirs, common)
	}
	return dirs
}

// subGitDirs are the git folders below dir (a repository's worktrees or
// modules folder), down to depth levels of nesting.
func subGitDirs(dir string, depth int) []string {
	if depth == 0 {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(d, "HEAD")); err == nil {
			out = append(out, d)
			out = append(out, subGitDirs(filepath.Join(d, "modules"), depth-1)...)
		} else {
			// A submodule's name may hold slashes: modules/a/b.
			out = append(out, subGitDirs(d, depth-1)...)
		}
	}
	return out
}

// hooksPath is the core.hooksPath a git configuration file sets, or "".
// It reads the file as git does in the common case: a key is case
// blind, a value may be quoted; include files are not followed.
func hooksPath(config string) string {
	b, err := os.ReadFile(config)
	if err != nil {
		return ""
	}
	section, out := "", ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			section = strings.ToLower(strings.Trim(strings.Fields(line + " ")[0], "[]"))
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || section != "core" || !strings.EqualFold(strings.TrimSpace(key), "hookspath") {
			continue
		}
		out = strings.Trim(strings.TrimSpace(value), `"`)
	}
	return out
}

// RunsHooks reports whether a git command in the repository at root may
// run a hook: a git folder's hooks hold something other than git's
// samples, or a configuration git reads names a hooks folder, a hook
// (hook.<name>.command) or another file to include, which sayso does not
// follow. A hook runs whatever it runs — often the project's own scripts
// — so a step let write the repository's configuration must run none.
// Unreadable counts as a hook.
func RunsHooks(root, home string) bool {
	_, configs, _ := gitPaths(clean(root), clean(home))
	files := []string{"/etc/gitconfig"}
	if home := clean(home); home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"))
	}
	for _, c := range append(files, configs...) {
		b, err := os.ReadFile(c)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return true
		}
		s := strings.ToLower(string(b))
		if strings.Contains(s, "hookspath") || strings.Contains(s, "include") || strings.Contains(s, "[hook") {
			return true
		}
	}
	seen := map[string]bool{}
	for _, c := range configs {
		dir := filepath.Join(filepath.Dir(c), "hooks")
		if seen[dir] {
			continue
		}
		seen[dir] = true
		ents, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return true
		}
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".sample") {
				return true
			}
		}
	}
	return false
}
