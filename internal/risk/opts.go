package risk

import (
	"strconv"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// Options are read as the program reads them. Most programs parse theirs
// with getopt_long (GNU tools, getopt(3)) or git's parse-options
// (gitcli(7)): short options in clusters (-df is -d -f), a short option's
// value attached (-x'make', -ojson) or in the next word, a long option's
// value after = or in the next word, options among the operands until
// "--", and — in both — an unambiguous prefix of a long option standing
// for it (--exe= is --exec=, --upload-pa= is --upload-pack=).

// optSpec says how one program reads its options.
type optSpec struct {
	short string   // short options that take a value
	long  []string // long options, without dashes; a trailing "=" when it takes a value
	// abbrev: an unambiguous prefix of a long option stands for it. A
	// prefix of several is refused by the program; it is read as the
	// first, so that a refusal is never read as less than an option.
	abbrev bool
}

// option is one option as the program reads it.
type option struct {
	name string      // "-x" or "--exec": abbreviations and clusters resolved
	val  *shell.Word // its value, when it takes one
	dyn  bool        // an option word built at run time: it may be any option
}

// opts are the options of a command, as read.
type opts []option

// has reports whether any of names was given, or an option built at run
// time that may be one of them.
func (set opts) has(names ...string) bool {
	for _, o := range set {
		if o.dyn {
			return true
		}
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// value returns the value of the last of names given, or nil.
func (set opts) value(names ...string) *shell.Word {
	var v *shell.Word
	for _, o := range set {
		for _, n := range names {
			if o.name == n && o.val != nil {
				v = o.val
			}
		}
	}
	return v
}

// readOpts reads args as a getopt_long program does and returns its
// options and its operands.
func readOpts(args []shell.Word, spec optSpec) (opts, []shell.Word) {
	var out opts
	var operands []shell.Word
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case !w.Literal && strings.HasPrefix(w.Raw, "-"):
			out = append(out, option{dyn: true})
			continue
		case !w.Literal || len(v) < 2 || v[0] != '-':
			operands = append(operands, w)
			continue
		case v == "--":
			return out, append(operands, args[i+1:]...)
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			canon, takes := spec.longName(name)
			o := option{name: "--" + canon}
			switch {
			case hasVal:
				o.val = &shell.Word{Raw: val, Value: val, Literal: true, Tilde: strings.HasPrefix(val, "~")}
			case takes && i+1 < len(args):
				i++
				o.val = &args[i]
			}
			out = append(out, o)
			continue
		}
		for j := 1; j < len(v); j++ {
			o := option{name: "-" + v[j:j+1]}
			if strings.IndexByte(spec.short, v[j]) >= 0 {
				if j+1 < len(v) {
					rest := v[j+1:]
					o.val = &shell.Word{Raw: rest, Value: rest, Literal: true, Tilde: strings.HasPrefix(rest, "~")}
				} else if i+1 < len(args) {
					i++
					o.val = &args[i]
				}
				out = append(out, o)
				break
			}
			out = append(out, o)
		}
	}
	return out, operands
}

// longName resolves a long option's name, abbreviations included, and
// says whether it takes a value.
func (spec optSpec) longName(name string) (string, bool) {
	first := ""
	takes := false
	for _, l := range spec.long {
		n, val := strings.CutSuffix(l, "=")
		if n == name {
			return n, val
		}
		if spec.abbrev && first == "" && name != "" && strings.HasPrefix(n, name) && !strings.HasPrefix(name, "no-") {
			first, takes = n, val
		}
	}
	if first != "" {
		return first, takes
	}
	return name, false
}

// setuidMode reports whether a mode, as chmod(1), install(1) or mkdir(1)
// read it, sets the set-user-ID or set-group-ID bit: an octal mode of any
// width whose value holds 04000 or 02000 (4755, 04755, 2755), or a
// symbolic one that adds s (u+s, g=rwxs, +s).
func setuidMode(v string) bool {
	if v != "" && isOctal(v) {
		n, err := strconv.ParseUint(v, 8, 32)
		return err != nil || n&06000 != 0
	}
	for _, clause := range strings.Split(v, ",") {
		if i := strings.IndexAny(clause, "+="); i >= 0 && strings.Contains(clause[i:], "s") {
			return true
		}
	}
	return false
}
