package web

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDenyMessage(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"push to a branch instead", "push to a branch instead"},
		{"  push\n\tto a\x00branch\r\n", "push to a branch"},
		{"\x1b[31mred", "[31mred"},
		{"", ""},
	} {
		if got := DenyMessage(c.in); got != c.want {
			t.Errorf("DenyMessage(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := DenyMessage(strings.Repeat("é", 1000)); utf8.RuneCountInString(got) != MaxDenyMessage {
		t.Errorf("a long message keeps %d characters, want %d", utf8.RuneCountInString(got), MaxDenyMessage)
	}
}
