package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// awkFamily: awk's program is code, and it runs commands with system()
// and pipes.
func awkFamily() family {
	return family{names: []string{"awk", "gawk", "mawk", "nawk"}, traits: program.Interpreter, classify: awk, runs: runsCode}
}

// Text tools that write files named inside their scripts or by their
// operands: sed's w, W, r and R commands and s///w (sed(1)), awk's print
// and printf redirections and gawk's inplace extension (gawk(1)), yq -i,
// sponge (sponge(1)), python3 -m json.tool IN OUT and xxd IN OUT (xxd(1)).

// sedScript reads a sed script: the files its w, W and s///w commands
// write and its r and R commands read; e and s///e run commands.
func (c *cmd) sedScript(script string) {
	for _, line := range strings.Split(script, "\n") {
		c.sedLine(line)
	}
}

func (c *cmd) sedLine(s string) {
	file := func(op Op, rest string) {
		name := strings.TrimSpace(rest)
		if name == "" || name == "/dev/stdout" || name == "/dev/stderr" || name == "/dev/stdin" {
			return
		}
		w := shell.Word{Raw: name, Value: name, Literal: true}
		if op == OpWrite {
			c.write(w)
		} else {
			c.path(OpRead, w)
		}
	}
	for i := 0; i < len(s); {
		// the address: numbers, $, /re/, \cREc, ranges, steps, negation
		for i < len(s) {
			ch := s[i]
			switch {
			case ch == ' ' || ch == '\t' || ch == ';' || ch == ',' || ch == '!' || ch == '$' || ch == '~' || ch == '+' || ch == '{' || ch == '}' || ch >= '0' && ch <= '9':
				i++
				continue
			case ch == '/' || ch == '\\' && i+1 < len(s):
				d := byte('/')
				if ch == '\\' {
					d = s[i+1]
					i++
				}
				i = skipDelimited(s, i+1, d)
				for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
					i++
				}
				continue
			}
			break
		}
		if i >= len(s) {
			return
		}
		cmd := s[i]
		i++
		switch cmd {
		case 'w', 'W':
			file(OpWrite, s[i:])
			return
		case 'r', 'R':
			file(OpRead, s[i:])
			return
		case 'e':
			c.add(Opaque, RunsUnread.By("sed", "e", ""))
			return
		case 'a', 'i', 'c':
			return // text to the end of the line
		case ':', 'b', 't', 'T':
			for i < len(s) && s[i] != ';' {
				i++
			}
		case 's', 'y':
			if i >= len(s) {
				return
			}
			d := s[i]
			i = skipDelimited(s, i+1, d)
			i = skipDelimited(s, i, d)
			if cmd == 'y' {
				continue
			}
			for i < len(s) {
				f := s[i]
				if f == 'w' {
					file(OpWrite, s[i+1:])
					return
				}
				if f == 'e' {
					c.add(Opaque, RunsUnread.By("sed", "s///e", ""))
				}
				if !(f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || f == 'e' || f >= '0' && f <= '9') {
					break
				}
				i++
			}
		case 'q', 'Q', 'l', 'L':
			for i < len(s) && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		}
	}
}

// skipDelimited returns the index after the next unescaped d in s from i.
func skipDelimited(s string, i int, d byte) int {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
			continue
		case d:
			return i + 1
		}
		i++
	}
	return i
}

// awk reads an awk program: the files its print and printf redirect to
// are written; a redirection to a name built at run time, a pipe, system()
// and code from files run what sayso cannot read. gawk -i inplace writes
// its files.
func awk(c *cmd) {
	var prog string
	seen, inplace := false, false
	var files []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if !seen {
			if inc, next, ok := optValue(c.args, i, []string{"-i", "--include"}, []string{"-i"}); ok {
				if next {
					i++
				}
				if inc.Value == "inplace" || inc.Value == "inplace.awk" {
					inplace = true
				} else {
					c.add(Opaque, RunsUnread.By(c.name, "", inc.Raw))
				}
				continue
			}
			if name, _, ok := strings.Cut(v, "="); ok && (name == "--pretty-print" || name == "--profile" || name == "--dump-variables") {
				c.write(valueWord(w, name+"="))
				continue
			}
			if v == "--pretty-print" || v == "--profile" || v == "--dump-variables" || v == "-o" || v == "-p" || v == "-d" {
				c.cwdWrite() // the default file, in the working folder
				continue
			}
			if len(v) > 2 && (strings.HasPrefix(v, "-o") || strings.HasPrefix(v, "-p") || strings.HasPrefix(v, "-d")) {
				c.write(valueWord(w, v[:2]))
				continue
			}
		}
		switch {
		case !seen && (v == "-f" || v == "--file" || v == "-E" || v == "--exec" || strings.HasPrefix(v, "-f") && len(v) > 2 || strings.HasPrefix(v, "--file=") || strings.HasPrefix(v, "--exec=") ||
			v == "-l" || v == "--load" || strings.HasPrefix(v, "--load=")):
			c.add(Opaque, RunsOptionProgram.By(c.name, "", ""))
			seen = true
			if v == "-f" || v == "--file" || v == "-E" || v == "--exec" || v == "-l" || v == "--load" {
				i++
			}
		case !seen && (v == "-v" || v == "-F" || v == "--assign" || v == "--field-separator"):
			i++
		case !seen && v == "--":
		case strings.HasPrefix(v, "-") && !seen:
		case !seen:
			if !w.Literal {
				c.add(Opaque, BuiltAtRunTime.By(c.name, "program", ""))
			}
			prog, seen = v, true
		default:
			files = append(files, w)
		}
	}
	c.awkProgram(prog)
	c.add(Read, OnlyReads.By(c.name, "", ""))
	for _, f := range files {
		if strings.Contains(f.Value, "=") && !strings.HasPrefix(f.Value, "/") && !strings.HasPrefix(f.Value, ".") {
			continue // a variable assignment
		}
		if inplace {
			c.write(f)
		} else {
			c.path(OpRead, f)
		}
	}
}

// awkProgram classifies what an awk program does beyond printing.
func (c *cmd) awkProgram(prog string) {
	if strings.Contains(prog, "system") || strings.Contains(prog, "|") || strings.Contains(prog, "@load") || strings.Contains(prog, "@include") {
		c.add(Opaque, RunsUnread.By(c.name, "program", ""))
	}
	for i := 0; i < len(prog); i++ {
		switch prog[i] {
		case '"':
			i = skipDelimited(prog, i+1, '"') - 1
		case '/':
			// a regular expression or a division: either way no redirection
		case '>', '<':
			op := prog[i]
			j := i + 1
			if op == '>' && j < len(prog) && prog[j] == '>' {
				j++
			}
			if j < len(prog) && prog[j] == '=' {
				i = j
				continue // >= or <=
			}
			if !c.awkRedirect(prog[:i]) {
				i = j - 1
				continue
			}
			rest := strings.TrimLeft(prog[j:], " \t")
			if strings.HasPrefix(rest, `"`) {
				end := skipDelimited(rest, 1, '"')
				name := strings.ReplaceAll(rest[1:max(end-1, 1)], `\"`, `"`)
				w := shell.Word{Raw: name, Value: name, Literal: true}
				if op == '>' {
					if name != "/dev/stdout" && name != "/dev/stderr" {
						c.write(w)
					}
				} else {
					c.path(OpRead, w)
				}
			} else if op == '>' {
				c.add(Opaque, PathUnknown.By(c.name, "write", ""))
			} else if strings.Contains(prog[:i], "getline") {
				c.add(Opaque, PathUnknown.By(c.name, "read", ""))
			}
			i = j - 1
		}
	}
}

// awkRedirect reports whether a > or < after before is a redirection: it
// follows print or printf (or getline for <) in the same statement, not
// inside parentheses.
func (c *cmd) awkRedirect(before string) bool {
	depth := 0
	for k := len(before) - 1; k >= 0; k-- {
		switch before[k] {
		case ')':
			depth++
		case '(':
			if depth == 0 {
				return false
			}
			depth--
		case ';', '{', '}', '\n':
			return false
		case 't', 'f', 'e':
			if depth != 0 {
				continue
			}
			for _, kw := range []string{"print", "printf", "getline"} {
				if k+1 >= len(kw) && before[k+1-len(kw):k+1] == kw && (k+1 == len(kw) || !isWordByte(before[k-len(kw)])) {
					return true
				}
			}
		}
	}
	return false
}

func yqFamily() family { return family{names: []string{"yq"}, classify: yq} }

// yq -i rewrites the files it is given; -s writes files named by an
// expression.
func yq(c *cmd) {
	inplace := c.has("-i", "--inplace") || c.shortFlag('i')
	if c.has("-s", "--split-exp") {
		c.add(LocalWrite, ChangesProject.By("yq", "--split-exp", ""))
		c.unknownWrite("yq --split-exp: the files its expression names")
	}
	var ops []shell.Word
	exprGiven := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case v == "--expression" || v == "--from-file":
			exprGiven = true
			if i+1 < len(c.args) {
				i++
				if v == "--from-file" {
					c.path(OpRead, c.args[i])
				}
			}
		case v == "-o" || v == "--output-format" || v == "-p" || v == "--input-format" || v == "-I" || v == "--indent" ||
			v == "--arg" || v == "--csv-separator" || v == "-s" || v == "--split-exp" || v == "--lua-prefix" || v == "--properties-separator" || v == "--xml-attribute-prefix" || v == "--xml-content-name":
			i++
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 && (ops[0].Value == "eval" || ops[0].Value == "e" || ops[0].Value == "eval-all" || ops[0].Value == "ea") {
		ops = ops[1:]
	}
	if !exprGiven && len(ops) > 0 {
		ops = ops[1:]
	}
	c.add(Read, OnlyReads.By("yq", "", ""))
	c.readsOrRewrites(ops, inplace)
}

func spongeFamily() family { return family{names: []string{"sponge"}, classify: sponge} }

// sponge writes its input to the file it names.
func sponge(c *cmd) {
	c.add(LocalWrite, ChangesProject.By("sponge", "", ""))
	for _, w := range c.operands() {
		c.write(w)
		c.makes(w)
	}
}

// jsonTool: python3 -m json.tool [IN [OUT]] writes OUT.
func jsonTool(c *cmd, rest []shell.Word) {
	c.add(Read, OnlyReads.By(c.name, "-m json.tool", ""))
	var ops []shell.Word
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		switch {
		case v == "--indent":
			i++
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			ops = append(ops, rest[i])
		}
	}
	if len(ops) > 0 && ops[0].Value != "-" {
		c.path(OpRead, ops[0])
	}
	if len(ops) > 1 && ops[1].Value != "-" {
		c.write(ops[1])
	}
}

func xxdFamily() family { return family{names: []string{"xxd"}, classify: xxd} }

// xxd [options] [IN [OUT]] writes OUT, dumping or with -r reverting.
func xxd(c *cmd) {
	if c.has("-r", "-revert") {
		c.a.mark(c.i, roleDecode)
	}
	c.add(Read, TransformsText.By("xxd", "", ""))
	var ops []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case v == "-c" || v == "-cols" || v == "-g" || v == "-groupsize" || v == "-l" || v == "-len" || v == "-o" || v == "-offset" ||
			v == "-s" || v == "-seek" || v == "-n" || v == "-name" || v == "-R":
			i++
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 && ops[0].Value != "-" {
		c.path(OpRead, ops[0])
	}
	if len(ops) > 1 && ops[1].Value != "-" {
		c.write(ops[1])
	}
}
