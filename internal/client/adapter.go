package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/sayso-dev/sayso/internal/policy"
)

// Env is what an adapter may read besides stdin: the hook's environment
// and the user's home folder.
type Env struct {
	Getenv func(string) string
	Home   string
	// Witness holds what an event claims about the person against the
	// process that ran the hook; nil witnesses nothing.
	Witness Witness
}

func (e Env) get(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Input is what an adapter read: the event's name, and a step to decide,
// events to record, or both.
type Input struct {
	Event  string
	Step   *Step
	Events []Event
	// Rule is the person's own rule in the client's settings that
	// matches the step, which sayso applies before it decides; nil when
	// none does.
	Rule *ClientRule
}

// Result is the hook's answer: what to print, the exit status, and what
// was read and decided, for the ledger.
type Result struct {
	Stdout   []byte
	Stderr   string // a reason for the client when Exit is 2
	Exit     int
	Input    Input
	Decision policy.Decision
	Reason   string
	Err      error // the real error behind a fail-closed answer
}

// Adapter reads one client's hook JSON and answers in its format.
type Adapter interface {
	// Name is the agent's name on the command line: claude, codex, gemini.
	Name() string
	// Read parses the client's JSON. On error, Input.Event holds the
	// event's name when it could be read.
	Read(in []byte, env Env) (Input, error)
	// Answer renders a decision about the step in Input. It maps what the
	// client cannot express to deny.
	Answer(in Input, d policy.Decision, reason string) Result
	// Ack answers an event that holds no step.
	Ack(in Input) Result
	// Fail denies in the client's format when nothing could be decided:
	// the native deny for a step event, else a deny that every client
	// reads as one (a block, exit 2, the reason on stderr).
	Fail(event, reason string) Result
}

// Fallback answers for an agent sayso does not know: its Fail denies in
// a form every client reads.
var Fallback Adapter = Claude{}

// ForAgent returns the adapter for an agent's name.
func ForAgent(name string) (Adapter, error) {
	if c, ok := Of(name); ok {
		return c.Adapter, nil
	}
	return nil, fmt.Errorf("unknown agent %q (want %s)", name, AgentList())
}

// common holds the fields the clients share, by their JSON names.
type common struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PromptID       string          `json:"prompt_id"`
	TurnID         *string         `json:"turn_id"`
	PermissionMode string          `json:"permission_mode"`
	AgentID        string          `json:"agent_id"`
	AgentType      string          `json:"agent_type"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	Prompt         *string         `json:"prompt"`
	Source         string          `json:"source"`
	Model          *string         `json:"model"`
	Timestamp      *string         `json:"timestamp"`
}

// ErrInput marks errors in what the client sent.
var ErrInput = errors.New("bad hook input")

func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInput, fmt.Sprintf(format, args...))
}

// decode reads exactly one JSON object, and the input of its event:
// its name, when it could be read.
func decode(in []byte) (common, Input, error) {
	var c common
	dec := json.NewDecoder(bytes.NewReader(in))
	err := dec.Decode(&c)
	q := Input{Event: c.HookEventName}
	switch {
	case err != nil:
		return c, q, errorf("hook JSON: %v", err)
	case dec.More():
		return c, q, errorf("hook JSON: more than one value")
	case c.HookEventName == "":
		return c, q, errorf("hook JSON without hook_event_name")
	}
	return c, q, nil
}

// step builds the step of a tool event, with its tool read.
func (c *common) step(agent string, env Env) (*Step, error) {
	if c.SessionID == "" {
		return nil, errorf("%s without session_id", c.HookEventName)
	}
	if c.ToolName == "" {
		return nil, errorf("%s without tool_name", c.HookEventName)
	}
	if c.Cwd == "" || !filepath.IsAbs(c.Cwd) {
		return nil, errorf("%s without an absolute cwd", c.HookEventName)
	}
	s := &Step{
		Agent: agent, Event: c.HookEventName, Session: c.SessionID, Turn: c.PromptID,
		Task: c.AgentID, Tool: c.ToolName, Cwd: filepath.Clean(c.Cwd), Mode: c.PermissionMode,
		Input: c.ToolInput, TempDir: env.get("TMPDIR"),
	}
	if c.TurnID != nil {
		s.Turn = *c.TurnID
	}
	if err := readTool(s, env.Home); err != nil {
		return nil, err
	}
	return s, nil
}

func (c *common) event(agent string, k EventKind) Event {
	e := Event{Kind: k, Agent: agent, Session: c.SessionID, Turn: c.PromptID, Task: c.AgentID, Cwd: c.Cwd}
	if c.TurnID != nil {
		e.Turn = *c.TurnID
	}
	return e
}

// lifecycle is the event of a session's start, and where the client
// reports them (tasks), of a sub-agent's start and end and the session's
// end; any other event is unknown to the client, called name.
func (c *common) lifecycle(agent, name string, tasks bool) (Event, error) {
	switch {
	case c.HookEventName == "SessionStart":
		if c.SessionID == "" {
			return Event{}, errorf("SessionStart without session_id")
		}
		e := c.event(agent, EventSession)
		e.Why = c.Source
		return e, nil
	case c.HookEventName == "SubagentStart" && tasks:
		if c.SessionID == "" || c.AgentID == "" {
			return Event{}, errorf("SubagentStart without session_id or agent_id")
		}
		e := c.event(agent, EventTask)
		e.Source, e.Text = SourceDelegated, c.AgentType
		return e, nil
	case (c.HookEventName == "SubagentStop" || c.HookEventName == "SessionEnd") && tasks:
		return c.ended(agent)
	}
	return Event{}, errorf("unknown %s event %q", name, c.HookEventName)
}

// prompt is the message of a prompt event, its source still to be told.
func (c *common) prompt(agent string) (Event, error) {
	if c.Prompt == nil || c.SessionID == "" {
		return Event{}, errorf("%s without session_id or prompt", c.HookEventName)
	}
	e := c.event(agent, EventMessage)
	e.Text = *c.Prompt
	return e, nil
}

// ended is the event of a SubagentStop (a task ended) or a SessionEnd (the
// conversation and its tasks ended), as Claude Code and Codex send them.
func (c *common) ended(agent string) (Event, error) {
	if c.SessionID == "" {
		return Event{}, errorf("%s without session_id", c.HookEventName)
	}
	if c.HookEventName == "SessionEnd" {
		e := c.event(agent, EventSessionEnd)
		e.Task = "" // the whole conversation ends
		return e, nil
	}
	if c.AgentID == "" {
		return Event{}, errorf("SubagentStop without agent_id")
	}
	e := c.event(agent, EventTaskEnd)
	e.Text = c.AgentType
	return e, nil
}

// jsonLine renders v as one line of JSON with a newline.
func jsonLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Only maps and strings are rendered here; this cannot happen.
		return []byte(`{"decision":"block","reason":"sayso: internal error"}` + "\n")
	}
	return append(b, '\n')
}

// blockLine is a deny both Claude Code and Codex read: the
// hookSpecificOutput, and the legacy block.
func blockLine(reason string) []byte {
	return jsonLine(map[string]any{
		"decision": "block",
		"reason":   reason,
		"hookSpecificOutput": map[string]any{
			"hookEventName":            "PreToolUse",
			"permissionDecision":       "deny",
			"permissionDecisionReason": reason,
		},
	})
}

// universalDeny is read as a deny by every client: Claude Code and Codex
// take the hookSpecificOutput or the legacy block, Gemini CLI the block.
// With exit status 2 and the reason on stderr, each client blocks whatever
// event it was.
func universalDeny(event, reason string) Result {
	return Result{Stdout: blockLine(reason), Stderr: reason, Exit: 2, Decision: policy.Deny, Reason: reason, Input: Input{Event: event}}
}

// Short clips s to n bytes, ending in "..." when cut.
func Short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "..."
}
