package review

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// command is a local program: the review as JSON on stdin, the verdict as
// JSON on stdout. It is killed when the review's time is up or its answer
// grows past MaxAnswer.
type command struct {
	argv []string
}

// commandRequest is what a command reads on stdin: the prompt and the
// fenced message a model would read, and the same input as plain JSON for
// a program that judges without a model.
type commandRequest struct {
	System  string       `json:"system"`
	Message string       `json:"message"`
	Input   commandInput `json:"input"`
}

type commandInput struct {
	Agent      string     `json:"agent"`
	Cwd        string     `json:"cwd"`
	Tool       string     `json:"tool"`
	Command    string     `json:"command,omitempty"`
	ToolInput  any        `json:"tool_input,omitempty"`
	Classes    []string   `json:"classes"`
	Severe     bool       `json:"severe"`
	Diagnostic []string   `json:"diagnostic"`
	OwnerWords []wordJSON `json:"owner_words"`
	Note       string     `json:"environment_note"`
}

type wordJSON struct {
	Text       string `json:"text"`
	FromParent bool   `json:"from_parent"`
}

// waitDelay bounds how long a killed command's output may linger.
const waitDelay = 250 * time.Millisecond

func (c *command) send(ctx context.Context, system, message string, in *Input) (string, error) {
	req := commandRequest{System: system, Message: message, Input: commandInput{
		Agent: in.Agent, Cwd: in.Cwd, Tool: in.Step.Tool, Command: in.Step.Command,
		Severe: in.Severe(), Diagnostic: in.Diagnostic, Note: in.Note,
		Classes: []string{}, OwnerWords: []wordJSON{},
	}}
	if len(in.Step.Input) > 0 {
		req.Input.ToolInput = in.Step.Input
	}
	for _, cl := range in.Classes.Classes() {
		req.Input.Classes = append(req.Input.Classes, cl.String())
	}
	for _, w := range in.OwnerWords {
		req.Input.OwnerWords = append(req.Input.OwnerWords, wordJSON(w))
	}
	stdin, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("run %s: %w", c.argv[0], err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.argv[0], c.argv[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	stdout := &capped{max: MaxAnswer, full: cancel}
	stderr := &capped{max: 200}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = waitDelay
	err = cmd.Run()
	switch {
	case stdout.over:
		return "", fmt.Errorf("run %s: %w: over %d bytes", c.argv[0], ErrTooLarge, MaxAnswer)
	case err != nil:
		var exit *exec.ExitError
		if errors.As(err, &exit) && ctx.Err() == nil {
			if msg := clean(stderr.String()); msg != "" {
				return "", fmt.Errorf("run %s: %w: %s", c.argv[0], err, msg)
			}
		}
		return "", fmt.Errorf("run %s: %w", c.argv[0], err)
	}
	return stdout.String(), nil
}

// capped keeps at most max bytes. Past that it keeps nothing more, marks
// itself over and calls full.
type capped struct {
	strings.Builder
	max  int
	over bool
	full func()
}

func (c *capped) Write(p []byte) (int, error) {
	if c.over || c.Len()+len(p) > c.max {
		if !c.over && c.full != nil {
			c.full()
		}
		c.over = true
		if room := c.max - c.Len(); room > 0 {
			c.Builder.Write(p[:room])
		}
		return len(p), nil
	}
	return c.Builder.Write(p)
}
