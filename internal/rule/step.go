package rule

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// Step is a step as the rules see it: the command, what risk found in it,
// and the state of the session it comes from.
type Step struct {
	Tool       string          // the agent's tool; rules count only for shell tools
	Command    string          // the command line as the agent sent it
	Assessment risk.Assessment // Classify's answer for Command, with its Script
	Cwd        string          // the folder it runs in, absolute
	Held       bool            // the session is held
	Guest      bool            // the session holds guest words
	EachTime   risk.Set        // classes the person marked "show each time"
}

// NewStep parses and classifies a shell command run in ctx.Cwd.
func NewStep(command string, ctx risk.Context) Step {
	a := risk.Command(command, ctx)
	cwd := ctx.Cwd
	if cwd == "" {
		cwd = ctx.Root
	}
	return Step{Tool: "Bash", Command: command, Assessment: a, Cwd: cwd}
}

func (s *Step) script() *shell.Script {
	if s.Assessment.Script == nil {
		s.Assessment.Script = shell.Parse(s.Command)
	}
	return s.Assessment.Script
}

// ShellTool reports whether tool is an agent's shell: rules are kept and
// counted only for shell steps.
func ShellTool(tool string) bool { return risk.ShellTool(tool) }

// simple returns the words of the one simple command that is the whole of
// src, or why src is something more. Quoting that does not change a word is
// fine; anything else around or inside the words is not.
func simple(src string, s *shell.Script) ([]string, string) {
	if len(s.Opaque) > 0 {
		return nil, "sayso cannot read the command: " + s.Opaque[0].Why
	}
	if len(s.Segments) != 1 {
		// A runner (npx, npm exec, git bisect run) holds the command it
		// runs: say what the outer command is first.
		if len(s.Segments) > 0 && shell.RunsArgs(s.Segments[0].Name()) {
			if why := broad(literalPrefix(s.Segments[0].Args)); why != "" {
				return nil, why
			}
		}
		return nil, more(s)
	}
	seg := &s.Segments[0]
	switch {
	case len(seg.Opaque) > 0:
		return nil, "sayso cannot see what it runs: " + seg.Opaque[0].Why
	case len(seg.Wrappers) > 0:
		return nil, "a wrapper (" + seg.Wrappers[0] + ") runs the command"
	case len(seg.Assigns) > 0 && !declares(seg):
		return nil, "an assignment (" + seg.Assigns[0].Name + "=) comes with the command"
	case len(seg.Redirs) > 0:
		return nil, "a redirect (" + seg.Redirs[0].Op + ") comes with the command"
	case len(seg.Via) > 0 || seg.Inline:
		return nil, "the command runs inside another (" + first(seg.Via) + ")"
	case seg.Many || seg.Loop:
		return nil, "the command runs many times"
	case len(seg.Args) == 0:
		return nil, "there is no command"
	}
	args := seg.Args
	if len(seg.Assigns) > 0 {
		// export NAME=value: the assignments are the builtin's arguments.
		args = append([]shell.Word(nil), args...)
		for _, a := range seg.Assigns {
			if a.Append || a.Array || !validName(a.Name) {
				return nil, "an assignment that is not a plain word"
			}
			w := a.Value
			w.Raw, w.Value = a.Name+"="+w.Raw, a.Name+"="+w.Value
			args = append(args, w)
		}
	}
	words := make([]string, len(args))
	for i, w := range args {
		if why := wordProblem(w); why != "" {
			return nil, why
		}
		words[i] = w.Value
	}
	if !bare(src, args) {
		return nil, "something surrounds the command: &, !, ( ), { }, time, a comment or a line break"
	}
	return words, ""
}

// literalPrefix is the values of args up to the first word that is not
// literal.
func literalPrefix(args []shell.Word) []string {
	var out []string
	for _, a := range args {
		if !a.Literal {
			break
		}
		out = append(out, a.Value)
	}
	return out
}

// more says what a script of several segments holds.
func more(s *shell.Script) string {
	if len(s.Segments) == 0 {
		return "there is no command"
	}
	for _, seg := range s.Segments {
		if len(seg.Via) > 0 {
			return "the command holds another inside it (" + seg.Via[0] + ")"
		}
		if seg.Pipeline > 0 {
			return "the command is a pipeline (|)"
		}
		if len(seg.Args) == 0 && len(seg.Redirs) > 0 {
			return "a redirect comes with the command"
		}
	}
	return "more than one command (;, &&, || or a line break)"
}

func first(v []string) string {
	if len(v) == 0 {
		return "a shell"
	}
	return v[0]
}

// bare reports whether src is exactly the words, as written, separated by
// blanks: no operator, comment, '!' or grouping the parse leaves out.
func bare(src string, ws []shell.Word) bool {
	src = strings.Trim(src, "\n")
	i := 0
	skip := func() {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	}
	for k, w := range ws {
		start := i
		skip()
		if k > 0 && i == start || w.Raw == "" || len(src)-i < len(w.Raw) || src[i:i+len(w.Raw)] != w.Raw {
			return false
		}
		i += len(w.Raw)
	}
	skip()
	return i == len(src)
}

// declares reports whether seg is a declaration builtin whose words are all
// assignments (export NAME=value), so its assignments are its arguments.
func declares(seg *shell.Segment) bool {
	return len(seg.Args) == 1 && seg.Args[0].Raw == seg.Args[0].Value && declBuiltins[seg.Args[0].Value]
}

var declBuiltins = set("export", "declare", "typeset", "local", "readonly")

func validName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
