package review

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// Input is everything the reviewer reads about one step. It holds the
// person's own words and sayso's own view of the step, nothing else: there
// is no field for tool output, file contents, a task's own prompt, the
// assistant's messages or a guest's words, and none may be smuggled into
// these.
type Input struct {
	Agent      string      // the agent taking the step: a client's name, or api
	Cwd        string      // the step's working folder
	Step       Step        // what the agent wants to do
	Classes    risk.Set    // the step's classes
	Diagnostic []string    // the decision so far, one line per tier or reason
	OwnerWords []OwnerWord // the session's owner words, oldest first
	Note       string      // the person's environment note
}

// Step is the step under review: a shell command, or a tool and its input.
type Step struct {
	Tool    string          // the agent's tool name: Bash, Write, an MCP tool
	Command string          // the shell command line, for a shell step
	Input   json.RawMessage // the tool's input, for any other step
}

// OwnerWord is one message the person typed in the session, or in the
// parent session a task was created from (FromParent). Only messages whose
// source is person belong here: never a task's prompt, a routine, another
// app or a guest.
type OwnerWord struct {
	Text       string
	FromParent bool
}

// Limits on what the reviewer is given. Nothing is ever cut short: a piece
// over its limit makes the step not reviewable, because a missing middle
// could hide where the person said stop.
const (
	MaxOwnerWords = 32 << 10       // all owner words together, in bytes
	MaxNote       = policy.MaxNote // the environment note, in characters
	MaxStep       = 16 << 10       // the command or the tool input, in bytes
	MaxDiagnostic = 8 << 10        // the diagnostic lines together, in bytes
)

// Severe reports whether the step holds a severe class: it passes only if
// the person's words name it.
func (in *Input) Severe() bool { return in.Classes.Any(risk.KindSevere) }

// check reports why in cannot be reviewed, or nil.
func (in *Input) check() error {
	if len(in.OwnerWords) == 0 {
		return fmt.Errorf("%w: no owner words", ErrInput)
	}
	n := 0
	for _, w := range in.OwnerWords {
		n += len(w.Text)
	}
	if n > MaxOwnerWords {
		return fmt.Errorf("%w: owner words are %d bytes, over %d", ErrInput, n, MaxOwnerWords)
	}
	if c := len([]rune(in.Note)); c > MaxNote {
		return fmt.Errorf("%w: environment note is %d characters, over %d", ErrInput, c, MaxNote)
	}
	if in.Step.Command == "" && len(in.Step.Input) == 0 {
		return fmt.Errorf("%w: empty step", ErrInput)
	}
	if n := len(in.Step.Command) + len(in.Step.Input); n > MaxStep {
		return fmt.Errorf("%w: step is %d bytes, over %d", ErrInput, n, MaxStep)
	}
	if n := len(strings.Join(in.Diagnostic, "\n")); n > MaxDiagnostic {
		return fmt.Errorf("%w: diagnostic is %d bytes, over %d", ErrInput, n, MaxDiagnostic)
	}
	return nil
}
