package shell

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Limits bound the work Parse does before the parser sees the input. The
// parser's time grows with nesting, so depth is checked by a cheap scan.
const (
	MaxBytes  = 2 << 20 // longer commands are opaque, not parsed
	MaxDepth  = 64      // deeper ( { $( nesting is opaque, not parsed
	MaxNested = 8       // bash -c, eval and here-docs inside each other
)

// Pos is a position in the command as the person wrote it, 1-based. A
// segment found inside a string (bash -c '…', eval, a here-doc) reports the
// position of that string.
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Opaque marks something sayso cannot see through.
type Opaque struct {
	Pos Pos
	Why string
}

// Assign is a variable assignment, before a command or standing alone.
type Assign struct {
	Name   string
	Value  Word
	Append bool // +=
	Array  bool // =( … ); Value is empty
}

// Redirect is one redirection of a segment.
type Redirect struct {
	Op     string // ">", ">>", "<", "<>", "<&", ">&", ">|", "<<", "<<-", "<<<", "&>", "&>>"
	Fd     string // the explicit descriptor, if any ("2" in 2>x)
	Target Word   // the file, descriptor or here-string; a here-doc's delimiter
	// Body is the text a here-doc or here-string feeds; exact when
	// BodyLiteral.
	Body        string
	BodyLiteral bool
}

// Writes reports whether the redirect opens its target for writing.
func (r Redirect) Writes() bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	case ">&":
		// >&word is a file when word is not a descriptor number or "-".
		return !isFd(r.Target.Value) || !r.Target.Literal
	}
	return false
}

// Reads reports whether the redirect opens its target file for reading.
func (r Redirect) Reads() bool {
	switch r.Op {
	case "<", "<>":
		return true
	case "<&":
		return !isFd(r.Target.Value) || !r.Target.Literal
	}
	return false
}

// Input reports whether the redirect feeds literal text on stdin.
func (r Redirect) Input() bool {
	return r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<"
}

func isFd(s string) bool { return s == "-" || isNumber(s) }

// Segment is one simple command, wherever it sits.
type Segment struct {
	Args     []Word // argv after the wrappers are peeled; empty for a bare assignment
	Assigns  []Assign
	Redirs   []Redirect
	Wrappers []string // peeled off this command, outermost first: "sudo", "env", "xargs"…
	Via      []string // the constructs it sits in, outermost first: "bash -c", "$(…)", "here-doc"…
	Many     bool     // runs once per input item (xargs, find -exec, parallel)
	Loop     bool     // inside a for, while, until or select body
	Inline   bool     // the code this program runs was read; its segments follow it
	Chdir    *Word    // the folder a wrapper runs the command in (env -C, sudo -D)
	Vars     []Var    // the loop variables bound where it sits, outermost first
	// Maybe: it may not run (after && or ||, in a branch, a loop or a
	// function) or runs in a subshell (( … ), &, a pipeline stage), so
	// what it sets may not hold after it.
	Maybe    bool
	Pipeline int      // pipeline this segment is a stage of; 0 when it stands alone
	Stage    int      // its index in that pipeline
	Opaque   []Opaque // what hides, in this segment, what runs
	Pos      Pos
	// WrapperWords are the Wrappers as written, with any directory:
	// ./bin/sudo is peeled as sudo, but it is a program of the project's.
	WrapperWords []string
}

// Name is the program the segment runs, without its directory, or "" when
// the segment has no literal command word.
func (s *Segment) Name() string {
	if len(s.Args) == 0 || !s.Args[0].Literal {
		return ""
	}
	v := s.Args[0].Value
	if i := strings.LastIndexByte(v, '/'); i >= 0 {
		return v[i+1:]
	}
	return v
}

// Var is a variable a for or select loop binds to each of its words in
// turn. Known is false when the loop runs over the positional parameters
// (no in): its values come from outside the step.
type Var struct {
	Name  string
	Items []Word
	Known bool
}

// Script is a parsed command.
type Script struct {
	Segments []Segment
	Opaque   []Opaque // problems with the input as a whole: parse errors, limits
}

// Opaques lists every opaque mark, of the input and of each segment.
func (s *Script) Opaques() []Opaque {
	out := append([]Opaque(nil), s.Opaque...)
	for i := range s.Segments {
		out = append(out, s.Segments[i].Opaque...)
	}
	return out
}

// Parse reads src as bash would and returns its segments. It never fails:
// what it cannot read is marked opaque.
func Parse(src string) *Script {
	s := &Script{}
	if why := precheck(src); why != "" {
		s.Opaque = append(s.Opaque, Opaque{Pos: Pos{1, 1}, Why: why})
		return s
	}
	src, marks := hidden(src)
	s.Opaque = append(s.Opaque, marks...)
	p := &parser{script: s, src: src, depth: 0}
	p.parse(src, ctx{})
	return s
}

// precheck rejects input the parser should not be asked to read.
func precheck(src string) string {
	switch {
	case strings.TrimSpace(src) == "":
		return "empty command"
	case len(src) > MaxBytes:
		return fmt.Sprintf("command is %d bytes, longer than the %d sayso reads", len(src), MaxBytes)
	case strings.IndexByte(src, 0) >= 0:
		return "command holds a NUL byte"
	case !utf8.ValidString(src):
		return "command is not valid UTF-8"
	}
	if depth(src) > MaxDepth {
		return fmt.Sprintf("command nests deeper than %d levels", MaxDepth)
	}
	return ""
}

// depth is an upper bound of the nesting of ( { and backquotes in src,
// quotes ignored: cheap, linear, and never below the parser's own depth.
func depth(src string) int {
	d, max, tick := 0, 0, false
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{':
			d++
		case ')', '}':
			if d > 0 {
				d--
			}
		case '`':
			if tick {
				d--
			} else {
				d++
			}
			tick = !tick
		default:
			continue
		}
		if d > max {
			max = d
		}
	}
	return max
}

type parser struct {
	script *Script
	src    string
	depth  int  // strings inside strings
	inner  bool // src is a string found inside the top-level command
	at     Pos  // where src sits in the top-level command, when inner
	pipes  int  // last pipeline id handed out (kept by the root parser)
	root   *parser
	cur    ctx // where the statement being read sits
}

// ctx is where a statement sits.
type ctx struct {
	via      []string
	vars     []Var // loop variables bound around the statement
	maybe    bool  // the statement may not run, or runs in a subshell
	loop     bool
	many     bool
	pipeline int
	stage    int
}

func (c ctx) with(via string) ctx {
	c.via = append(append([]string(nil), c.via...), via)
	c.pipeline, c.stage = 0, 0
	return c
}

func (p *parser) rootp() *parser {
	if p.root != nil {
		return p.root
	}
	return p
}

func (p *parser) pos(n syntax.Pos) Pos {
	if p.inner {
		return p.at
	}
	return Pos{Line: int(n.Line()), Col: int(n.Col())}
}

func (p *parser) text(n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(p.src) || a > b {
		return ""
	}
	return p.src[a:b]
}

// partsText is the source text of a here-doc body. A Lit's own value is
// used, since its end position runs past the body into the delimiter.
func (p *parser) partsText(w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		if l, ok := part.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		} else {
			b.WriteString(p.text(part))
		}
	}
	return b.String()
}

func (p *parser) opaque(at syntax.Pos, why string) {
	p.script.Opaque = append(p.script.Opaque, Opaque{Pos: p.pos(at), Why: why})
}

// parsers reuses bash parsers: making one costs more than most parses. The
// tree a parse returns does not share memory with its parser.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// parse reads src as a list of statements.
func (p *parser) parse(src string, c ctx) {
	sp := parsers.Get().(*syntax.Parser)
	f, err := sp.Parse(strings.NewReader(src), "")
	parsers.Put(sp)
	if err != nil {
		at := Pos{1, 1}
		var pe syntax.ParseError
		if errors.As(err, &pe) && !p.inner {
			at = Pos{Line: int(pe.Pos.Line()), Col: int(pe.Pos.Col())}
		} else if p.inner {
			at = p.at
		}
		p.script.Opaque = append(p.script.Opaque, Opaque{Pos: at, Why: "cannot parse: " + parseMessage(err)})
		return
	}
	p.stmts(f.Stmts, c)
}

func parseMessage(err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return pe.Text
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return le.Error()
	}
	return err.Error()
}

// sub parses a string found inside the command (bash -c, eval, a here-doc)
// as code of its own.
func (p *parser) sub(src string, at syntax.Pos, via string, c ctx) {
	if p.depth+1 > MaxNested {
		p.opaque(at, fmt.Sprintf("%s nested more than %d deep", via, MaxNested))
		return
	}
	if why := precheck(src); why != "" {
		if why == "empty command" {
			return
		}
		p.opaque(at, via+": "+why)
		return
	}
	src, marks := hidden(src)
	for _, m := range marks {
		p.opaque(at, via+": "+m.Why)
	}
	if via != "eval" && via != "trap" {
		c.vars = nil // a shell of its own: the loop's variables are not its
	}
	q := &parser{script: p.script, src: src, depth: p.depth + 1, inner: true, at: p.pos(at), root: p.rootp()}
	q.parse(src, c.with(via))
}

// nested reads the statements of a substitution and returns the indices of
// the segments they produced.
func (p *parser) nested(stmts []*syntax.Stmt, via string) []int {
	first := len(p.script.Segments)
	outer := p.cur
	p.stmts(stmts, outer.with(via))
	p.cur = outer
	out := make([]int, 0, len(p.script.Segments)-first)
	for i := first; i < len(p.script.Segments); i++ {
		out = append(out, i)
	}
	return out
}

func (p *parser) stmts(list []*syntax.Stmt, c ctx) {
	for _, st := range list {
		p.stmt(st, c)
	}
}

func (p *parser) stmt(st *syntax.Stmt, c ctx) {
	if st == nil {
		return
	}
	if st.Background || st.Coprocess {
		c.maybe = true
	}
	outer := p.cur
	p.cur = c
	defer func() { p.cur = outer }()
	redirs := p.redirects(st.Redirs, c)
	switch x := st.Cmd.(type) {
	case nil:
		// Redirects alone (`> file`) still open files.
		if len(redirs) > 0 {
			p.add(Segment{Redirs: redirs, Pos: p.pos(st.Pos())}, c)
		}
	case *syntax.CallExpr:
		p.call(x, redirs, st.Pos(), c)
	case *syntax.BinaryCmd:
		if emptyTime(x.X) || emptyTime(x.Y) {
			p.opaque(st.Pos(), "bash refuses a bare time before "+x.Op.String())
		}
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			p.pipeline(x, c)
		} else {
			p.stmt(x.X, c)
			yc := c
			yc.maybe = true
			p.stmt(x.Y, yc)
		}
		p.attach(redirs, st.Pos(), c)
	case *syntax.Block:
		p.stmts(x.Stmts, c)
		p.attach(redirs, st.Pos(), c)
	case *syntax.Subshell:
		sc := c
		sc.maybe = true
		p.stmts(x.Stmts, sc)
		p.attach(redirs, st.Pos(), c)
	case *syntax.IfClause:
		bc := c
		bc.maybe = true
		for cl := x; cl != nil; cl = cl.Else {
			p.stmts(cl.Cond, bc)
			p.stmts(cl.Then, bc)
		}
		p.attach(redirs, st.Pos(), c)
	case *syntax.WhileClause:
		lc := c
		lc.loop = true
		p.stmts(x.Cond, lc)
		p.stmts(x.Do, lc)
		p.attach(redirs, st.Pos(), c)
	case *syntax.ForClause:
		lc := c
		switch l := x.Loop.(type) {
		case *syntax.WordIter:
			v := Var{Name: l.Name.Value, Known: l.InPos.IsValid()}
			for _, w := range l.Items {
				v.Items = append(v.Items, p.word(w))
			}
			lc.vars = append(append([]Var(nil), c.vars...), v)
		case *syntax.CStyleLoop:
			for _, e := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
				if e != nil {
					p.arithm(e)
				}
			}
		}
		lc.loop = true
		p.stmts(x.Do, lc)
		p.attach(redirs, st.Pos(), c)
	case *syntax.CaseClause:
		p.word(x.Word)
		for _, it := range x.Items {
			for _, w := range it.Patterns {
				p.word(w)
			}
			bc := c
			bc.maybe = true
			p.stmts(it.Stmts, bc)
		}
		p.attach(redirs, st.Pos(), c)
	case *syntax.FuncDecl:
		name := "function"
		if x.Name != nil {
			name = "function " + x.Name.Value
		}
		p.stmt(x.Body, c.with(name))
	case *syntax.DeclClause:
		seg := Segment{Args: []Word{{Raw: x.Variant.Value, Value: x.Variant.Value, Literal: true}}, Redirs: redirs, Pos: p.pos(st.Pos())}
		for _, a := range x.Args {
			if a.Naked && a.Name == nil && a.Value != nil {
				seg.Args = append(seg.Args, p.word(a.Value))
				continue
			}
			seg.Assigns = append(seg.Assigns, p.assign(a))
		}
		p.add(seg, c)
	case *syntax.LetClause:
		// let's words are arithmetic bash evaluates again: risk reads them.
		seg := Segment{Args: []Word{{Raw: "let", Value: "let", Literal: true}}, Redirs: redirs, Pos: p.pos(st.Pos())}
		for _, e := range x.Exprs {
			syntax.Walk(e, func(n syntax.Node) bool {
				if w, ok := n.(*syntax.Word); ok {
					seg.Args = append(seg.Args, p.word(w))
					return false
				}
				return true
			})
		}
		p.add(seg, c)
	case *syntax.ArithmCmd:
		p.arithm(x.X)
		p.attach(redirs, st.Pos(), c)
	case *syntax.TestClause:
		syntax.Walk(x.X, func(n syntax.Node) bool {
			if w, ok := n.(*syntax.Word); ok {
				p.word(w)
				return false
			}
			return true
		})
		p.attach(redirs, st.Pos(), c)
	case *syntax.TimeClause:
		if x.Stmt == nil && (st.Background || st.Coprocess) {
			p.opaque(st.Pos(), "bash refuses a bare time run in the background")
		}
		p.stmt(x.Stmt, c)
		p.attach(redirs, st.Pos(), c)
	case *syntax.CoprocClause:
		p.stmt(x.Stmt, c.with("coproc"))
		p.attach(redirs, st.Pos(), c)
	default:
		p.opaque(st.Pos(), fmt.Sprintf("a %T construct sayso does not read", st.Cmd))
	}
}

// emptyTime reports whether st is a time keyword timing nothing, which bash
// accepts only as a statement of its own.
func emptyTime(st *syntax.Stmt) bool {
	t, ok := st.Cmd.(*syntax.TimeClause)
	return ok && t.Stmt == nil
}

// attach records the redirects of a compound command as a segment of their
// own, so that what they write is seen.
func (p *parser) attach(redirs []Redirect, at syntax.Pos, c ctx) {
	if len(redirs) > 0 {
		p.add(Segment{Redirs: redirs, Pos: p.pos(at)}, c)
	}
}

func (p *parser) pipeline(x *syntax.BinaryCmd, c ctx) {
	var stages []*syntax.Stmt
	var flat func(s *syntax.Stmt)
	flat = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
			flat(b.X)
			flat(b.Y)
			return
		}
		stages = append(stages, s)
	}
	flat(x.X)
	flat(x.Y)
	r := p.rootp()
	r.pipes++
	id := r.pipes
	for i, s := range stages {
		sc := c
		sc.pipeline, sc.stage = id, i
		p.stmt(s, sc)
	}
}

func (p *parser) add(seg Segment, c ctx) int {
	seg.Via = append(append([]string(nil), c.via...), seg.Via...)
	seg.Vars = c.vars
	seg.Loop = seg.Loop || c.loop
	seg.Many = seg.Many || c.many
	if seg.Pipeline == 0 {
		seg.Pipeline, seg.Stage = c.pipeline, c.stage
	}
	seg.Maybe = seg.Maybe || c.maybe || seg.Loop || seg.Many || len(seg.Via) > 0 || seg.Pipeline != 0
	p.script.Segments = append(p.script.Segments, seg)
	return len(p.script.Segments) - 1
}

func (p *parser) assign(a *syntax.Assign) Assign {
	out := Assign{Append: a.Append}
	if a.Name != nil {
		out.Name = a.Name.Value
	}
	if a.Index != nil {
		p.arithm(a.Index)
	}
	if a.Value != nil {
		out.Value = p.word(a.Value)
	} else {
		out.Value = Word{Literal: true}
	}
	if a.Array != nil {
		out.Array = true
		out.Value.Literal = false
		for _, e := range a.Array.Elems {
			if e.Index != nil {
				p.arithm(e.Index)
			}
			if e.Value != nil {
				p.word(e.Value)
			}
		}
	}
	return out
}

func (p *parser) redirects(rs []*syntax.Redirect, c ctx) []Redirect {
	if len(rs) == 0 {
		return nil
	}
	out := make([]Redirect, 0, len(rs))
	for _, r := range rs {
		rd := Redirect{Op: r.Op.String()}
		if r.N != nil {
			rd.Fd = r.N.Value
		}
		if r.Word != nil {
			rd.Target = p.word(r.Word)
			if (r.Op == syntax.DplIn || r.Op == syntax.DplOut) && len(rd.Target.Raw) > 1 && rd.Target.Raw[0] == '-' {
				// bash reads <&- and >&- as closing the descriptor and
				// what follows the - as a word of the command.
				p.opaque(r.Pos(), "bash reads "+r.Op.String()+"- as closing a descriptor and "+quote(rd.Target.Raw[1:])+" as part of the command")
			}
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if end := int(r.Word.End().Offset()); end < len(p.src) && p.src[end] == '#' {
				// bash reads the # as part of the delimiter, and the body
				// on to a line that holds it all: not the body read here.
				p.opaque(r.Word.End(), "a # right after a here-doc delimiter: bash reads it as part of the delimiter")
			}
			rd.BodyLiteral = true
			if r.Hdoc != nil {
				// bash ends a here-doc only at a line that is its delimiter;
				// the parser can end one inside a line, after an expansion
				// ($00 with the delimiter 0), and read the lines bash feeds
				// to the command as commands, or as another here-doc.
				body := p.partsText(r.Hdoc)
				if r.Op == syntax.DashHdoc {
					body = strings.TrimRight(body, "\t")
				}
				if body != "" && !strings.HasSuffix(body, "\n") {
					p.opaque(r.Pos(), "the parser ends this here-doc inside a line; bash reads on to a line that is its delimiter")
				}
			}
			switch {
			case r.Hdoc == nil:
			case rd.Target.Quoted || rd.Target.Escaped:
				// A quoted delimiter keeps the body exactly as written.
				rd.Body = p.partsText(r.Hdoc)
			default:
				body := p.word(r.Hdoc)
				rd.Body, rd.BodyLiteral = body.Value, body.Literal
				if !body.Literal {
					rd.Body = p.partsText(r.Hdoc)
				}
			}
		case syntax.WordHdoc:
			rd.Body = rd.Target.Value
			rd.BodyLiteral = rd.Target.Literal
		}
		out = append(out, rd)
	}
	return out
}
