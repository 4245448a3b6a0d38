package gitdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNamedAndCommon(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rel := write("wt/.git", "gitdir: ../main/.git/worktrees/wt\n")
	abs := write("abs/.git", "gitdir:  "+dir+"/x/../elsewhere \n")
	other := write("other/.git", "not a link\n")
	big := write("big/.git", "gitdir: /a"+strings.Repeat("b", 5000)+"\n")
	link := filepath.Join(dir, "linked.git")
	if err := os.Symlink(rel, link); err != nil {
		t.Fatal(err)
	}
	write("main/.git/worktrees/wt/commondir", "../..\n")
	for _, c := range []struct{ link, want string }{
		{rel, filepath.Join(dir, "main/.git/worktrees/wt")},
		{abs, filepath.Join(dir, "elsewhere")},
		{other, ""},
		{big, ""},
		{filepath.Join(dir, "none/.git"), ""},
		{filepath.Join(dir, "main"), ""}, // a folder
		// Followed, and read from where the link is, as git reads it.
		{link, filepath.Join(dir, "../main/.git/worktrees/wt")},
	} {
		if got := Named(c.link); got != c.want {
			t.Errorf("Named(%s) = %q, want %q", c.link, got, c.want)
		}
	}
	if got, want := Common(filepath.Join(dir, "main/.git/worktrees/wt")), filepath.Join(dir, "main/.git"); got != want {
		t.Errorf("Common = %q, want %q", got, want)
	}
	if got := Common(filepath.Join(dir, "main/.git")); got != "" {
		t.Errorf("Common of a folder with no commondir = %q, want none", got)
	}
}
