package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/shell"
)

// Inline code: a program handed to an interpreter as text — python -c,
// node -e, perl -lpe, ruby -e, a here-doc on its input. sayso does not
// read the language, so the code is what a script file of the project is
// (runScript): the project's code, local work that the wall contains — no
// network of its own, no credentials, writes only where the decision says.
// What sayso does read of the same step still counts: secret files and
// variables the text names, the files perl -i edits, code built at run
// time, and a download or a decoding feeding it (pipelines).

// inlineCode classifies running the code opt hands over: in code when the
// option carries it (-cCODE, --eval=CODE), else in the word after the
// option; rest are the words after the code.
func (c *cmd) inlineCode(opt string, code *shell.Word, rest []shell.Word) {
	switch {
	case c.name == "osascript":
		// AppleScript drives other applications, which run outside any
		// wall: Terminal's do script, a browser, the keychain. One
		// statement sayso reads whole is known: a notification, given as
		// osascript's only arguments, in its default language.
		if opt == "-e" && len(c.args) == 2 && code != nil && code.Literal && appleScriptNotification(code.Value) {
			c.add(Read, OnlyReads.By(c.name, opt, ""))
			return
		}
		c.add(Opaque, RunsUnread.By(c.name, opt, ""))
		return
	case opt == "-EncodedCommand" || opt == "-enc":
		c.add(Opaque, RunsUnread.By(c.name, opt, ""))
		return
	case code == nil:
		c.add(Opaque, InputUnreadable.By(c.name, opt, "no code"))
		return
	}
	// Code with a variable or a substitution in it is built when the step
	// runs: sayso reads it no more than a script file, and the wall holds
	// it the same. What builds it is judged in its own segments, a
	// download or a decoding in it (pipelines), a secret variable here.
	c.add(LocalWrite, InlineCode.By(c.name, opt, ""))
	c.a.mark(c.i, roleInline)
	if code.Literal {
		c.codeNames(code.Value)
	} else {
		c.codeNames(code.Raw)
		for _, p := range code.Params {
			if secretVar(p) {
				c.add(Secret, TouchesCredential.By(c.name, opt, p))
			}
		}
	}
	c.cwdWrite()
	c.inlineOperands(opt, rest)
}

// hereCode runs the here-doc or here-string an interpreter reads as its
// program, and reports whether there was one whose text sayso has: a body
// with expansions in it is code built at run time.
func (c *cmd) hereCode() bool {
	var in *shell.Redirect
	for k := range c.seg.Redirs {
		r := &c.seg.Redirs[k]
		if (r.Fd == "" || r.Fd == "0") && strings.HasPrefix(r.Op, "<") {
			in = r // the last redirect of the input is the one that holds
		}
	}
	switch {
	case in == nil:
		return false
	case (in.Op == "<<" || in.Op == "<<-") && (in.BodyLiteral || !strings.Contains(in.Body, "$(") && !strings.Contains(in.Body, "`")):
		// A body with variables only: their names are read for secrets.
		// One with a command substitution is not tied to what it runs.
		c.inlineCode("<<"+in.Target.Value, &shell.Word{Raw: in.Body, Value: in.Body, Literal: true}, nil)
		return true
	case in.Op == "<<<":
		c.inlineCode("<<<", &in.Target, nil)
		return true
	}
	return false
}

// codeNames reads the text of inline code for what sayso can see in it:
// a secret file named by its path (~/.aws/credentials, .env) is read, a
// variable whose name says it holds a secret is printed or sent.
func (c *cmd) codeNames(code string) {
	ctx := c.a.ctx
	for _, cwd := range c.a.cwds {
		if cwd != "" {
			ctx.Cwd = cwd
			break
		}
	}
	if why := wholeEnv(code); why != "" {
		c.add(Secret, Reason{Kind: InlineSecret, Object: why, What: "the whole environment, secrets included"})
	}
	seen := map[string]bool{}
	for _, tok := range pathTokens(code) {
		if seen[tok] {
			continue
		}
		seen[tok] = true
		p := namedPath(tok, ctx)
		if p == "" && strings.HasPrefix(tok, ".") && !strings.HasPrefix(tok, "..") {
			p = path.Join(ctx.Cwd, tok) // open('.env'), File.read(".netrc")
		}
		if p != "" {
			if why := secretPath(p, ctx.Home); why != "" {
				c.add(Secret, Reason{Kind: InlineSecret, Object: tok, What: why})
				continue
			}
		}
		for _, name := range strings.FieldsFunc(tok, func(r rune) bool { return r == '.' || r == '$' || r == ':' }) {
			if upperName(name) && place.SecretVar(name) {
				c.add(Secret, Reason{Kind: InlineSecret, Object: name, What: "a variable that holds a secret"})
				break
			}
		}
	}
}

// upperName reports whether s is written as an environment variable is:
// upper-case letters, digits and underscores, a letter first.
func upperName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
			return false
		}
	}
	return true
}

// inlineOperands classifies the words after the code. perl and ruby with
// -i edit the files they are given in place (perlrun, ruby(1): -i[ext]),
// with -n or -p they read them line by line; any other interpreter hands
// them to the code, which may read a secret it is given.
func (c *cmd) inlineOperands(opt string, rest []shell.Word) {
	if c.name != "perl" && c.name != "ruby" {
		c.secretArgs(rest)
		return
	}
	edits, reads := false, false
	for _, w := range c.args[:len(c.args)-len(rest)] {
		if !w.Literal {
			continue
		}
		flags, _, _ := switches(c.name, w.Value)
		edits = edits || strings.Contains(flags, "i")
		reads = reads || strings.ContainsAny(flags, "np")
	}
	if !edits && !reads {
		c.secretArgs(rest)
		return
	}
	op := OpRead
	if edits {
		op = OpWrite
		c.add(LocalWrite, ChangesProject.By(c.name, "-i", ""))
	}
	dash := false
	for _, w := range rest {
		if !dash && w.Literal && strings.HasPrefix(w.Value, "-") && w.Value != "-" {
			dash = w.Value == "--"
			continue
		}
		c.path(op, w)
	}
}

// wholeEnv says how inline code reads the environment as a whole, as env
// prints it, or "": python's os.environ other than one variable of it by
// name (os.environ["HOME"], os.environ.get("HOME")), node's process.env
// other than process.env.NAME or process.env["NAME"], deno's
// Deno.env.toObject(), perl's %ENV, ruby's ENV other than ENV["NAME"] or
// ENV.fetch, php's getenv() with no name, $_ENV and $_SERVER.
func wholeEnv(code string) string {
	for _, f := range []struct {
		name string
		one  []string // what may follow the name to read one variable
	}{
		{"environ", []string{"[", ".get("}},
		{"process.env", []string{".", "["}},
		{"Deno.env.toObject", nil},
		{"%ENV", nil},
		{"ENV", []string{"[", ".fetch(", "{"}},
		{"getenv()", nil},
		{"$_ENV", []string{"["}},
		{"$_SERVER", []string{"["}},
	} {
		for from := 0; ; {
			k := strings.Index(code[from:], f.name)
			if k < 0 {
				break
			}
			k += from
			from = k + len(f.name)
			before, after := byte(' '), code[from:]
			if k > 0 {
				before = code[k-1]
			}
			if identByte(before) && f.name[0] != '$' && f.name[0] != '%' || len(after) > 0 && identByte(after[0]) && identByte(f.name[len(f.name)-1]) {
				continue // part of another name: environment, ENVIRON, MY_ENV
			}
			if f.name == "ENV" && (before == '$' || before == '%') {
				continue // perl's $ENV{X} is one variable; %ENV is found as itself
			}
			one := false
			for _, o := range f.one {
				one = one || strings.HasPrefix(strings.TrimLeft(after, " "), o)
			}
			if !one {
				return f.name
			}
		}
	}
	return ""
}

func identByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// appleScriptNotification reports whether script is one display
// notification statement and nothing else: its text and its with title,
// subtitle and sound name parameters, each a plain string literal (the
// AppleScript Language Guide's display notification, in StandardAdditions).
// A string joined to anything (&), a variable, a second statement or any
// other word is code sayso does not read.
func appleScriptNotification(script string) bool {
	s := strings.TrimSpace(script)
	for _, w := range []string{"display", "notification"} {
		rest, ok := strings.CutPrefix(s, w)
		if !ok || rest == "" || !isSpace(rest[0]) {
			return false
		}
		s = strings.TrimLeft(rest, " \t")
	}
	s, ok := appleScriptString(s)
	if !ok {
		return false
	}
	seen := map[string]bool{}
	for s = strings.TrimLeft(s, " \t"); s != ""; s = strings.TrimLeft(s, " \t") {
		param := ""
		for _, p := range []string{"with title", "subtitle", "sound name"} {
			if rest, ok := strings.CutPrefix(s, p); ok && rest != "" && isSpace(rest[0]) {
				param, s = p, strings.TrimLeft(rest, " \t")
				break
			}
		}
		if param == "" || seen[param] {
			return false
		}
		seen[param] = true
		if s, ok = appleScriptString(s); !ok {
			return false
		}
	}
	return true
}

// appleScriptString reads the string literal s starts with, where a
// backslash escapes the character after it, and returns what follows it.
func appleScriptString(s string) (string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			if rest := s[i+1:]; rest == "" || isSpace(rest[0]) {
				return rest, true
			}
			return "", false
		}
	}
	return "", false
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' }
