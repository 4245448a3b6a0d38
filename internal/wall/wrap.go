package wall

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ReportFD is the descriptor the launcher reports the walled command's
// end on, in the line Wrap writes.
const ReportFD = 3

// Flags renders the profile as the launcher's flags, in a fixed order.
func (p Profile) Flags() []string {
	out := []string{"--scope", p.Scope.String()}
	add := func(flag string, paths []string) {
		for _, x := range paths {
			out = append(out, flag, x)
		}
	}
	add("--write", p.Write)
	add("--ro", p.ReadOnly)
	add("--hide", p.Hidden)
	add("--make", p.Make)
	add("--keep", p.Kept)
	add("--absent", p.Absent)
	add("--overlay", p.Overlay)
	if p.Secrets {
		out = append(out, "--secrets")
	}
	if p.HostNetwork {
		out = append(out, "--host-network")
	}
	if p.InClientSandbox {
		out = append(out, "--in-client-sandbox")
	}
	for _, h := range p.Hosts {
		out = append(out, "--host", h)
	}
	if p.Session != "" {
		out = append(out, "--session", p.Session)
	}
	if p.Ledger != "" {
		out = append(out, "--ledger", p.Ledger)
	}
	if p.SessionID != "" {
		out = append(out, "--session-id", p.SessionID)
	}
	if p.PagePort > 0 {
		out = append(out, "--page-port", strconv.Itoa(p.PagePort))
	}
	for _, s := range p.Same {
		out = append(out, "--same", s)
	}
	return out
}

// Args are the launcher's parsed command line.
type Args struct {
	Profile  Profile
	ReportFD int    // -1: no report
	Command  string // the shell command to run inside the wall
	Check    bool   // set up the wall, run nothing, say whether it held
}

// ParseArgs reads the launcher's command line (without the program
// name). Every path must be absolute; unknown flags are errors.
func ParseArgs(args []string) (Args, error) {
	a := Args{ReportFD: -1}
	haveCommand := false
	for i := 0; i < len(args); i++ {
		f := args[i]
		if f == "--" {
			rest := args[i+1:]
			if len(rest) != 1 {
				return a, fmt.Errorf("want exactly one command after --, got %d", len(rest))
			}
			a.Command, haveCommand = rest[0], true
			break
		}
		if f == "--check" {
			a.Check = true
			continue
		}
		if f == "--secrets" {
			a.Profile.Secrets = true
			continue
		}
		if f == "--host-network" {
			a.Profile.HostNetwork = true
			continue
		}
		if f == "--in-client-sandbox" {
			a.Profile.InClientSandbox = true
			continue
		}
		if i+1 >= len(args) {
			return a, fmt.Errorf("flag %s needs a value", f)
		}
		v := args[i+1]
		i++
		switch f {
		case "--scope":
			s, err := ParseScope(v)
			if err != nil {
				return a, err
			}
			a.Profile.Scope = s
			continue
		case "--host":
			if v == "" || strings.HasPrefix(v, "-") || strings.ContainsAny(v, "/@ \t\n") {
				return a, fmt.Errorf("bad --host %q", v)
			}
			a.Profile.Hosts = append(a.Profile.Hosts, v)
			continue
		case "--page-port":
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 || n >= 1<<16 {
				return a, fmt.Errorf("bad --page-port %q", v)
			}
			a.Profile.PagePort = n
			continue
		case "--session-id":
			if v == "" || !sessionID(v) {
				return a, fmt.Errorf("bad --session-id %q", v)
			}
			a.Profile.SessionID = v
			continue
		case "--same":
			sum, path, ok := strings.Cut(v, ":")
			if !ok || clean(path) == "" || strings.ContainsAny(sum, "/ ") {
				return a, fmt.Errorf("bad --same %q: want SUM:PATH", v)
			}
			a.Profile.Same = append(a.Profile.Same, sum+":"+clean(path))
			continue
		case "--report-fd":
			n, err := strconv.Atoi(v)
			if err != nil || n < 3 {
				return a, fmt.Errorf("bad --report-fd %q", v)
			}
			a.ReportFD = n
			continue
		}
		// The flags that name a path: a list's, or one.
		list, one := pathFlags(&a.Profile, f)
		if list == nil && one == nil {
			return a, fmt.Errorf("unknown flag %q", f)
		}
		c := clean(v)
		switch {
		case c == "":
			return a, fmt.Errorf("%s %q: not an absolute path", f, v)
		case one != nil:
			*one = c
		default:
			*list = append(*list, c)
		}
	}
	if !haveCommand && !a.Check {
		return a, errors.New("no command: want -- COMMAND")
	}
	return a, nil
}

// pathFlags is the list of p a launcher flag that names a path adds to,
// or the path it sets; neither for another flag.
func pathFlags(p *Profile, flag string) (*[]string, *string) {
	lists := map[string]*[]string{"--write": &p.Write, "--ro": &p.ReadOnly, "--hide": &p.Hidden, "--make": &p.Make,
		"--keep": &p.Kept, "--absent": &p.Absent, "--overlay": &p.Overlay}
	ones := map[string]*string{"--upper": &p.Upper, "--session": &p.Session, "--ledger": &p.Ledger}
	return lists[flag], ones[flag]
}

// Wrap is the line the client's shell runs instead of command: the
// launcher runs command in bash inside the wall, and the line carries
// back what running command in the client's shell would have left: its
// output and input are the same descriptors, its exit status is the
// line's, an exit from the walled shell exits the client's shell with
// the same status, and its final working folder becomes the client's.
// If the wall cannot be set up the command does not run and the line
// fails with the launcher's status (126) and its reason on stderr.
func (p Profile) Wrap(command, launcher string) string {
	var b strings.Builder
	b.WriteString("{ __sayso_w=$(exec ")
	b.WriteString(quote(launcher))
	b.WriteString(" --report-fd " + strconv.Itoa(ReportFD))
	for _, f := range p.Flags() {
		b.WriteByte(' ')
		b.WriteString(quote(f))
	}
	b.WriteString(" -- ")
	b.WriteString(quote(command))
	// fd 3 is the capture, fd 1 the client's own output, kept on 4.
	b.WriteString(" 3>&1 1>&4 4>&-); } 4>&1; __sayso_s=$?; ")
	b.WriteString(`case $__sayso_w in d/*) __sayso_w=${__sayso_w#d}; builtin cd -- "${__sayso_w%x}" 2>/dev/null;; e) builtin exit "$__sayso_s";; esac; `)
	// The status is set again by a function rather than a subshell: one
	// process fewer per step.
	b.WriteString(`__sayso_r() { return "$1"; }; __sayso_r "$__sayso_s"`)
	return b.String()
}

// quote is s as one bash word.
func quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// inner is the script the walled bash runs: the command as the client's
// shell would eval it (errexit inert, as in the clients' `eval … &&`),
// with the report descriptor closed, then the report of a normal end:
// "d", the physical working folder, a newline. A command that exits the
// shell reports nothing.
const inner = `__sayso_c=$1; set --; { eval "$__sayso_c"; } 3>&- && __sayso_s=0 || __sayso_s=$?; { printf d; pwd -P; } >&3 2>/dev/null; exit "$__sayso_s"`
