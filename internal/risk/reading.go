// Reading a command as its program reads it, for the person's deny and ask
// entries.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// Reading is a command's words as its program reads them: the program by
// its name, its options with clusters split, abbreviations and synonyms
// written out and values attached, and its operands in order, git's
// global options apart. Where sayso does not know how the program reads
// its options, the reading is loose: it keeps every way the words may be
// read (a single-dash word may be a cluster of one-letter options or one
// option; the word after an option may be its value or an operand), so
// that a pattern matched against it never misses a reading the program
// may take.
type Reading struct {
	Program  string // "\x00" when it is named at run time
	Options  []Option
	Operands []Operand
	Known    bool // sayso knows how the program reads its options: the reading is not loose
	// Open: more operands follow that sayso cannot see: xargs or
	// parallel adds the items it reads from its input.
	Open bool
}

// Option is one option of a Reading.
type Option struct {
	Name     string // "-x", "--name", or a loose single-dash name ("-chdir")
	Value    string // its value when HasValue; "\x00" when built at run time
	HasValue bool
	// Cluster: the program's options are not known, and Name (single
	// dash, several letters) may also be one-letter options in a cluster,
	// the first of which may take the rest as its value.
	Cluster bool
	Dyn     bool // built at run time: it may be any option
}

// Operand is one operand of a Reading.
type Operand struct {
	Value string // "\x00" when built at run time
	Also  string // another name the program reads it by, or ""
	// Of is the index in Options of the option whose value this word may
	// be instead of an operand, or -1.
	Of int
}

// ReadCommand reads a segment's words as its program reads them.
func ReadCommand(s *shell.Segment) Reading {
	if len(s.Args) == 0 {
		return Reading{}
	}
	var r Reading
	if !s.Args[0].Literal {
		// The program is named at run time: it may be any program.
		r = readArgs("", s.Args[1:])
		r.Program = "\x00"
	} else {
		r = readArgs(s.Name(), s.Args[1:])
	}
	r.Open = stdinArgs(s)
	return r
}

// stdinArgs reports whether a wrapper of s adds arguments it reads from
// its input (xargs, parallel).
func stdinArgs(s *shell.Segment) bool {
	for _, w := range s.Wrappers {
		if program.Is(w, program.StdinArgs) {
			return true
		}
	}
	return false
}

// ReadCommandAs reads a segment whose program is named at run time as
// the program called name would read its words.
func ReadCommandAs(s *shell.Segment, name string) Reading {
	if len(s.Args) == 0 {
		return Reading{}
	}
	r := readArgs(name, s.Args[1:])
	r.Open = stdinArgs(s)
	return r
}

// ReadPattern reads a pattern's words (a program and its arguments, each a
// literal word) the way ReadCommand reads a segment.
func ReadPattern(words []string) Reading {
	if len(words) == 0 {
		return Reading{}
	}
	args := make([]shell.Word, 0, len(words)-1)
	for _, w := range words[1:] {
		args = append(args, shell.Word{Raw: w, Value: w, Literal: true})
	}
	name := words[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return readArgs(name, args)
}

func readArgs(name string, args []shell.Word) Reading {
	r := read(name, args)
	// A word built at run time may expand to options as well as to an
	// operand: it counts as any option, and may be no operand at all.
	for i, op := range r.Operands {
		if op.Value == "\x00" && op.Of < 0 {
			r.Options = append(r.Options, Option{Dyn: true})
			r.Operands[i].Of = len(r.Options) - 1
		}
	}
	return r
}

func read(name string, args []shell.Word) Reading {
	r := Reading{Program: name}
	if name == "git" {
		i := 0
		for ; i < len(args); i++ {
			w := args[i]
			if !w.Literal {
				if strings.HasPrefix(w.Raw, "-") {
					r.Options = append(r.Options, Option{Dyn: true})
					continue
				}
				break
			}
			if !strings.HasPrefix(w.Value, "-") {
				break
			}
			n, v, has := strings.Cut(w.Value, "=")
			o := Option{Name: n, Value: v, HasValue: has}
			if !has && gitGlobalTakes[n] && i+1 < len(args) {
				i++
				o.Value, o.HasValue = wordValue(args[i]), true
			}
			r.Options = append(r.Options, o)
		}
		if i >= len(args) {
			return r
		}
		sub := args[i]
		r.Operands = append(r.Operands, Operand{Value: wordValue(sub), Of: -1})
		if spec, ok := gitLongs[sub.Value]; ok && sub.Literal {
			r.strict(args[i+1:], spec)
			return r
		}
		r.loose(args[i+1:])
		return r
	}
	if spec, ok := gnuLongs[name]; ok {
		if name == "tar" {
			args = tarOldStyle(args, spec)
		}
		r.strict(args, spec)
		return r
	}
	r.loose(args)
	if name == "npm" {
		// npm's command by the name npm runs it under (npm i is npm
		// install): the first operand, and any word before it that may
		// be an option's value instead.
		for i := range r.Operands {
			r.Operands[i].Value = NpmCommand(r.Operands[i].Value)
			if r.Operands[i].Of < 0 {
				break
			}
		}
	}
	if name == "terraform" || name == "tofu" {
		// terraform apply -destroy is terraform destroy (terraform(1)).
		for i, op := range r.Operands {
			if op.Of < 0 {
				if op.Value == "apply" && r.hasOption("-destroy") {
					r.Operands[i].Also = "destroy"
				}
				break
			}
		}
	}
	return r
}

// hasOption reports whether the reading gives an option called name,
// with one dash or two.
func (r *Reading) hasOption(name string) bool {
	for _, o := range r.Options {
		if o.Name == name || o.Name == "-"+name {
			return true
		}
	}
	return false
}

// strict reads args with the program's own option spec.
func (r *Reading) strict(args []shell.Word, spec optSpec) {
	r.Known = true
	set, ops := readOpts(args, spec)
	for _, o := range set {
		x := Option{Name: o.name, Dyn: o.dyn}
		if long, ok := spec.same[o.name]; ok {
			x.Name = "--" + long
		}
		if o.val != nil {
			x.Value, x.HasValue = wordValue(*o.val), true
		}
		r.Options = append(r.Options, x)
	}
	for _, w := range ops {
		r.Operands = append(r.Operands, Operand{Value: wordValue(w), Of: -1})
	}
}

// loose reads args keeping every reading a program may take.
func (r *Reading) loose(args []shell.Word) {
	same := looseSame[r.Program]
	pending := -1
	for i, w := range args {
		switch {
		case !w.Literal && strings.HasPrefix(w.Raw, "-"):
			r.Options = append(r.Options, Option{Dyn: true})
			pending = len(r.Options) - 1
			continue
		case w.Literal && w.Value == "--":
			for _, x := range args[i+1:] {
				r.Operands = append(r.Operands, Operand{Value: wordValue(x), Of: -1})
			}
			return
		case w.Literal && len(w.Value) > 1 && w.Value[0] == '-':
			n, v, has := strings.Cut(w.Value, "=")
			single := !strings.HasPrefix(n, "--")
			if long, ok := same[n]; ok {
				n = "--" + long
			}
			r.Options = append(r.Options, Option{Name: n, Value: v, HasValue: has, Cluster: single && len(n) > 2})
			if long, ok := same[n[:min(2, len(n))]]; ok && single && len(n) > 2 && !has {
				// -nprod: the short option with its value attached.
				r.Options = append(r.Options, Option{Name: "--" + long, Value: n[2:], HasValue: true})
			}
			pending = -1
			if !has {
				pending = len(r.Options) - 1
			}
			continue
		}
		r.Operands = append(r.Operands, Operand{Value: wordValue(w), Of: pending})
		pending = -1
	}
}

// looseSame are the short options that are other names of long ones, for
// programs whose options sayso reads loosely; each takes a value.
var looseSame = map[string]map[string]string{
	"kubectl": {"-n": "namespace", "-f": "filename", "-l": "selector", "-c": "container", "-o": "output"},
	"helm":    {"-n": "namespace", "-f": "values"},
	"gh":      {"-R": "repo", "-b": "body", "-t": "title"},
	"docker":  {"-v": "volume", "-e": "env", "-p": "publish", "-u": "user", "-w": "workdir"},
	"podman":  {"-v": "volume", "-e": "env", "-p": "publish", "-u": "user", "-w": "workdir"},
}

func wordValue(w shell.Word) string {
	if !w.Literal {
		return "\x00"
	}
	return w.Value
}

// tarOldStyle writes tar's old-style first word (tar xvzf a.tgz: letters
// without a dash, the values of those that take one in the words that
// follow, in order) as the options it stands for.
func tarOldStyle(args []shell.Word, spec optSpec) []shell.Word {
	if len(args) == 0 || !args[0].Literal || args[0].Value == "" || strings.HasPrefix(args[0].Value, "-") {
		return args
	}
	for _, r := range args[0].Value {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return args
		}
	}
	var out []shell.Word
	rest := args[1:]
	for _, r := range args[0].Value {
		o := "-" + string(r)
		out = append(out, shell.Word{Raw: o, Value: o, Literal: true})
		if strings.ContainsRune(spec.short, r) && len(rest) > 0 {
			out = append(out, rest[0])
			rest = rest[1:]
		}
	}
	return append(out, rest...)
}
