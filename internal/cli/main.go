package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/sayso-dev/sayso/docs"
	"github.com/sayso-dev/sayso/internal/paths"
)

// Exit codes. ExitAsk and ExitDeny are sayso check --exit-code's: the
// decision, for a script.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
	ExitAsk   = 3
	ExitDeny  = 4
)

// Env is what a command runs with: its streams and its working folder.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getwd          func() (string, error)
	Context        context.Context // done when the process is told to stop; nil is never
}

func (e *Env) context() context.Context {
	if e.Context == nil {
		return context.Background()
	}
	return e.Context
}

// usageError is an error in how the command was called: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// exitStatus ends a command that has said all it had to say with a status
// other than 0, printing nothing more.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

type command struct {
	name    string
	summary string
	run     func(env *Env, args []string) error
	usage   string // its help; "" is its summary alone
}

// registered is a command in the table and the words it takes first: its
// verbs (lease grant), or the agents it acts for (install AGENT).
type registered struct {
	command
	verbs []string
}

// commands are the subcommands, each registered by the file that runs it;
// the completion scripts are made from this table.
var commands []registered

// register adds c to the table; its usage becomes its help topic.
func register(c command, verbs ...string) {
	commands = append(commands, registered{c, verbs})
	if c.usage != "" {
		helpTopics[c.name] = c.usage
	}
}

const (
	versionUsage = "usage: sayso version\n\nPrints sayso's version: the module version it was built as, or the\ncommit it was built from and whether that tree was modified.\n"
	helpUsage    = "usage: sayso help [COMMAND or TOPIC]\n\nWith no argument, lists the commands and the topics. With one, prints its\nhelp; a text longer than the terminal goes through $PAGER (or less -R),\nand is printed whole to a file or a pipe. Every command also takes\n--help (or -h) and prints the same, changing nothing.\n"
)

func init() {
	register(command{"version", "print the version", runVersion, versionUsage})
	register(command{"help", "show help", runHelp, helpUsage})
}

// Version, when set at build time (-ldflags -X), is printed as it is;
// otherwise the build's own record names the version.
var Version = ""

// Main runs sayso with args (without the program name) and returns the
// exit status.
func Main(args []string, env *Env) int {
	if env.Getwd == nil {
		env.Getwd = os.Getwd
	}
	args, err := folders(args)
	if err != nil {
		fmt.Fprintf(env.Stderr, "sayso: error: %s\n", err)
		return ExitUsage
	}
	if len(args) == 0 {
		printUsage(env.Stderr)
		return ExitUsage
	}
	switch args[0] {
	case "--help", "-h":
		printUsage(env.Stdout)
		return ExitOK
	case "--version":
		args[0] = "version"
	}
	for _, c := range commands {
		if c.name == args[0] {
			if asksHelp(args[1:]) {
				// Help changes nothing: the command does not run.
				env.page(usageOf(c.command))
				return ExitOK
			}
			err := c.run(env, args[1:])
			var ue usageError
			var es exitStatus
			switch {
			case err == nil:
				return ExitOK
			case errors.As(err, &es):
				return int(es)
			case errors.As(err, &ue):
				fmt.Fprintf(env.Stderr, "sayso: error: %s\n", ue.msg)
				fmt.Fprintf(env.Stderr, "sayso: hint: run 'sayso help %s'\n", c.name)
				return ExitUsage
			default:
				fmt.Fprintf(env.Stderr, "sayso: error: %s\n", err)
				return ExitError
			}
		}
	}
	fmt.Fprintf(env.Stderr, "sayso: error: unknown command %q\n", args[0])
	printUsage(env.Stderr)
	return ExitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: sayso <command> [arguments]")
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "topics (sayso help TOPIC):")
	for _, t := range docs.TopicNames() {
		fmt.Fprintf(w, "  %-13s %s\n", t, docs.Title(t))
	}
}

// asksHelp reports whether the arguments, before any "--", ask for help.
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--help", "-h", "-help":
			return true
		}
	}
	return false
}

// usageOf is a command's help: its topic, or its one line.
func usageOf(c command) string {
	if text, ok := helpTopics[c.name]; ok {
		return text
	}
	return "usage: sayso " + c.name + "\n\n" + c.summary + "\n"
}

func runVersion(env *Env, args []string) error {
	if len(args) > 0 {
		return usagef("version: takes no arguments")
	}
	fmt.Fprintf(env.Stdout, "sayso %s\n", version())
	return nil
}

// version names what this binary was built from: the version set at
// build time, the module's version, or the commit and whether the tree
// had changes.
func version() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown build)"
	}
	v := info.Main.Version
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if v != "" && v != "(devel)" {
		return v
	}
	if rev == "" {
		return "(devel, no version control information)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		return "(devel) " + rev + ", modified"
	}
	return "(devel) " + rev
}

// helpTopics holds the long help of each command and topic, by name.
var helpTopics = map[string]string{}

func runHelp(env *Env, args []string) error {
	if len(args) > 0 {
		text, ok := helpTopics[args[0]]
		if !ok {
			for _, c := range commands {
				if c.name == args[0] {
					text, ok = usageOf(c.command), true
				}
			}
		}
		if !ok {
			return usagef("help: no help for %q (run 'sayso help' for the commands and topics)", args[0])
		}
		env.page(text)
		return nil
	}
	printUsage(env.Stdout)
	return nil
}

// folders reads the options that name sayso's folders before the command,
// as the hook command line that sayso install writes has them:
// --state-dir DIR --config-dir DIR. Both or neither.
func folders(args []string) ([]string, error) {
	var state, config string
	for len(args) >= 2 && (args[0] == "--state-dir" || args[0] == "--config-dir") {
		if args[0] == "--state-dir" {
			state = args[1]
		} else {
			config = args[1]
		}
		args = args[2:]
	}
	if state == "" && config == "" {
		return args, nil
	}
	if state == "" || config == "" {
		return nil, fmt.Errorf("--state-dir and --config-dir go together")
	}
	return args, paths.Fix(state, config)
}
