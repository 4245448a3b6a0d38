// Reading a command's words: its verbs and the options that take a value.

package risk

import (
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// words returns the literal operands, in order, up to n of them: the
// subcommand path of a CLI (gh pr create, kubectl get pods); an operand
// that is not a literal ("$V", $(cmd), a glob, a brace bash expands to
// more words, a tilde) is "". A first operand
// that is not a literal makes the step opaque: it is the command the CLI
// runs, and no classifier may take "" for none at all (its help). Which
// later words name a command is the classifier's to say (literalWords).
func (c *cmd) words(n int) []string {
	ops := c.verbWords(n)
	out := make([]string, n)
	for i, w := range ops {
		if w.Plain() {
			out[i] = w.Value
		} else if i == 0 || w.Brace || w.Glob {
			// A brace or a glob may be more words than one, or
			// none, and the step may make the files a glob finds:
			// no word from it on is where words says (tea pr
			// {merge,1}).
			c.add(Opaque, UnknownVerb.By(c.name, w.Raw, ""))
		}
	}
	return out
}

// literalWords reports whether the first n operands, as words counts
// them, are literal words, with no glob, brace or tilde expansion
// pending: when one is not, which subcommand runs is not known (`gh pr
// {merge,1}` is gh pr merge 1).
func (c *cmd) literalWords(n int) bool {
	for _, w := range c.verbWords(n) {
		if !w.Plain() {
			return false
		}
	}
	return true
}

// written is the first n operands as the step writes them.
func (c *cmd) written(n int) string {
	var out []string
	for _, w := range c.verbWords(n) {
		out = append(out, w.Raw)
	}
	return strings.Join(out, " ")
}

// verbWords are the first n operands that words reads: the words that are
// neither options nor the values of the options optTakesArg knows.
func (c *cmd) verbWords(n int) []shell.Word {
	var out []shell.Word
	skip := false
	for _, w := range c.args {
		if len(out) == n {
			break
		}
		if skip {
			skip = false
			continue
		}
		if w.Plain() && strings.HasPrefix(w.Value, "-") {
			skip = c.optTakesArg(w.Value)
			continue
		}
		out = append(out, w)
	}
	return out
}

// word returns the n-th word (from 0) that is not an option or an
// option's value, as words counts them.
func (c *cmd) word(n int) (shell.Word, bool) {
	skip := false
	for _, w := range c.args {
		if skip {
			skip = false
			continue
		}
		if w.Literal && strings.HasPrefix(w.Value, "-") {
			skip = c.optTakesArg(w.Value)
			continue
		}
		if n == 0 {
			return w, true
		}
		n--
	}
	return shell.Word{}, false
}

// optTakesArg knows the global options of the CLIs below that take a value
// as the next word.
func (c *cmd) optTakesArg(v string) bool {
	if strings.Contains(v, "=") {
		return false
	}
	switch v {
	case "-R", "--repo", "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server",
		"--profile", "--region", "--project", "--output", "-o", "--config", "-c", "-H", "--host", "-f", "--file",
		"--subscription", "-g", "--resource-group", "--app", "-a", "--scope", "--team", "--token", "-l", "--selector",
		"--chdir", "-C", "--log-level", "--format", "--filter", "--zone", "--account", "-t", "--tag", "-m", "--body", "--title",
		"--base", "--head", "-b", "-e", "--env", "--stack", "--cwd", "--workspace", "--method", "-X", "--jq", "-q", "--template", "--path":
		return true
	}
	return false
}

// optValue is the value of option name ("--root" or "-i") as written:
// "--root DIR", "--root=DIR", or "-iDIR" for a short one; the last one
// given wins, as with most programs. A value built at run time is "\x00".
func (c *cmd) optValue(name string) (string, bool) {
	val, found := "", false
	for i, w := range c.args {
		v := w.Value
		switch {
		case v == name && i+1 < len(c.args):
			val, found = c.args[i+1].Value, true
			if !c.args[i+1].Literal {
				val = "\x00"
			}
		case strings.HasPrefix(v, name+"=") && strings.HasPrefix(name, "--"):
			val, found = v[len(name)+1:], true
		case len(name) == 2 && strings.HasPrefix(v, name) && len(v) > 2 && !strings.HasPrefix(v, "--"):
			val, found = v[2:], true
		default:
			continue
		}
		if !w.Literal {
			val = "\x00"
		}
	}
	return val, found
}

// worksOn records the words from the n-th on (as word counts them, with
// takes naming the program's own options that take a value) as paths the
// segment reads: what a ceiling acts on when it is given to it — the chart
// helm installs, the files twine uploads, the assets gh release attaches.
// A lease for one folder covers none of them outside it, and one built at
// run time is a path sayso cannot know.
func (c *cmd) worksOn(n int, takes ...string) {
	skip, dash := false, false
	for _, w := range c.args {
		switch {
		case skip:
			skip = false
			continue
		case !dash && w.Literal && w.Value == "--":
			dash = true
			continue
		case !dash && w.Literal && strings.HasPrefix(w.Value, "-") && w.Value != "-":
			skip = c.optTakesArg(w.Value) || !strings.Contains(w.Value, "=") && slices.Contains(takes, w.Value)
			continue
		}
		if n > 0 {
			n--
			continue
		}
		c.path(OpRead, w)
	}
}

// hiddenOption reports whether one of the step's arguments is built at
// run time from its first character on ("$M", {-XDELETE,x}, *, "$@"; not
// "repos/$R/pulls"):
// bash may make an option of it, or more than one word, that sayso
// cannot read.
func (c *cmd) hiddenOption() (shell.Word, bool) {
	for _, w := range c.args {
		raw := strings.TrimLeft(w.Raw, `"'`)
		if w.Plain() || raw == "" {
			continue
		}
		r := raw[0]
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.IndexByte("/._:=,+@%", r) >= 0) {
			return w, true
		}
	}
	return shell.Word{}, false
}

// verbRule gives a program's verbs one class and one reason; the program
// run with no verb is the verb "".
type verbRule struct {
	verbs []string
	class Class
	kind  ReasonKind
}

// byVerb classifies c by its verb v: by the first of rules that lists v,
// or else by other. It returns the class it gave.
func (c *cmd) byVerb(v string, other verbRule, rules ...verbRule) Class {
	r := other
	for _, x := range rules {
		if slices.Contains(x.verbs, v) {
			r = x
			break
		}
	}
	c.add(r.class, r.kind.By(c.name, v, ""))
	return r.class
}

// formatOpt reads args[i] as the output-format option short or long
// (kubectl -o, docker --format) with its value: the next word,
// long=value, or with attached the value after short (-ojson, -o=json).
// found reports whether args[i] is the option, even with its value
// missing; literal whether the value is a literal.
func formatOpt(args []shell.Word, i int, short, long string, attached bool) (v string, literal, found bool) {
	a := args[i]
	switch {
	case a.Value == short || a.Value == long:
		if i+1 < len(args) {
			return args[i+1].Value, args[i+1].Literal, true
		}
		return "", false, true
	case strings.HasPrefix(a.Value, long+"="):
		return strings.TrimPrefix(a.Value, long+"="), a.Literal, true
	case attached && strings.HasPrefix(a.Value, short) && !strings.HasPrefix(a.Value, "--"):
		return strings.TrimPrefix(strings.TrimPrefix(a.Value, short), "="), a.Literal, true
	}
	return "", false, false
}
