package project

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/sayso-dev/sayso/internal/gitdir"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/wall"
)

// repoRuns returns the look policy.Resolve makes at the repository a git
// segment uses: when git, started in folder dir, finds a repository that
// is not the project's own (own: the project's git folder, its worktrees
// and modules, which the wall keeps read-only), it says which of that
// repository's configuration keys and hooks run a program. A step the
// wall let write in the project can make such a repository below it; a
// later git step there, run outside the wall on the person's say-so,
// would run what it planted.
func repoRuns(root string, own []string) func(dir string) string {
	return func(dir string) string {
		gd := findGitDir(dir)
		if gd == "" {
			return ""
		}
		real, err := filepath.EvalSymlinks(gd)
		if err != nil {
			return ""
		}
		for _, o := range own {
			if real == o || strings.HasPrefix(real, o+"/") {
				return ""
			}
		}
		return runs(real, root)
	}
}

// ownGitDirs are the real paths of the project's git folders: .git, or
// the folder a .git file names and its common folder.
func ownGitDirs(root string) []string {
	link := filepath.Join(root, ".git")
	fi, err := os.Lstat(link)
	if err != nil {
		return nil
	}
	var dirs []string
	if fi.IsDir() {
		dirs = append(dirs, link)
	} else {
		dirs = wall.LinkedGitDirs(link)
	}
	var out []string
	for _, d := range dirs {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// findGitDir is the git folder git uses from dir, found as git finds it:
// dir itself when it is a git folder (--git-dir), else the nearest .git
// folder, or folder a .git file names, in dir or above it. "" when none.
func findGitDir(dir string) string {
	if isGitDir(dir) {
		return dir
	}
	for d := dir; ; d = filepath.Dir(d) {
		link := filepath.Join(d, ".git")
		if fi, err := os.Stat(link); err == nil {
			if fi.IsDir() {
				return link
			}
			if gd := gitdir.Named(link); gd != "" {
				return gd
			}
		}
		if d != dir && isGitDir(d) {
			return d // a bare repository git finds walking up
		}
		if d == "/" || d == "." {
			return ""
		}
	}
}

// isGitDir reports whether dir looks like a git folder to git: a HEAD
// file beside objects or a config.
func isGitDir(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	_, err1 := os.Stat(filepath.Join(dir, "config"))
	_, err2 := os.Stat(filepath.Join(dir, "objects"))
	return err1 == nil || err2 == nil
}

// runs says what git folder gd's configuration and hooks run, or "".
func runs(gd, root string) string {
	var found []string
	show := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
	for _, name := range []string{"config", "config.worktree"} {
		f := filepath.Join(gd, name)
		for _, k := range configKeys(f) {
			found = append(found, show(f)+" sets "+k)
		}
	}
	var hooks []string
	if ents, err := os.ReadDir(filepath.Join(gd, "hooks")); err == nil {
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".sample") {
				continue
			}
			if fi, err := os.Stat(filepath.Join(gd, "hooks", e.Name())); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				hooks = append(hooks, show(filepath.Join(gd, "hooks", e.Name())))
			}
		}
	}
	if len(hooks) > 0 {
		slices.Sort(hooks)
		found = append(found, "hook "+strings.Join(hooks, ", "))
	}
	if len(found) == 0 {
		return ""
	}
	return "git here uses the repository " + show(gd) + ", not the project's, and the wall does not keep it: " +
		strings.Join(found, "; ") + ", which may run a program at this git command"
}

// configKeys are the keys of git configuration file f that may make git
// run a program — every key sayso does not know to run nothing
// (risk.GitConfigKnownInert) — read as git reads the common case: sections and subsections,
// keys case blind, values maybe quoted. A file too big or unreadable as
// such is one key of its own: what it sets is not known.
func configKeys(f string) []string {
	b, err := os.ReadFile(f)
	if err != nil {
		return nil
	}
	if len(b) > 1<<20 {
		return []string{"more than sayso reads"}
	}
	var out []string
	section := ""
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // git skips a byte-order mark
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return append(out, "a section git may read otherwise ("+line+")")
			}
			head := line[1:end]
			// git reads any blank between the name and its subsection.
			name, sub, hasSub := strings.Cut(strings.Map(func(r rune) rune {
				if unicode.IsSpace(r) {
					return ' '
				}
				return r
			}, head), " ")
			section = strings.ToLower(name)
			if hasSub {
				section += "." + strings.ToLower(strings.Trim(strings.TrimSpace(sub), `"`))
			} else if n, s, ok := strings.Cut(name, "."); ok { // [section.sub]
				section = strings.ToLower(n) + "." + strings.ToLower(s)
			}
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		key, value, _ := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.Trim(strings.TrimSpace(value), `"`)
		if k := section + "." + key; !risk.GitConfigKnownInert(k, value) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}
