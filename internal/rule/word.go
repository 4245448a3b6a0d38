package rule

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// safeByte reports whether c may appear in a rule's word: a character that
// means the same thing to the shell quoted or not. Anything else needs
// quotes or an escape to mean itself, and a rule is never written with
// quotes that change a word.
func safeByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("._/:=@%+,^-", c) >= 0
}

// safeWord reports whether v is a word a rule may hold as it is.
func safeWord(v string) bool { return madeOf(v, safeByte) }

// madeOf reports whether s has at least one byte and every byte is ok.
func madeOf(s string, ok func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// wordProblem says why a parsed word is not exactly its own text, or "" when
// it is: quoting that does not change the word is fine.
func wordProblem(w shell.Word) string {
	switch {
	case len(w.Subst) > 0:
		return "a substitution ($(…), backticks, <(…)) in " + quote(w.Raw)
	case len(w.Params) > 0 || !w.Literal:
		return "a variable or an expansion in " + quote(w.Raw)
	case w.Escaped:
		return "an escape or $'…' in " + quote(w.Raw)
	case w.Tilde:
		return "~ in " + quote(w.Raw)
	case w.Brace:
		return "a brace expansion in " + quote(w.Raw)
	case w.Glob:
		return "a glob in " + quote(w.Raw)
	case !safeWord(w.Value):
		if w.Quoted {
			return "quotes that change the word " + quote(w.Raw)
		}
		return "the word " + quote(w.Raw) + " holds a character a rule never holds"
	}
	return ""
}

// starByte reports whether c may stand in the part of a word a rule's *
// covers: never ':', a space, or anything the shell or git reads specially.
func starByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return c == '.' || c == '_' || c == '-' || c == '/'
}

// starCovers reports whether s may stand for a rule's *: at least one
// character, only name characters, never '..', and no empty or '.' part
// between slashes.
func starCovers(s string) bool {
	if !madeOf(s, starByte) {
		return false
	}
	for part := range strings.SplitSeq(s, "/") {
		if part == "" || part == "." || strings.Contains(part, "..") {
			return false
		}
	}
	return true
}

// pinned reports whether prefix, the text before a rule's final *, is a
// name that pins it down: one or more name parts, each followed by '/'
// (feature/, src/pkg/).
func pinned(prefix string) bool {
	body, ok := strings.CutSuffix(prefix, "/")
	if !ok || body == "" || body[0] == '-' || !starCovers(body) {
		return false
	}
	first, _, _ := strings.Cut(body, "/")
	return !refKinds[first]
}

// refKinds are the first parts of names that stand for any branch or tag:
// refs/* would cover refs/heads/main.
var refKinds = set("refs", "heads", "tags", "remotes", "HEAD")

func quote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return "`" + s + "`"
}
