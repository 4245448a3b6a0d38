package shell

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"mvdan.cc/sh/v3/syntax"
)

// call turns a simple command into its segments: the command itself with its
// wrappers peeled, then whatever it runs that can be read (a bash -c string,
// an eval, a here-doc fed to a shell, find -exec).
func (p *parser) call(x *syntax.CallExpr, redirs []Redirect, at syntax.Pos, c ctx) {
	seg := Segment{Redirs: redirs, Pos: p.pos(at), Args: make([]Word, 0, len(x.Args))}
	for _, a := range x.Assigns {
		seg.Assigns = append(seg.Assigns, p.assign(a))
	}
	for _, w := range x.Args {
		seg.Args = append(seg.Args, p.word(w))
	}
	if len(x.Assigns) == 0 && len(x.Args) > 0 && x.Args[0].Lit() == "in" {
		// The parser reads a command named in; bash refuses the reserved
		// word there.
		seg.Opaque = append(seg.Opaque, Opaque{Pos: seg.Pos, Why: "bash reads `in` as a reserved word here and refuses the command"})
	}
	p.run(seg, at, c)
}

// run peels seg's wrappers and adds it, with what it runs.
func (p *parser) run(seg Segment, at syntax.Pos, c ctx) {
	for len(seg.Args) > 0 {
		if !seg.Args[0].Literal || seg.Args[0].Brace || seg.Args[0].Glob {
			seg.Opaque = append(seg.Opaque, Opaque{Pos: seg.Pos, Why: "the command name " + quote(seg.Args[0].Raw) + " is not a plain word"})
			break
		}
		name := base(seg.Args[0].Value)
		if !ascii(name) {
			seg.Opaque = append(seg.Opaque, Opaque{Pos: seg.Pos, Why: "the program name " + quote(name) + " holds characters that are not ASCII"})
			break
		}
		w, ok := wrappers[name]
		if !ok {
			break
		}
		rest, extra, why := w(seg.Args[1:])
		if why != "" {
			seg.Opaque = append(seg.Opaque, Opaque{Pos: seg.Pos, Why: name + ": " + why})
		}
		if rest == nil && extra.keep {
			break // describes or lists; runs nothing
		}
		seg.Wrappers = append(seg.Wrappers, name)
		seg.WrapperWords = append(seg.WrapperWords, seg.Args[0].Value)
		seg.Assigns = append(seg.Assigns, extra.assigns...)
		if extra.chdir != nil {
			seg.Chdir = extra.chdir
		}
		seg.Many = seg.Many || extra.many
		seg.Loop = seg.Loop || extra.repeats
		if extra.code != "" || extra.codeWord != nil {
			// su -c, watch: the rest is a command string.
			seg.Args = nil
			idx := p.add(seg, c)
			p.code(idx, extra, at, name, inside(seg, c))
			return
		}
		seg.Args = rest
		if len(rest) == 0 {
			break
		}
	}
	switch name := seg.Name(); {
	case name == "find":
		p.find(seg, at, c)
		return
	case registered(name, program.RunsArgs):
		if p.runsArgs(seg, at, c) {
			return
		}
	case shells[name]:
		p.shell(seg, at, c)
		return
	case name == "eval":
		idx := p.add(seg, c)
		p.eval(idx, at, inside(seg, c))
		return
	case name == "trap" && len(seg.Args) > 2:
		// trap 'code' SIGNAL runs code later, as if written here.
		idx := p.add(seg, c)
		if a := seg.Args[1]; !a.Literal {
			p.segOpaque(idx, "trap runs text built at run time")
		} else if !strings.HasPrefix(a.Value, "-") {
			p.script.Segments[idx].Inline = true
			p.sub(a.Value, at, "trap", inside(seg, c))
		}
		return
	}
	p.add(seg, c)
}

// shell reads what a shell is asked to run: a -c string, or a here-doc or
// here-string on its stdin.
func (p *parser) shell(seg Segment, at syntax.Pos, c ctx) {
	script, hasC, other := shellScript(seg.Args[1:])
	idx := p.add(seg, c)
	c = inside(seg, c)
	switch {
	case hasC && script == nil:
		p.segOpaque(idx, "-c without a command string")
	case hasC && !script.Literal:
		p.segOpaque(idx, "the "+seg.Name()+" -c string is built at run time")
	case hasC:
		p.script.Segments[idx].Inline = true
		p.sub(script.Value, at, seg.Name()+" -c", c)
	case other:
		// A script file or a dynamic argument: risk decides.
	default:
		p.stdinCode(idx, at, c)
	}
}

// shellScript reads a shell's arguments as bash does (bash(1),
// INVOCATION): every option comes first, single letters alone or in
// clusters (-xc, -euo pipefail), -o and -O taking the next word, +x
// clearing; -- or - ends them. -c is a flag: the command string is the
// first word after the options, wherever -c stood (bash -c -x X and bash
// -c -- X run X). other is true when a script file or a word built at run
// time stands there instead.
func shellScript(args []Word) (script *Word, hasC, other bool) {
	i := 0
options:
	for i < len(args) {
		a := args[i]
		if !a.Literal {
			break options
		}
		v := a.Value
		switch {
		case v == "--" || v == "-":
			i++
			break options
		case v == "--rcfile" || v == "--init-file":
			i += 2
			continue
		case strings.HasPrefix(v, "--"):
			i++ // --login, --norc, --noprofile, --posix…
			continue
		case len(v) < 2 || v[0] != '-' && v[0] != '+':
			break options
		}
		takes := 0
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'c':
				if v[0] == '-' {
					hasC = true
				}
			case 'o', 'O':
				takes++
			}
		}
		i += 1 + takes
	}
	if i >= len(args) {
		return nil, hasC, false
	}
	if !hasC {
		return nil, false, true // a script file
	}
	return &args[i], true, false
}

// stdinCode reads a here-doc or here-string fed to the shell at idx.
func (p *parser) stdinCode(idx int, at syntax.Pos, c ctx) {
	seg := &p.script.Segments[idx]
	for _, r := range seg.Redirs {
		if !r.Input() {
			continue
		}
		name := seg.Name()
		seg.Inline = true
		if !r.BodyLiteral {
			p.segOpaque(idx, "the here-doc fed to "+name+" is expanded before "+name+" reads it")
		}
		via := "here-doc"
		if r.Op == "<<<" {
			via = "here-string"
		}
		p.sub(r.Body, at, via, c)
		return
	}
}

func (p *parser) eval(idx int, at syntax.Pos, c ctx) {
	seg := &p.script.Segments[idx]
	var parts []string
	for _, a := range seg.Args[1:] {
		if !a.Literal {
			p.segOpaque(idx, "eval of text built at run time")
			return
		}
		parts = append(parts, a.Value)
	}
	seg.Inline = true
	p.sub(strings.Join(parts, " "), at, "eval", c)
}

// code reads the command string a wrapper like su -c or watch runs.
func (p *parser) code(idx int, extra peeled, at syntax.Pos, name string, c ctx) {
	if extra.codeWord != nil && !extra.codeWord.Literal {
		p.segOpaque(idx, name+" runs a command string built at run time")
		return
	}
	src := extra.code
	if extra.codeWord != nil {
		src = extra.codeWord.Value
	}
	p.script.Segments[idx].Inline = true
	p.sub(src, at, name, c)
}

// find splits off each -exec/-execdir/-ok/-okdir command as a segment of its
// own that runs once per file found.
func (p *parser) find(seg Segment, at syntax.Pos, c ctx) {
	var keep []Word
	var runs [][]Word
	var kinds []string
	args := seg.Args
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if args[i].Literal && (v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir") {
			j := i + 1
			for j < len(args) && !(args[j].Literal && (args[j].Value == ";" || args[j].Value == "+")) {
				j++
			}
			runs = append(runs, args[i+1:j])
			kinds = append(kinds, "find "+v)
			keep = append(keep, args[i]) // the find segment still shows it runs something
			i = j
			continue
		}
		keep = append(keep, args[i])
	}
	seg.Args = keep
	idx := p.add(seg, c)
	for k, r := range runs {
		if len(r) == 0 {
			p.segOpaque(idx, kinds[k]+" without a command")
			continue
		}
		inner := Segment{Args: r, Pos: seg.Pos, Via: []string{kinds[k]}, Many: true}
		p.run(inner, at, c)
	}
}

// RunsArgs reports whether the program name may run a command given in
// its own arguments (git bisect run, npx, npm exec, watchexec…), which then
// parses as a segment of its own. The registry says which do.
func RunsArgs(name string) bool { return program.Is(name, program.RunsArgs) }

// runner reads the command a program runs from its own arguments, where
// it runs it as given: git bisect run CMD…, npx CMD… and npm|pnpm|yarn
// exec CMD… (which look CMD up in the project's bin folder, then on PATH),
// npx -c 'CODE' and npm exec -c 'CODE'. It adds seg and what it runs, and
// reports whether it did.
func (p *parser) runner(seg Segment, at syntax.Pos, c ctx) bool {
	args := seg.Args[1:]
	kind := seg.Name()
	switch {
	case kind == "git":
		i := 0
		for i+1 < len(args) && !(args[i].Value == "bisect" && args[i+1].Value == "run") {
			i++
		}
		if i+1 >= len(args) {
			return false
		}
		kind, args = "git bisect run", args[i+2:]
	case kind == "npx":
	default:
		i := execVerb(args, kind == "npm")
		if i < 0 {
			return false
		}
		kind, args = kind+" exec", args[i+1:]
	}
	var code *Word
	if kind != "git bisect run" {
		opts, rest, why := options(args, optSpec{short: "pc", long: "package call workspace"})
		if why != "" {
			idx := p.add(seg, c)
			p.segOpaque(idx, kind+": "+why)
			return true
		}
		for _, o := range opts {
			if o.name == "-c" || o.name == "--call" {
				code = o.val
			}
		}
		args = rest
	}
	idx := p.add(seg, c)
	switch {
	case code != nil && !code.Literal:
		p.segOpaque(idx, kind+" -c runs text built at run time")
	case code != nil:
		p.script.Segments[idx].Inline = true
		p.sub(code.Value, at, kind+" -c", inside(seg, c))
	case len(args) > 0:
		p.run(Segment{Args: args, Pos: seg.Pos, Via: []string{kind}}, at, inside(seg, c))
	}
	return true
}

// execVerb is the index of the exec verb (npm's x too) among the leading
// options of a package manager, or -1 when its verb is another. A word
// after a long option written apart may be that option's value
// (npm --prefix DIR exec); "exec" there is taken as the verb all the same.
func execVerb(args []Word, x bool) int {
	for i, a := range args {
		switch {
		case !a.Literal:
			return -1
		case a.Value == "exec" || x && a.Value == "x":
			return i
		case strings.HasPrefix(a.Value, "-"):
		case i > 0 && strings.HasPrefix(args[i-1].Value, "--") && !strings.Contains(args[i-1].Value, "="):
		default:
			return -1
		}
	}
	return -1
}

// inside is the context of the code a segment runs: it sits where the
// segment sits, and runs as often.
func inside(seg Segment, c ctx) ctx {
	c.via = append(append([]string(nil), c.via...), seg.Via...)
	c.many = c.many || seg.Many
	c.loop = c.loop || seg.Loop
	return c
}

func (p *parser) segOpaque(idx int, why string) {
	s := &p.script.Segments[idx]
	s.Opaque = append(s.Opaque, Opaque{Pos: s.Pos, Why: why})
}

func base(v string) string {
	if i := strings.LastIndexByte(v, '/'); i >= 0 {
		return v[i+1:]
	}
	return v
}

func quote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return "`" + s + "`"
}

// shells are the programs whose -c string and stdin are shell code: the
// registry's Bourne shells.
var shells = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range program.Names(program.Bourne) {
		m[n] = true
	}
	return m
}()

// IsShell reports whether name is a shell whose -c string sayso reads.
func IsShell(name string) bool { return shells[name] }
