package rule

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
)

// broad says why a rule starting with words is too broad to keep, or ""
// when it is not. These programs run whatever a file or a string says, and
// the agent can write the file: no rule may start with them, in any unit.
// What each program is comes from the registry.
func broad(words []string) string {
	if len(words) == 0 {
		return "the rule has no command"
	}
	name := words[0]
	switch {
	case strings.Contains(name, "/"):
		return "a program given by its path (" + name + ") runs whatever that file is"
	case program.Is(name, program.Shell|program.Interpreter) || program.VersionedInterpreter(name):
		return name + " is a shell or an interpreter: it runs whatever code it is given"
	case program.Is(name, program.Wrapper|program.Launcher):
		return name + " is a wrapper: it runs another command"
	case program.Is(name, program.Remote):
		return name + " is never kept as a rule: it reaches other hosts"
	case name == "rm":
		return "rm is never kept as a rule"
	case program.Is(name, program.Runner):
		return name + " is a script runner: it runs what the project's files say"
	}
	if verb, ok := program.RunsVerb(words); ok {
		return verb + " is a script runner: it runs what the project's files or its arguments say"
	}
	return ""
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
