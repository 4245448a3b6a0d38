package risk

import (
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/shell"
)

// TestResolve: the paths a word names after bash's expansions, in the
// corpus's context (cwd /home/user/project, home /home/user).
func TestResolve(t *testing.T) {
	tests := []struct{ word, want string }{
		{"x", "/home/user/project/x"},
		{"~/.local/state/{s..s}ayso/x", "/home/user/.local/state/sayso/x"},
		{"{a,b}/c", "/home/user/project/a/c /home/user/project/b/c"},
		{"x{1..3}", "/home/user/project/x1 /home/user/project/x2 /home/user/project/x3"},
		{"x{01..3}", "/home/user/project/x01 /home/user/project/x02 /home/user/project/x03"},
		{"x{1..5..2}", "/home/user/project/x1 /home/user/project/x3 /home/user/project/x5"},
		{"x{c..a}", "/home/user/project/xc /home/user/project/xb /home/user/project/xa"},
		{"{a,{b,c}}d", "/home/user/project/ad /home/user/project/bd /home/user/project/cd"},
		{"say{so,}", "/home/user/project/sayso /home/user/project/say"},
		{"'{a,b}'", "/home/user/project/{a,b}"},
		{"${x}{a,b}", ""},
		{"x{a}", "/home/user/project/x{a}"},
		{"x{1..100}", ""},
		{"~", "/home/user"},
		{"~+/a", "/home/user/project/a"},
		{"~-/a", ""},
		{"~user/a", "/home/user/a"},
		{"~root/a", "/root/a"},
		{"~other/a", ""},
		{"'~'/a", "/home/user/project/~/a"},
		{"$HOME/a", "/home/user/a"},
		{`"${HOME}"/a`, "/home/user/a"},
		{"$PWD/..", "/home/user"},
		{`"$PWD"/../x`, "/home/user/x"},
		{"$OLDPWD/x", ""},
		{"$TMPDIR/x", "/tmp/x"},
		{"${TMPDIR}/../x", "/x"},
		{"/tmp/x.$$", "/tmp/x.1"},
		{`"/tmp/x.${$}"`, "/tmp/x.1"},
		{"x.$?", "/home/user/project/x.1"},
		{"x.$#", "/home/user/project/x.1"},
		{"x.${#HOME}", "/home/user/project/x.1"},
		{"x.$!", "/home/user/project/x. /home/user/project/x.1"},
		{"~/$-", "/home/user /home/user/hB"},
		{"$0", ""},
		{"$_", ""},
		{"$1", ""},
		{"$@", ""},
		{"$*", ""},
		{`"$(dirname "$PWD")"`, "/home/user"},
		{"$(pwd)/a", "/home/user/project/a"},
		{"`pwd`/a", "/home/user/project/a"},
		{"$(whoami)/a", ""},
		{"/proc/self/cwd/..", "/home/user"},
		{"/proc/self/cwd/x", "/home/user/project/x"},
		{"/proc/1/root/etc/passwd", "/etc/passwd"},
		{"/proc/*/root/etc", "/etc"},
		{"/proc/1/cwd/x", ""},
		{"/proc/self/fd/3/x", ""},
		{"/proc/self/environ", "/proc/self/environ"},
		{"/proc/./self/../self/cwd", "/home/user/project"},
	}
	for _, tt := range tests {
		s := shell.Parse("cat " + tt.word)
		last := len(s.Segments) - 1 // a substitution's segments come first
		if last < 0 || len(s.Segments[last].Args) < 2 {
			t.Fatalf("Parse(cat %s): no argument", tt.word)
		}
		a := &assessor{ctx: TestContext, script: s, cwds: []string{TestContext.Root}}
		got := strings.Join(a.resolve(s.Segments[last].Args[1]), " ")
		if got != tt.want {
			t.Errorf("resolve(%s) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// TestTempDirFromClient: $TMPDIR is what the client's environment holds
// (Context.TempDir), unless the step sets it; when the caller does not
// know it, it is unknown — unset, $TMPDIR/x is /x.
func TestTempDirFromClient(t *testing.T) {
	for _, tt := range []struct {
		tmp, cmd, want string
	}{
		{"/tmp", "cat $TMPDIR/x", "/tmp/x"},
		{"/var/tmp/u1", "cat $TMPDIR/x", "/var/tmp/u1/x"},
		{"", "cat $TMPDIR/x", ""},
		{"tmp", "cat $TMPDIR/x", ""},
		{"/tmp", "TMPDIR=/etc; cat $TMPDIR/x", "/etc/x"},
		{"/tmp", "export TMPDIR=/etc; cat $TMPDIR/x", "/etc/x"},
		{"/tmp", "read TMPDIR; cat $TMPDIR/x", ""},
		{"/tmp", "source ./env.sh; cat $TMPDIR/x", ""},
	} {
		ctx := TestContext
		ctx.TempDir = tt.tmp
		s := shell.Parse(tt.cmd)
		last := len(s.Segments) - 1
		a := &assessor{ctx: ctx, script: s, cwds: []string{ctx.Root}, cur: last}
		got := strings.Join(a.resolve(s.Segments[last].Args[1]), " ")
		if a.partial {
			got = ""
		}
		if got != tt.want {
			t.Errorf("TMPDIR=%q: resolve in %q = %q, want %q", tt.tmp, tt.cmd, got, tt.want)
		}
	}
}

// TestProtectedResolved: protected means sayso's real folders and
// binaries, resolved; a path whose text merely holds "sayso" is not, and a
// path that stays unknown is unknown, not protected.
func TestProtectedResolved(t *testing.T) {
	for _, tt := range []struct {
		cmd       string
		protected bool
	}{
		{"mkdir -p sayso-demo && echo x > sayso-demo/README.md", false},
		{"cd ~/src/sayso-demo && go test ./...", false},
		{"echo x > ~/src/sayso/internal/risk/notes.txt", false},
		{`cp x "$DEST/sayso/notes"`, false},
		{`rm -rf "$BUILD/sayso"`, false},
		{"go build -o ./bin/sayso ./cmd/sayso", false},
		{"rm -rf ~/.local/state/sayso", true},
		{"rm -rf ~/.local/state/{s..s}ayso", true},
		{"cat ~user/.config/sayso/key", true},
		{"cp x /usr/local/bin/say{so,}", true},
	} {
		got := Command(tt.cmd, TestContext)
		if got.Classes.Has(Protected) != tt.protected {
			t.Errorf("Classify(%q) = %v, protected want %v\n%s", tt.cmd, got.Classes, tt.protected, findings(got))
		}
	}
}

// FuzzResolve: expanding any word never panics and never names more paths
// than the bound.
func FuzzResolve(f *testing.F) {
	for _, w := range []string{"~/{a,b}", "{1..3}{a..c}", "$PWD/..", "/proc/self/cwd/..", `"$(dirname "$PWD")"`, "{{{a,b},c},d}"} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, word string) {
		s := shell.Parse("cat " + word)
		if len(s.Segments) == 0 {
			return
		}
		seg := s.Segments[len(s.Segments)-1]
		a := &assessor{ctx: TestContext, script: s, cwds: []string{TestContext.Root}}
		for _, w := range seg.Args {
			if ps := a.resolve(w); len(ps) > maxExpansions {
				t.Fatalf("resolve(%q) names %d paths", w.Raw, len(ps))
			}
		}
	})
}
