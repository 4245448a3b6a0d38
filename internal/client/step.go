package client

import (
	"context"
	"encoding/json"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// Kind is what a step does, as far as the adapter can tell from the tool
// name. The zero value is KindTool: an unknown tool, judged as risky.
type Kind uint8

const (
	KindTool  Kind = iota // a tool sayso does not know (MCP and the rest)
	KindShell             // a shell command line
	KindRead              // reads files or folders
	KindWrite             // writes, edits or deletes files
	KindFetch             // fetches a URL
	KindQuiet             // the client's own bookkeeping: plans, todos, questions
	KindAgent             // spawns a sub-agent
)

var kindNames = [...]string{"tool", "shell", "read", "write", "fetch", "quiet", "agent"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "tool"
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// FileUse is one path a file tool reads, writes or deletes.
type FileUse struct {
	Op   risk.Op `json:"-"`
	Path string  `json:"path"`
}

// MarshalJSON shows the operation by name.
func (f FileUse) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Op   string `json:"op"`
		Path string `json:"path"`
	}{f.Op.String(), f.Path})
}

// Step is one tool call an agent wants to make, read from its hook JSON.
type Step struct {
	Agent   string    `json:"agent"`
	Event   string    `json:"event"`
	Session string    `json:"session"`
	Turn    string    `json:"turn,omitempty"` // Claude Code prompt_id, Codex turn_id
	Task    string    `json:"task,omitempty"` // Claude Code agent_id: the step runs in a sub-agent
	Tool    string    `json:"tool"`
	Kind    Kind      `json:"kind"`
	Command string    `json:"command,omitempty"` // KindShell
	Files   []FileUse `json:"files,omitempty"`   // KindRead, KindWrite
	URL     string    `json:"url,omitempty"`     // KindFetch
	Cwd     string    `json:"cwd"`
	Mode    string    `json:"client_mode,omitempty"` // the client's own permission mode
	// TempDir is $TMPDIR in the client's environment, which its shell
	// steps inherit; "" when unset.
	TempDir string          `json:"tmpdir,omitempty"`
	Input   json.RawMessage `json:"-"`
	// Use is Input as risk.ReadUse read it, once: the decision
	// classifies it and reads no tool input again.
	Use risk.Use `json:"-"`
	// Walled is the command line that runs the step inside sayso's wall,
	// set once the step is let through; the adapter hands it to the
	// client as the rewritten tool input.
	Walled string `json:"walled,omitempty"`
	// Dialog reports that the client answers an ask with its own dialog in
	// the person's terminal and fires PermissionRequest while it shows
	// it: Claude Code's attended terminal. A card about the step is then
	// handed on to that PermissionRequest, and both answer it.
	Dialog bool `json:"-"`
	// Answered reports that the person answered the step's card: a
	// client's own dialog need not ask again.
	Answered bool `json:"-"`
	// Sandbox is the client's own sandbox the step runs in, as the
	// client's record of the turn says (Codex's sandbox_policy).
	Sandbox ClientSandbox `json:"client_sandbox,omitempty"`

	project string // the client's cwd, when a shell tool moved Cwd
}

// Decider decides a step. The in-process decider, the store and the
// gateway each provide one; the adapters never know which.
type Decider func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error)

// Source is who a message came from (DESIGN §2). The zero value is
// SourceSystem: a message is the person's only on positive evidence.
type Source uint8

const (
	SourceSystem Source = iota
	SourcePerson
	SourceDelegated
)

var sourceNames = [...]string{"system", "person", "delegated"}

func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "system"
}

// MarshalText implements encoding.TextMarshaler.
func (s Source) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// EventKind is what an event records.
type EventKind string

const (
	EventSession    EventKind = "session"            // a session started or resumed
	EventMessage    EventKind = "message"            // a prompt reached the model
	EventTask       EventKind = "task"               // a sub-agent started
	EventTaskEnd    EventKind = "task-end"           // a sub-agent stopped
	EventSessionEnd EventKind = "session-end"        // the conversation ended: its sub-agents with it
	EventSpawnEnd   EventKind = "spawn-end"          // a sub-agent the session spawned ended; the client names no task
	EventPermission EventKind = "permission-request" // the client is about to ask the person
)

// Event is something the store keeps that is not a step: a session, a
// message with its source, a task, a permission request.
type Event struct {
	Kind    EventKind `json:"kind"`
	Agent   string    `json:"agent"`
	Session string    `json:"session"`
	Turn    string    `json:"turn,omitempty"`
	Task    string    `json:"task,omitempty"`
	Source  Source    `json:"source"`
	Text    string    `json:"text,omitempty"`
	Why     string    `json:"why,omitempty"` // the evidence for Source, or what started the session
	Cwd     string    `json:"cwd,omitempty"`
}

// Project is the session's folder: the client's cwd, before a shell tool's
// own working folder moves the step.
func (s Step) Project() string {
	if s.project != "" {
		return s.project
	}
	return s.Cwd
}

// walledInput is the tool input with its command replaced by the walled
// one, every other field kept; nil when the step is not walled.
func walledInput(s *Step) map[string]any {
	if s == nil || s.Walled == "" {
		return nil
	}
	in := map[string]any{}
	if len(s.Input) > 0 {
		if err := json.Unmarshal(s.Input, &in); err != nil {
			in = map[string]any{}
		}
	}
	in[commandField(in)] = s.Walled
	return in
}

// commandField is the field of a shell tool's input that holds the line
// risk reads (risk.ToolCommand): Codex's exec_command cmd when it is set,
// else command. The walled line replaces that one, so the client runs
// inside the wall what was decided.
func commandField(in map[string]any) string {
	if c, ok := in["cmd"].(string); ok && c != "" {
		return "cmd"
	}
	return "command"
}
