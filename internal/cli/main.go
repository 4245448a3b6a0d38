package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/sayso-dev/sayso/internal/paths"
	"io"
	"os"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
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

type command struct {
	name    string
	summary string
	run     func(env *Env, args []string) error
}

// commands are the subcommands, each registered by the file that runs it.
var commands []command

func register(c command) { commands = append(commands, c) }

func init() {
	register(command{"version", "print the version", runVersion})
	register(command{"help", "show help", runHelp})
}

// Version is set at build time.
var Version = "dev"

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
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(env, args[1:])
			var ue usageError
			switch {
			case err == nil:
				return ExitOK
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
}

func runVersion(env *Env, args []string) error {
	fmt.Fprintf(env.Stdout, "sayso %s\n", Version)
	return nil
}

// helpTopics holds the long help of each command and topic, by name.
var helpTopics = map[string]string{}

func runHelp(env *Env, args []string) error {
	if len(args) > 0 {
		text, ok := helpTopics[args[0]]
		if !ok {
			return usagef("help: no help for %q", args[0])
		}
		fmt.Fprint(env.Stdout, text)
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
