package shell

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one argument as the shell would pass it.
type Word struct {
	Raw     string // the source text of the word
	Value   string // the argument after quote removal; exact only when Literal
	Literal bool   // no expansion of any kind: Value is exactly what runs
	Quoted  bool   // it holds '…' or "…" quoting
	Escaped bool   // it holds a backslash escape or $'…'
	Glob    bool   // an unquoted *, ? or [ the shell would expand
	Brace   bool   // an unquoted {a,b} or {1..3} the shell would expand
	Tilde   bool   // an unquoted leading ~ the shell would expand
	// Subst lists the segments (indices into Script.Segments) whose output
	// becomes part of this word: $(…), `…`, <(…), >(…).
	Subst []int
	// Params names the parameters it expands ($HOME, ${TOKEN}…).
	Params []string
}

// Plain reports whether the word is exactly its value: literal, with no
// glob, brace or tilde expansion pending.
func (w Word) Plain() bool {
	return w.Literal && !w.Glob && !w.Brace && !w.Tilde
}

// Words returns the values of ws.
func Words(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

// word converts a syntax word. Substitutions inside it are parsed into
// segments by the walker, which fills Subst.
func (p *parser) word(w *syntax.Word) Word {
	out := Word{Raw: p.text(w), Literal: true}
	var b strings.Builder
	for i, part := range w.Parts {
		p.wordPart(&out, &b, part, false, i == 0)
	}
	out.Value = b.String()
	if !ascii(out.Raw) {
		if r, _ := utf8.DecodeRuneInString(out.Value); dashLike(r) {
			p.opaque(w.Pos(), "a word starts with "+quote(string(r))+", which looks like the - of an option")
		}
	}
	return out
}

func (p *parser) wordPart(out *Word, b *strings.Builder, part syntax.WordPart, inDbl, first bool) {
	switch x := part.(type) {
	case *syntax.Lit:
		v := x.Value
		if !inDbl {
			if hasLookAlike(v) {
				p.opaque(x.Pos(), "an unquoted word holds a character that looks like another: "+quote(v))
			}
			if first && strings.HasPrefix(v, "~") {
				out.Tilde = true
			}
			if strings.ContainsAny(v, "*?") && hasUnescaped(v, "*?") ||
				strings.Contains(v, "[") && strings.Contains(v[strings.IndexByte(v, '['):], "]") && hasUnescaped(v, "[") {
				out.Glob = true
			}
			if strings.Contains(v, "{") && (strings.Contains(v, ",") || strings.Contains(v, "..")) && strings.Contains(v, "}") {
				out.Brace = true
			}
		}
		if strings.Contains(v, `\`) {
			out.Escaped = true
			v = unescape(v, inDbl)
		}
		b.WriteString(v)
	case *syntax.SglQuoted:
		out.Quoted = true
		if x.Dollar {
			out.Escaped = true
			b.WriteString(ansiC(x.Value))
		} else {
			b.WriteString(x.Value)
		}
	case *syntax.DblQuoted:
		out.Quoted = true
		if x.Dollar {
			out.Escaped = true
		}
		for _, q := range x.Parts {
			p.wordPart(out, b, q, true, false)
		}
	case *syntax.CmdSubst:
		out.Literal = false
		kind := "$(…)"
		if x.Backquotes {
			kind = "`…`"
		}
		out.Subst = append(out.Subst, p.nested(x.Stmts, kind)...)
	case *syntax.ProcSubst:
		out.Literal = false
		kind := "<(…)"
		if x.Op == syntax.CmdOut {
			kind = ">(…)"
		}
		out.Subst = append(out.Subst, p.nested(x.Stmts, kind)...)
	case *syntax.ParamExp:
		out.Literal = false
		if x.Param != nil {
			out.Params = append(out.Params, x.Param.Value)
		}
		p.paramExp(x)
	case *syntax.ArithmExp:
		out.Literal = false
		p.arithm(x.X)
	case *syntax.ExtGlob:
		out.Literal = false
		out.Glob = true
	case *syntax.BraceExp:
		out.Brace = true
		out.Literal = false
	default:
		out.Literal = false
		p.opaque(part.Pos(), "an expansion sayso does not read")
	}
}

// paramExp reads a parameter expansion: the words inside it can run
// commands, and ${x@P} runs whatever $(…) the value holds.
func (p *parser) paramExp(x *syntax.ParamExp) {
	word := func(w *syntax.Word) { p.word(w) }
	if x.Exp != nil {
		if x.Exp.Op == syntax.OtherParamOps && x.Exp.Word != nil && x.Exp.Word.Lit() == "P" {
			p.opaque(x.Pos(), "${…@P} expands a value as a prompt, which can run commands")
		}
		each(word, x.Exp.Word)
	}
	if x.Repl != nil {
		each(word, x.Repl.Orig, x.Repl.With)
	}
	each(p.arithm, x.Index)
	if x.Slice != nil {
		each(p.arithm, x.Slice.Offset, x.Slice.Length)
	}
	if x.NestedParam != nil {
		p.opaque(x.Pos(), "a nested parameter expansion")
	}
}

// each calls f with each of xs that is set.
func each[T comparable](f func(T), xs ...T) {
	var none T
	for _, x := range xs {
		if x != none {
			f(x)
		}
	}
}

// arithm reads the words inside an arithmetic expression for substitutions.
func (p *parser) arithm(x syntax.ArithmExpr) {
	syntax.Walk(x, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			p.word(w)
			return false
		}
		return true
	})
}

func hasUnescaped(s, chars string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if strings.IndexByte(chars, s[i]) >= 0 {
			return true
		}
	}
	return false
}

// unescape removes backslashes as bash's quote removal does: outside double
// quotes every backslash escapes the next byte (a backslash-newline vanishes);
// inside them only $ ` " \ and newline are escaped.
func unescape(s string, inDbl bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch {
		case n == '\n':
			i++
		case !inDbl || strings.IndexByte("$`\"\\", n) >= 0:
			b.WriteByte(n)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ansiC decodes the body of a $'…' string. bash ends the string at a NUL
// it decodes ($'git\0x' is git): what follows it is dropped.
func ansiC(s string) string {
	out := ansiCAll(s)
	if i := strings.IndexByte(out, 0); i >= 0 {
		return out[:i]
	}
	return out
}

func ansiCAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'x':
			v, n := hexVal(s[i+1:], 2)
			if n == 0 {
				b.WriteString(`\x`)
				continue
			}
			b.WriteByte(byte(v))
			i += n
		case 'u', 'U':
			max := 4
			if s[i] == 'U' {
				max = 8
			}
			v, n := hexVal(s[i+1:], max)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(s[i])
				continue
			}
			b.WriteRune(rune(v))
			i += n
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			} else {
				b.WriteString(`\c`)
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			for n < 3 && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '7' {
				v = v*8 + int(s[i+n]-'0')
				n++
			}
			b.WriteByte(byte(v))
			i += n - 1
		case '\\', '\'', '"', '?':
			b.WriteByte(s[i])
		default:
			// bash keeps the backslash of an escape it does not know.
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func hexVal(s string, max int) (int, int) {
	v, n := 0, 0
	for n < max && n < len(s) {
		c := s[n]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return v, n
		}
		v = v*16 + d
		n++
	}
	return v, n
}
