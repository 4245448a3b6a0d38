package shell

import (
	"strings"
	"testing"
)

// TestHidden: bytes bash reads differently from the parser, and characters
// a person cannot see, are opaque; the words are the ones bash runs.
func TestHidden(t *testing.T) {
	tests := []struct {
		in     string
		words  string // the first segment's words, as bash runs them
		opaque bool
	}{
		{"TZ=UTC\recho git push --force origin main", "git push --force origin main", true},
		{"echo ok\rgit push", "echo ok%git push", true},
		{"git status\r\nls", "git status%", true},
		{"bash -c $'TZ=UTC\\recho git push --force'", "bash -c TZ=UTC\recho git push --force", true},
		{"git\u200b push", "git\u200b push", true},
		{"git push \u2014force", "git push \u2014force", true},
		{"git push '\u2014force'", "git push \u2014force", true},
		{"rm \uff0drf x", "rm \uff0drf x", true},
		{"g\u0456t status", "g\u0456t status", true},
		{"echo a\u00a0b", "echo a\u00a0b", true},
		{"echo \x1b[1A", "echo \x1b[1A", true},
		{"git push origin \u202emain", "git push origin \u202emain", true},
		// everyday text
		{`git commit -m "a — b – c"`, "git commit -m a — b – c", false},
		{`git commit -m "café ✨ ⚠️ 👨‍👩‍👧"`, "git commit -m café ✨ ⚠️ 👨‍👩‍👧", false},
		{"ls café/", "ls café/", false},
		{"printf $'a\\r\\n'", "printf a\r\n", false},
	}
	for _, tt := range tests {
		s := Parse(tt.in)
		if got := len(s.Opaques()) > 0; got != tt.opaque {
			t.Errorf("Parse(%q) opaque = %v, want %v: %q", tt.in, got, tt.opaque, s.Opaques())
		}
		if len(s.Segments) == 0 {
			t.Errorf("Parse(%q) has no segment", tt.in)
			continue
		}
		if got := strings.Join(Words(s.Segments[0].Args), " "); got != tt.words {
			t.Errorf("Parse(%q) words = %q, want %q", tt.in, got, tt.words)
		}
	}
}
