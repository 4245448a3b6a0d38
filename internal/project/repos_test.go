package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository the project did not have is looked at; what its
// configuration sets that runs a program is named, what does not is not.
func TestRepoRuns(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string, mode os.FileMode) {
		t.Helper()
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/HEAD", "ref: refs/heads/main\n", 0o644)
	write(".git/config", "[core]\n\tfsmonitor = x\n", 0o644)
	write(".git/modules/m/HEAD", "ref: refs/heads/main\n", 0o644)
	write(".git/modules/m/config", "[core]\n\tfsmonitor = x\n", 0o644)
	write("m/.git", "gitdir: ../.git/modules/m\n", 0o644)
	write("a/.git/HEAD", "ref: refs/heads/main\n", 0o644)
	write("a/.git/config", "[remote \"origin\"]\n\turl = https://example.com/x\n[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n[Core]\n\tPager = less\n", 0o644)
	write("b/.git/HEAD", "ref: refs/heads/main\n", 0o644)
	write("b/.git/config", "[remote \"origin\"]\n\turl = https://example.com/x\n[core.]\n", 0o644)
	write("b/.git/hooks/pre-commit.sample", "#!/bin/sh\n", 0o755)
	write("b/.git/hooks/post-checkout", "#!/bin/sh\n", 0o644) // not executable: git skips it
	write("c/.git/HEAD", "ref: refs/heads/main\n", 0o644)
	write("c/.git/config", "[alias]\n\tst = !sh -c x\n[diff \"x\"]\n\ttextconv = cat\n", 0o644)
	write("d/.git/HEAD", "ref: refs/heads/main\n", 0o644)
	write("d/.git/config", "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = https://example.com/x\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n\n[newfeature]\n\tprogram = ./x\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n", 0o644)
	runs := repoRuns(root, ownGitDirs(root))
	for dir, want := range map[string]string{
		".":      "", // the project's own: the wall keeps it
		"src/x":  "", // found above: the project's
		"m":      "", // a module of the project's
		"a":      "a/.git/config sets filter.lfs.clean",
		"a/deep": "a/.git/config sets filter.lfs.clean",
		"b":      "",
		"c":      "c/.git/config sets diff.x.textconv",
		"a/.git": "a/.git/config sets filter.lfs.clean", // --git-dir
		// a key sayso does not know to run nothing, as a later git
		// may read it: closed by default
		"d": "d/.git/config sets newfeature.program",
	} {
		got := runs(filepath.Join(root, dir))
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("repoRuns(%s) = %q, want %q", dir, got, want)
		}
	}
	if got := runs(filepath.Join(root, "a")); strings.Contains(got, "remote.origin.url") || strings.Contains(got, "core.pager") {
		t.Errorf("repoRuns(a) names keys that run nothing: %q", got)
	}
}
