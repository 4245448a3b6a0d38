package shell

import (
	"regexp"
	"strings"
)

// peeled is what a wrapper adds to the command it wraps.
type peeled struct {
	assigns  []Assign // env NAME=VALUE
	chdir    *Word    // env -C DIR, sudo -D DIR
	many     bool     // runs the command once per input item
	repeats  bool     // runs the command again and again (watch, entr): a loop
	keep     bool     // with a nil rest: the wrapper runs nothing (command -v, sudo -l)
	code     string   // a command string the wrapper runs through a shell
	codeWord *Word
}

// wrapper peels one wrapper: given the words after its name, it returns the
// command it runs, what it adds, and why it could not see through, if so.
type wrapper func(args []Word) (rest []Word, extra peeled, why string)

var wrappers map[string]wrapper

func init() {
	wrappers = map[string]wrapper{
		"sudo":             peelSudo,
		"doas":             simple(optSpec{short: "Cu"}),
		"pkexec":           simple(optSpec{long: "user"}),
		"nohup":            simple(optSpec{}),
		"setsid":           simple(optSpec{}),
		"builtin":          simple(optSpec{}),
		"exec":             simple(optSpec{short: "a"}),
		"nice":             simple(optSpec{short: "n", long: "adjustment", numeric: true}),
		"ionice":           peelIonice,
		"stdbuf":           simple(optSpec{short: "ioe", long: "input output error"}),
		"time":             simple(optSpec{short: "fo", long: "format output"}),
		"timeout":          peelTimeout,
		"command":          peelCommand,
		"env":              peelEnv,
		"xargs":            peelXargs,
		"parallel":         peelParallel,
		"busybox":          simple(optSpec{}),
		"toybox":           simple(optSpec{}),
		"chroot":           peelChroot,
		"su":               peelSu,
		"watch":            peelWatch,
		"caffeinate":       simple(optSpec{short: "tw"}),
		"unbuffer":         simple(optSpec{}),
		"chrt":             peelChrt,
		"runuser":          simple(optSpec{short: "ugGl", long: "user group supp-group login"}),
		"flock":            peelFlock,
		"strace":           peelTracer(optSpec{short: "eoOpPsSuUXaIbE", long: "output trace signal status attach"}),
		"ltrace":           peelTracer(optSpec{short: "eoOpPsSuUXaIbEnAlLnx", long: "output"}),
		"setarch":          peelSetarch,
		"linux32":          simple(optSpec{}),
		"linux64":          simple(optSpec{}),
		"fakeroot":         simple(optSpec{short: "is", long: "lib faked"}),
		"faketime":         peelFaketime,
		"numactl":          simple(optSpec{short: "CNmipP", long: "cpunodebind membind interleave preferred physcpubind"}),
		"xvfb-run":         simple(optSpec{short: "nsefpwl", long: "server-num server-args error-file auth-file xauth-protocol wait"}),
		"valgrind":         simple(optSpec{}),
		"catchsegv":        simple(optSpec{}),
		"firejail":         simple(optSpec{}),
		"taskset":          peelTaskset,
		"chronic":          simple(optSpec{}),
		"dbus-launch":      simple(optSpec{}),
		"dbus-run-session": simple(optSpec{long: "config-file dbus-daemon"}),
		"ssh-agent":        simple(optSpec{short: "aEOPt"}),
		"proxychains":      simple(optSpec{short: "f"}),
		"proxychains4":     simple(optSpec{short: "f"}),
		"torsocks":         simple(optSpec{short: "uapP", long: "user pass address port"}),
	}
}

// optSpec names the options of a wrapper that take an argument.
type optSpec struct {
	short   string // letters taking an argument
	long    string // space-separated long names taking an argument
	numeric bool   // -5 style numeric options (nice)
}

type opt struct {
	name string // "-u", "--user"
	val  *Word
}

// options reads leading options per spec and returns them with the rest.
// An option word that is not literal stops the peel: what runs is unknown.
func options(args []Word, spec optSpec) (opts []opt, rest []Word, why string) {
	i := 0
	for i < len(args) {
		a := args[i]
		if !a.Literal {
			if strings.HasPrefix(a.Raw, "-") {
				return opts, nil, "an option built at run time"
			}
			return opts, args[i:], "" // the command itself, which run marks
		}
		v := a.Value
		if v == "--" {
			return opts, args[i+1:], ""
		}
		if len(v) < 2 || v[0] != '-' {
			return opts, args[i:], ""
		}
		if spec.numeric && isNumber(strings.TrimLeft(v, "-")) {
			opts = append(opts, opt{name: v})
			i++
			continue
		}
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v[2:], "=")
			o := opt{name: "--" + name}
			if hasVal {
				w := Word{Raw: val, Value: val, Literal: true}
				o.val = &w
			} else if hasWord(spec.long, name) {
				if i+1 >= len(args) {
					return opts, nil, "option --" + name + " without its value"
				}
				o.val = &args[i+1]
				i++
			}
			opts = append(opts, o)
			i++
			continue
		}
		// a cluster: -abc, -uroot, -u root
		took := false
		for j := 1; j < len(v); j++ {
			c := v[j]
			o := opt{name: "-" + string(c)}
			if strings.IndexByte(spec.short, c) >= 0 {
				if j+1 < len(v) {
					w := Word{Raw: v[j+1:], Value: v[j+1:], Literal: true}
					o.val = &w
				} else {
					if i+1 >= len(args) {
						return opts, nil, "option " + o.name + " without its value"
					}
					o.val = &args[i+1]
					took = true
				}
				opts = append(opts, o)
				break
			}
			opts = append(opts, o)
		}
		i++
		if took {
			i++
		}
	}
	return opts, args[i:], ""
}

func hasWord(list, w string) bool {
	for _, f := range strings.Fields(list) {
		if f == w {
			return true
		}
	}
	return false
}

func has(opts []opt, names ...string) *opt {
	for i := range opts {
		for _, n := range names {
			if opts[i].name == n {
				return &opts[i]
			}
		}
	}
	return nil
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func simple(spec optSpec) wrapper {
	return func(args []Word) ([]Word, peeled, string) {
		_, rest, why := options(args, spec)
		return rest, peeled{}, why
	}
}

func peelSudo(args []Word) ([]Word, peeled, string) {
	opts, rest, why := options(args, optSpec{short: "ugCDhprtTUR", long: "user group close-from chdir host prompt role type command-timeout other-user chroot"})
	if why != "" {
		return nil, peeled{}, why
	}
	var chdir *Word
	if o := has(opts, "-D", "--chdir"); o != nil {
		chdir = o.val
	}
	if has(opts, "-e", "--edit") != nil {
		// sudoedit: the rest are files to edit as root.
		edit := Word{Raw: "sudoedit", Value: "sudoedit", Literal: true}
		return append([]Word{edit}, rest...), peeled{}, ""
	}
	if len(rest) == 0 {
		if has(opts, "-s", "--shell", "-i", "--login") != nil {
			return nil, peeled{}, "opens a root shell"
		}
		return nil, peeled{keep: true}, ""
	}
	return rest, peeled{chdir: chdir}, ""
}

func peelIonice(args []Word) ([]Word, peeled, string) {
	opts, rest, why := options(args, optSpec{short: "cnpPu", long: "class classdata pid pgid uid"})
	if has(opts, "-p", "--pid", "-P", "--pgid", "-u", "--uid") != nil {
		return nil, peeled{keep: true}, why
	}
	return rest, peeled{}, why
}

func peelTimeout(args []Word) ([]Word, peeled, string) {
	_, rest, why := options(args, optSpec{short: "ks", long: "kill-after signal"})
	if why != "" || len(rest) == 0 {
		return nil, peeled{}, why
	}
	return rest[1:], peeled{}, "" // the duration
}

func peelChrt(args []Word) ([]Word, peeled, string) {
	opts, rest, why := options(args, optSpec{short: "T P D"})
	if has(opts, "-p", "--pid") != nil || why != "" || len(rest) == 0 {
		return nil, peeled{keep: true}, why
	}
	return rest[1:], peeled{}, "" // the priority
}

func peelTaskset(args []Word) ([]Word, peeled, string) {
	opts, rest, why := options(args, optSpec{})
	if has(opts, "-p", "--pid") != nil || why != "" || len(rest) == 0 {
		return nil, peeled{keep: true}, why
	}
	return rest[1:], peeled{}, "" // the mask
}

func peelChroot(args []Word) ([]Word, peeled, string) {
	_, rest, why := options(args, optSpec{long: "userspec groups"})
	if why != "" || len(rest) == 0 {
		return nil, peeled{}, why
	}
	if len(rest) == 1 {
		return nil, peeled{}, "opens a shell in another root"
	}
	return rest[1:], peeled{}, ""
}

// peelCommand: `command -v`/`-V` only describes names; otherwise it runs.
func peelCommand(args []Word) ([]Word, peeled, string) {
	opts, rest, why := options(args, optSpec{})
	if has(opts, "-v", "-V") != nil {
		return nil, peeled{keep: true}, why
	}
	return rest, peeled{}, why
}

func peelEnv(args []Word) ([]Word, peeled, string) {
	var ex peeled
	i := 0
	for i < len(args) {
		a := args[i]
		if !a.Literal {
			return nil, ex, "an argument built at run time"
		}
		v := a.Value
		switch {
		case v == "--":
			i++
			goto assigns
		case v == "-" || v == "-i" || v == "--ignore-environment" || v == "-0" || v == "--null" || v == "-v" || v == "--debug":
			i++
		case v == "-C" || v == "--chdir":
			if i+1 < len(args) {
				d := args[i+1]
				ex.chdir = &d
			}
			i += 2
		case strings.HasPrefix(v, "--chdir=") || strings.HasPrefix(v, "-C"):
			d := strings.TrimPrefix(strings.TrimPrefix(v, "--chdir="), "-C")
			ex.chdir = &Word{Raw: d, Value: d, Literal: true, Tilde: strings.HasPrefix(d, "~")}
			i++
		case v == "-u" || v == "--unset" || v == "-P":
			i += 2
		case strings.HasPrefix(v, "--unset=") || strings.HasPrefix(v, "-u") ||
			strings.HasPrefix(v, "--default-signal") || strings.HasPrefix(v, "--ignore-signal") || strings.HasPrefix(v, "--block-signal"):
			i++
		case v == "-S" || v == "--split-string" || strings.HasPrefix(v, "-S") || strings.HasPrefix(v, "--split-string="):
			var s string
			switch {
			case v == "-S" || v == "--split-string":
				if i+1 >= len(args) || !args[i+1].Literal {
					return nil, ex, "-S string built at run time"
				}
				s = args[i+1].Value
				i += 2
			case strings.HasPrefix(v, "--split-string="):
				s = strings.TrimPrefix(v, "--split-string=")
				i++
			default:
				s = v[2:]
				i++
			}
			split, ok := splitWords(s)
			if !ok {
				return nil, ex, "cannot read the -S string"
			}
			rest := append(split, args[i:]...)
			r, more, why := peelEnv(rest)
			more.assigns = append(ex.assigns, more.assigns...)
			return r, more, why
		case strings.HasPrefix(v, "-"):
			return nil, ex, "unknown option " + v
		default:
			goto assigns
		}
	}
assigns:
	for i < len(args) {
		a := args[i]
		name, val, ok := strings.Cut(a.Value, "=")
		if !a.Literal || !ok || !validName(name) {
			break
		}
		ex.assigns = append(ex.assigns, Assign{Name: name, Value: Word{Raw: val, Value: val, Literal: true}})
		i++
	}
	if i > len(args) {
		return nil, ex, "an option without its value"
	}
	if i == len(args) {
		ex.keep = true // env alone prints the environment
		return nil, ex, ""
	}
	return args[i:], ex, ""
}

// splitWords splits env -S text into words, honouring quotes as env does
// closely enough to see the command.
func splitWords(s string) ([]Word, bool) {
	var out []Word
	var cur strings.Builder
	in, started := byte(0), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in != 0:
			if c == in {
				in = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			in, started = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if started {
				out = append(out, Word{Raw: cur.String(), Value: cur.String(), Literal: true})
				cur.Reset()
				started = false
			}
		case c == '\\' || c == '$':
			return nil, false
		default:
			cur.WriteByte(c)
			started = true
		}
	}
	if in != 0 {
		return nil, false
	}
	if started {
		out = append(out, Word{Raw: cur.String(), Value: cur.String(), Literal: true})
	}
	return out, true
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

func peelXargs(args []Word) ([]Word, peeled, string) {
	i := 0
	for i < len(args) {
		a := args[i]
		if !a.Literal {
			return nil, peeled{many: true}, "an option built at run time"
		}
		v := a.Value
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if strings.HasPrefix(v, "--") {
			name, _, hasVal := strings.Cut(v[2:], "=")
			i++
			if !hasVal && hasWord("replace max-lines max-args max-procs max-chars delimiter eof arg-file process-slot-var", name) && name != "replace" && name != "max-lines" && name != "eof" {
				i++
			}
			continue
		}
		c := v[1]
		switch {
		case strings.IndexByte("ILnPsdEa", c) >= 0:
			if len(v) == 2 {
				i++
			}
		case strings.IndexByte("iel0rtpx", c) >= 0:
			// flags, or options whose argument is attached only
		default:
			return nil, peeled{many: true}, "unknown option " + v
		}
		i++
	}
	if i > len(args) {
		return nil, peeled{many: true}, "an option without its value"
	}
	rest := args[i:]
	if len(rest) == 0 {
		rest = []Word{{Raw: "echo", Value: "echo", Literal: true}}
	}
	if repl := xargsReplace(args[:i]); repl != "" {
		if strings.Contains(rest[0].Value, repl) {
			return rest, peeled{many: true}, "the command is each input item (" + repl + ")"
		}
		if shells[base(rest[0].Value)] {
			for _, w := range rest[1:] {
				if strings.Contains(w.Value, repl) {
					return rest, peeled{many: true}, "the shell code holds each input item (" + repl + ")"
				}
			}
		}
	}
	return rest, peeled{many: true}, ""
}

// xargsReplace is the replacement string of xargs -I R, -i[R] or
// --replace[=R] among its options, or "".
func xargsReplace(opts []Word) string {
	for i, o := range opts {
		v := o.Value
		switch {
		case v == "-I" && i+1 < len(opts):
			return opts[i+1].Value
		case strings.HasPrefix(v, "-I") && len(v) > 2:
			return v[2:]
		case v == "-i" || v == "--replace":
			return "{}"
		case strings.HasPrefix(v, "-i"):
			return v[2:]
		case strings.HasPrefix(v, "--replace="):
			return strings.TrimPrefix(v, "--replace=")
		}
	}
	return ""
}

// peelParallel reads GNU parallel's command template: the words before
// ::: or ::::. Inputs after them become arguments of the command.
func peelParallel(args []Word) ([]Word, peeled, string) {
	i := 0
	for i < len(args) {
		v := args[i].Value
		if !args[i].Literal {
			return nil, peeled{many: true}, "an option built at run time"
		}
		if !strings.HasPrefix(v, "-") {
			break
		}
		if hasWord("-j -N -n -P -S --jobs --max-args --sshlogin -a --arg-file --delay --timeout --joblog --results", v) {
			i++
		}
		i++
	}
	var cmd, inputs []Word
	for j := i; j < len(args); j++ {
		if args[j].Literal && (args[j].Value == ":::" || args[j].Value == "::::" || args[j].Value == ":::+") {
			inputs = args[j+1:]
			break
		}
		cmd = append(cmd, args[j])
	}
	if len(cmd) == 0 {
		return nil, peeled{many: true}, "the commands come from its input"
	}
	// parallel joins the template with spaces and runs it through a shell
	// once per input, each input quoted where a replacement string stands
	// (or appended).
	parts := make([]string, 0, len(cmd)+len(inputs))
	for _, w := range cmd {
		if !w.Literal {
			return nil, peeled{many: true}, "a command template built at run time"
		}
		parts = append(parts, w.Value)
	}
	if parallelRepl.MatchString(parts[0]) {
		return nil, peeled{many: true}, "the command is each input item"
	}
	if shells[base(parts[0])] && parallelRepl.MatchString(strings.Join(parts[1:], " ")) {
		return nil, peeled{many: true}, "the shell code holds each input item"
	}
	for _, w := range inputs {
		if !w.Literal {
			parts = append(parts, "\"$INPUT\"") // data, whatever it is
			continue
		}
		parts = append(parts, "'"+strings.ReplaceAll(w.Value, "'", `'\''`)+"'")
	}
	return nil, peeled{many: true, code: strings.Join(parts, " ")}, ""
}

// parallelRepl matches GNU parallel's replacement strings: {}, {.}, {/},
// {//}, {/.}, {#}, {%}, {1}, {2.}, {= perl =}…
var parallelRepl = regexp.MustCompile(`\{[^{}\s]*\}|\{=`)

func peelSu(args []Word) ([]Word, peeled, string) {
	opts, _, why := options(args, optSpec{short: "cgGsw", long: "command group supp-group shell whitelist-environment session-command"})
	if why != "" {
		return nil, peeled{}, why
	}
	if o := has(opts, "-c", "--command", "--session-command"); o != nil {
		return nil, peeled{codeWord: o.val}, ""
	}
	return nil, peeled{}, "opens a shell as another user"
}

func peelWatch(args []Word) ([]Word, peeled, string) {
	opts, rest, why := options(args, optSpec{short: "nq", long: "interval equexit"})
	if why != "" || len(rest) == 0 {
		return nil, peeled{}, why
	}
	if has(opts, "-x", "--exec") != nil {
		return rest, peeled{repeats: true}, ""
	}
	parts := make([]string, len(rest))
	for i, w := range rest {
		if !w.Literal {
			return nil, peeled{}, "a command string built at run time"
		}
		parts[i] = w.Value
	}
	return nil, peeled{code: strings.Join(parts, " "), repeats: true}, ""
}

func peelFlock(args []Word) ([]Word, peeled, string) {
	opts, rest, why := options(args, optSpec{short: "wEc", long: "timeout conflict-exit-code command"})
	if why != "" {
		return nil, peeled{}, why
	}
	if o := has(opts, "-c", "--command"); o != nil {
		return nil, peeled{codeWord: o.val}, ""
	}
	if len(rest) < 2 {
		return nil, peeled{keep: true}, "" // flock on a descriptor: runs nothing
	}
	return rest[1:], peeled{}, "" // the lock file
}

func peelSetarch(args []Word) ([]Word, peeled, string) {
	if len(args) == 0 {
		return nil, peeled{keep: true}, ""
	}
	if !args[0].Literal {
		return nil, peeled{}, "an architecture built at run time"
	}
	_, rest, why := options(args[1:], optSpec{})
	return rest, peeled{}, why
}

func peelFaketime(args []Word) ([]Word, peeled, string) {
	_, rest, why := options(args, optSpec{short: "p"})
	if why != "" || len(rest) == 0 {
		return nil, peeled{}, why
	}
	return rest[1:], peeled{}, ""
}

// peelTracer peels strace or ltrace off the command it starts; attached to
// a running process (-p) it starts nothing and stays as it is.
func peelTracer(spec optSpec) wrapper {
	return func(args []Word) ([]Word, peeled, string) {
		opts, rest, why := options(args, spec)
		if has(opts, "-p", "--attach") != nil {
			return nil, peeled{keep: true}, why
		}
		return rest, peeled{}, why
	}
}
