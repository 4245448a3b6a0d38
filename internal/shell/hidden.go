package shell

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// crStandIn replaces a carriage return before the parser reads the text.
// bash reads a carriage return as an ordinary character of a word (a blank
// is a space or a tab, bash(1) DEFINITIONS); mvdan.cc/sh reads it as a
// blank and drops it before a newline. '%' is an ordinary character of a
// word to both, of the same length, so the words the parser returns are the
// ones bash runs. The step stays opaque all the same.
const crStandIn = '%'

// hidden finds, in text about to be parsed, the bytes bash and the parser
// read differently and the characters a person reading the command cannot
// see: control characters, invisible and bidi format characters, and
// spaces that are not blanks. It returns the text the parser should read
// and a mark for each kind found. Text of printable ASCII, tabs and
// newlines returns at once.
func hidden(src string) (string, []Opaque) {
	i := 0
	for ; i < len(src); i++ {
		if c := src[i]; c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' {
			break
		}
	}
	if i == len(src) {
		return src, nil
	}
	var marks []Opaque
	seen := map[string]bool{}
	mark := func(off int, why string) {
		if seen[why] {
			return
		}
		seen[why] = true
		marks = append(marks, Opaque{Pos: offsetPos(src, off), Why: why})
	}
	out := src
	prev := rune(0)
	for off := i; off < len(src); {
		r, n := utf8.DecodeRuneInString(src[off:])
		switch {
		case r == '\r':
			if out == src {
				out = strings.ReplaceAll(src, "\r", string(crStandIn))
			}
			mark(off, "a carriage return, which bash reads as part of a word and the parser as a blank")
		case r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f:
			mark(off, fmt.Sprintf("a control character (U+%04X) in the command", r))
		case r >= 0xfe00 && r <= 0xfe0f:
			// A variation selector only picks how the glyph before it looks
			// (❤️, ⚠️): it cannot hide a word or a separator.
		case r == 0x200d && unicode.Is(unicode.So, prev) && off+n < len(src) && nextIsSymbol(src[off+n:]):
			// A zero-width joiner inside an emoji sequence.
		case invisible(r):
			mark(off, fmt.Sprintf("an invisible character (U+%04X) in the command", r))
		case unicode.Is(unicode.Zs, r) && r != ' ':
			mark(off, fmt.Sprintf("a space (U+%04X) that bash reads as part of a word", r))
		}
		prev = r
		off += n
	}
	return out, marks
}

func nextIsSymbol(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.Is(unicode.So, r)
}

// invisible reports whether r shows nothing or moves text around: format
// characters (zero-width, bidi controls, soft hyphen, byte order mark,
// tags), line and paragraph separators, and blank fillers.
func invisible(r rune) bool {
	switch r {
	case 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x3164, 0xffa0, 0x034f:
		return true
	}
	if r >= 0x180b && r <= 0x180f || r >= 0xfff0 && r <= 0xfffb || r >= 0xe0000 && r <= 0xe0fff {
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Co)
}

// lookAlike reports whether r looks like an ASCII character that means
// something to bash or to a program's options: dashes and minus signs
// (read as -), slashes, and the fullwidth forms of ASCII.
func lookAlike(r rune) bool {
	switch {
	case r >= 0x2010 && r <= 0x2015, r == 0x2212, r == 0x2043, r == 0x02d7, r == 0xfe58, r == 0xfe63,
		r == 0x2044, r == 0x2215, r == 0x29f8, r == 0x2216, r == 0x29f5,
		r >= 0xff01 && r <= 0xff5e:
		return true
	}
	return false
}

// dashLike reports whether r is read by a person as the - of an option.
func dashLike(r rune) bool {
	return r >= 0x2010 && r <= 0x2015 || r == 0x2212 || r == 0x2043 || r == 0x02d7 || r == 0xfe58 || r == 0xfe63 || r == 0xff0d
}

// offsetPos is the line and column of byte off in src.
func offsetPos(src string, off int) Pos {
	line := 1 + strings.Count(src[:off], "\n")
	col := off + 1
	if j := strings.LastIndexByte(src[:off], '\n'); j >= 0 {
		col = off - j
	}
	return Pos{Line: line, Col: col}
}

// ascii reports whether s holds only ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// hasLookAlike reports whether s holds a look-alike character.
func hasLookAlike(s string) bool {
	if ascii(s) {
		return false
	}
	for _, r := range s {
		if lookAlike(r) {
			return true
		}
	}
	return false
}
