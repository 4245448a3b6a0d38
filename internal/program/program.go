package program

import "strings"

// Trait is one thing a program does beyond what its class says.
type Trait uint16

const (
	// Wrapper: runs the command that follows its own options (sudo, env,
	// nohup, run0); sayso peels it to see that command.
	Wrapper Trait = 1 << iota
	// Shell: its -c string and its stdin are shell code.
	Shell
	// Interpreter: runs code from a file, a string or stdin.
	Interpreter
	// RunsArgs: runs a command or code given among its own arguments or
	// options (find -exec, npx, watchexec, hyperfine, git bisect run).
	RunsArgs
	// StdinArgs: reads the arguments of the command it runs from stdin
	// (xargs, parallel).
	StdinArgs
	// Runner: runs the project's own scripts or tasks (make, just, npm run).
	Runner
	// AsUser: runs what it runs as another user (sudo, run0, su).
	AsUser
	// Remote: reaches other hosts (curl, ssh, rsync).
	Remote
	// Escapes: an editor, pager or calculator whose commands can start a
	// shell (ed's !, less's !, dc's !).
	Escapes
	// Builtin: a shell builtin or keyword.
	Builtin
	// Bourne: a shell whose -c string and stdin sayso reads as bash.
	Bourne
	// Launcher: its whole work is to start another command, which sayso
	// reads where it can but does not peel (tmux, nsenter, watchexec).
	Launcher
	// Looks: only reads, lists or prints; risk reads its operands as paths
	// read (ls, grep, jq).
	Looks
	// Builds: builds, checks, formats or runs the project's code in the
	// project; its class does not depend on its arguments (tsc, eslint).
	Builds
)

var traitNames = []string{"wrapper", "shell", "interpreter", "runs-args", "stdin-args", "runner", "as-user", "remote", "escapes", "builtin", "bourne", "launcher", "looks", "builds"}

func (t Trait) String() string {
	var out []string
	for i, n := range traitNames {
		if t&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return strings.Join(out, "|")
}

// Program is what the registry holds about one program.
type Program struct {
	Traits Trait
	// Verbs are the subcommands (one or two words) that run the project's
	// code or a program the command names: "run" for cargo, "bisect run"
	// for git.
	Verbs []string
	// ProgOpts are the options whose value is a program, a command line or
	// a file of commands it runs (--pager, --pre, --exec, -x).
	ProgOpts []string
	// WorkOpts are the options whose value is where the program works
	// instead of its working folder: a folder or a file in it (npm
	// --prefix, cargo --manifest-path, kubectl -f). RepoOpts name another
	// repository instead (gh --repo). A lease binds to neither.
	WorkOpts []string
	RepoOpts []string
	// State are the folders of the home (relative to it) where the program
	// keeps what it writes for itself on every run — logs, token caches,
	// its own settings — and without which it fails: gcloud's
	// .config/gcloud. Only programs that run no code of the project's or
	// of the step's have them.
	State []string
	// Credentials are the person's credentials (relative to the home, each
	// a place the wall hides) the program needs for its own work: git's
	// keys and stored passwords to fetch, gh's token, aws's keys. Only
	// programs that run no code of the project's or of the step's have
	// them; a step made only of such programs reads them in the wall.
	Credentials []string
}

// State returns the folders, relative to the home, where the program
// called name keeps its own state.
func State(name string) []string { return registry()[name].State }

// Credentials returns the credentials, relative to the home, that the
// program called name needs for its own work.
func Credentials(name string) []string { return registry()[name].Credentials }

// Lookup returns what the registry knows of the program called name (no
// folder), and whether it knows it at all.
func Lookup(name string) (Program, bool) {
	p, ok := registry()[name]
	return p, ok
}

// Known reports whether the registry lists name.
func Known(name string) bool {
	_, ok := registry()[name]
	return ok
}

// Traits returns the traits of the program called name.
func Traits(name string) Trait { return registry()[name].Traits }

// Is reports whether the program called name has trait t.
func Is(name string, t Trait) bool { return registry()[name].Traits&t != 0 }

// Names lists every registered program with trait t; every program when t
// is 0. The order is not fixed.
func Names(t Trait) []string {
	var out []string
	for n, p := range registry() {
		if t == 0 || p.Traits&t != 0 {
			out = append(out, n)
		}
	}
	return out
}

// RunsVerb reports whether words (a program and what follows it) start
// with one of the program's verbs that run code: "cargo run", "git bisect
// run". It returns the words that make the verb.
func RunsVerb(words []string) (string, bool) {
	if len(words) < 2 {
		return "", false
	}
	for _, v := range registry()[words[0]].Verbs {
		vs := strings.Fields(v)
		if len(words) < 1+len(vs) {
			continue
		}
		ok := true
		for i, w := range vs {
			if words[1+i] != w {
				ok = false
				break
			}
		}
		if ok {
			return words[0] + " " + v, true
		}
	}
	return "", false
}

// ProgOpt reports whether v (an argument, "--opt" or "--opt=value") is one
// of the options of the program called name that name a program or a
// command line; value is the attached value, if any.
func ProgOpt(name, v string) (opt, value string, ok bool) {
	return matchOpt(registry()[name].ProgOpts, v)
}

// WorkOpt reports whether v is one of the options of the program called
// name that aim it elsewhere than its working folder; repo reports that
// its value names another repository rather than a folder or a file.
func WorkOpt(name, v string) (opt, value string, repo, ok bool) {
	p := registry()[name]
	if opt, value, ok = matchOpt(p.WorkOpts, v); ok {
		return opt, value, false, true
	}
	opt, value, ok = matchOpt(p.RepoOpts, v)
	return opt, value, ok, ok
}

// matchOpt finds v among opts: the option alone, a long one with "=value",
// a short one with its value attached.
func matchOpt(opts []string, v string) (opt, value string, ok bool) {
	for _, o := range opts {
		if v == o {
			return o, "", true
		}
		if rest, found := strings.CutPrefix(v, o); found {
			if strings.HasPrefix(o, "--") && strings.HasPrefix(rest, "=") {
				return o, rest[1:], true
			}
			if !strings.HasPrefix(o, "--") && len(o) == 2 && rest != "" {
				return o, rest, true
			}
		}
	}
	return "", "", false
}

// VersionedInterpreter reports names of interpreters written with their
// version: python3.12, ruby3.3, perl5.36, node20, php8.2, lua5.4.
func VersionedInterpreter(name string) bool {
	for _, p := range []string{"python", "ruby", "perl", "node", "php", "lua", "pypy"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && strings.Trim(rest, "0123456789.") == "" {
			return true
		}
	}
	return false
}

// Broad says why a command starting with words is too broad for the
// person's standing words — a kept rule or an allow entry — or "". These
// programs run whatever a file, a string or their input says, and the
// agent can write those: no standing word may start with them. It is the
// one list both refuse by.
func Broad(words []string) string {
	if len(words) == 0 {
		return "there is no command"
	}
	name := words[0]
	switch {
	case strings.Contains(name, "/"):
		return "a program given by its path (" + name + ") runs whatever that file is"
	case Is(name, Shell|Interpreter) || VersionedInterpreter(name):
		return name + " is a shell or an interpreter: it runs whatever code it is given"
	case Is(name, Wrapper|Launcher|StdinArgs):
		return name + " is a wrapper: it runs another command"
	case Is(name, Remote):
		return name + " is never kept: it reaches other hosts"
	case name == "rm":
		return "rm is never kept: it deletes whatever it is given"
	case name == "sayso":
		return "sayso's own commands are the person's"
	case Is(name, Runner):
		return name + " is a script runner: it runs what the project's files say"
	}
	if verb, ok := RunsVerb(words); ok {
		return verb + " is a script runner: it runs what the project's files or its arguments say"
	}
	return ""
}
