package card

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
		for _, a := range []Answer{Deny, DenyAndHold} {
			if got := a.Message(c.in); got != c.want {
				t.Errorf("%v.Message(%q) = %q, want %q", a, c.in, got, c.want)
			}
		}
		for _, a := range []Answer{AllowOnce, AlwaysAllow, Answer(9)} {
			if got := a.Message(c.in); got != "" {
				t.Errorf("%v.Message(%q) = %q: only a deny carries words", a, c.in, got)
			}
		}
	}
	if got := Deny.Message(strings.Repeat("é", 1000)); utf8.RuneCountInString(got) != MaxDenyMessage {
		t.Errorf("a long message keeps %d characters, want %d", utf8.RuneCountInString(got), MaxDenyMessage)
	}
}

// TestAnswerText: each answer has one text form, read back as itself;
// unknown text is Deny and an error.
func TestAnswerText(t *testing.T) {
	for _, a := range []Answer{Deny, DenyAndHold, AllowOnce, AlwaysAllow} {
		b, err := a.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Answer = 7
		if err := back.UnmarshalText(b); err != nil || back != a {
			t.Errorf("%s reads back as %v, %v", b, back, err)
		}
	}
	for _, s := range []string{"", "allow", "Allow-Once", "yes", "deny "} {
		if a, err := ParseAnswer(s); err == nil || a != Deny {
			t.Errorf("ParseAnswer(%q) = %v, %v: want Deny and an error", s, a, err)
		}
	}
	if Answer(4).Known() {
		t.Error("a fifth answer is known")
	}
}
