// Package gitdir reads where a .git file leads: the git folder a work
// tree's or a submodule's .git file names, and the common folder a work
// tree's git folder names. The wall keeps what they name read-only, and
// the engine calls a work tree of the project in scope, from one reading.
package gitdir

import (
	"os"
	"path/filepath"
	"strings"
)

// Named is the folder a .git file (a work tree's, a submodule's)
// names ("gitdir: …"), absolute and clean; "" when link is no such file.
// A link to such a file is followed, as git follows it.
func Named(link string) string {
	fi, err := os.Stat(link)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return ""
	}
	b, err := os.ReadFile(link)
	if err != nil {
		return ""
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return ""
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(link), dir)
	}
	return filepath.Clean(dir)
}

// Common is the common git folder a work tree's git folder dir
// names in its commondir file, absolute and clean; "" when it names none
// (a submodule's git folder is a repository of its own).
func Common(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "commondir"))
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(b))
	if !filepath.IsAbs(c) {
		c = filepath.Join(dir, c)
	}
	return filepath.Clean(c)
}
