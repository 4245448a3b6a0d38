package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// verbFlags makes the flag set of a command ("check") or of a noun's verb
// ("lease grant"). It prints nothing itself: parseFlags and the command's
// usage errors say what went wrong.
func verbFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args into fs. done is true when args asked for help:
// usage is printed and the command has nothing more to do. A flag it
// cannot read is a usage error that names the command.
func parseFlags(env *Env, fs *flag.FlagSet, usage string, args []string) (done bool, err error) {
	return flagError(env, fs, usage, fs.Parse(args))
}

// parseArgs is parseFlags for flags that may stand anywhere among the
// arguments: it returns the other arguments, in order.
func parseArgs(env *Env, fs *flag.FlagSet, usage string, args []string) (rest []string, done bool, err error) {
	rest, err = parseInterspersed(fs, args)
	done, err = flagError(env, fs, usage, err)
	return rest, done, err
}

// flagError is what a command does with the error of parsing its flags:
// help prints usage and is done, any other error is a usage error.
func flagError(env *Env, fs *flag.FlagSet, usage string, err error) (done bool, _ error) {
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(env.Stdout, usage)
		return true, nil
	}
	return false, usagef("%s: %v", fs.Name(), err)
}

// jsonOnly parses the flags of a command that takes --json and no
// argument: whether it was given, and done when help was asked for.
func jsonOnly(env *Env, name, usage string, args []string) (asJSON, done bool, err error) {
	fs := verbFlags(name)
	fs.BoolVar(&asJSON, "json", false, "")
	if done, err := parseFlags(env, fs, usage, args); done || err != nil {
		return false, done, err
	}
	if fs.NArg() > 0 {
		return false, false, usagef("%s: unexpected argument %q", name, fs.Arg(0))
	}
	return asJSON, false, nil
}

// parseInterspersed parses flags wherever they stand among the arguments,
// and returns the others in order. "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var after []string
	for i, a := range args {
		if a == "--" {
			args, after = args[:i], args[i+1:]
			break
		}
	}
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if args = fs.Args(); len(args) == 0 {
			return append(rest, after...), nil
		}
		rest, args = append(rest, args[0]), args[1:]
	}
}

// splitVerb reads "sayso NOUN VERB ARGS": the verb, one of those the noun
// registered, a flag set for "NOUN VERB" (each verb defines only its own
// flags on it: another verb's is refused) and the arguments after the verb.
// done is true when the verb asks for help: the noun's usage is printed
// and the command has nothing more to do.
func splitVerb(env *Env, noun string, args []string) (verb string, fs *flag.FlagSet, rest []string, done bool, err error) {
	verbs := verbsOf(noun)
	if len(args) == 0 {
		return "", nil, nil, false, usagef("%s: no verb given (%s)", noun, oneOf(verbs))
	}
	verb, rest = args[0], args[1:]
	switch verb {
	case "help", "-h", "--help":
		fmt.Fprint(env.Stdout, helpTopics[noun])
		return verb, nil, rest, true, nil
	}
	if !slices.Contains(verbs, verb) {
		return verb, nil, rest, false, usagef("%s: unknown verb %q (want %s)", noun, verb, oneOf(verbs))
	}
	return verb, verbFlags(noun + " " + verb), rest, false, nil
}

// verbsOf are the verbs the command noun registered.
func verbsOf(noun string) []string {
	for _, c := range commands {
		if c.name == noun {
			return c.verbs
		}
	}
	return nil
}

// oneOf lists words as a person says them: "a, b or c".
func oneOf(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// printJSON prints v as indented JSON, the form every --json takes.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printList prints a list as indented JSON: an empty list is [], never
// null, so a script can always iterate it.
func printList[T any](w io.Writer, list []T) error {
	if list == nil {
		list = []T{}
	}
	return printJSON(w, list)
}
