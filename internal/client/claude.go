package client

import (
	"path/filepath"
	"strings"

	"github.com/sayso-dev/sayso/internal/policy"
)

// claude is Claude Code in the registry.
var claude = Client{Agent: "claude", Name: "Claude Code", Package: "@anthropic-ai/claude-code", Command: "claude", Tested: "2.1.337", Decides: "PreToolUse",
	Events: []eventDef{{"PreToolUse", "*", true}, {"PermissionRequest", "*", true}, {"UserPromptSubmit", "", false}, {"SessionStart", "", false}, {"SubagentStart", "", false}, {"SubagentStop", "", false}, {"SessionEnd", "", false}},
	// Its own binary, or node or bun for its script builds.
	Programs:   []string{"claude", "claude.exe", "node", "bun"},
	WaitStatus: true, Adapter: Claude{}, OwnSandbox: true, KeepsFolder: true}

// Claude is the Claude Code adapter.
//
// PreToolUse answers allow, deny or ask with the reason; PermissionRequest
// is denied when sayso denies and otherwise left to the client's own
// dialog, which is the person; UserPromptSubmit, SessionStart,
// SubagentStart, SubagentStop and SessionEnd are recorded.
type Claude struct{}

// sandbox reads the client's own sandbox (sandboxReader).
func (Claude) sandbox(t Target) clientSandbox { return claudeWall(t) }

// settings implements installer.
func (Claude) settings(t Target) (string, error) {
	user := filepath.Join(t.Home, ".claude", "settings.json")
	if d := t.env("CLAUDE_CONFIG_DIR"); d != "" {
		user = filepath.Join(d, "settings.json")
	}
	return scopedSettings(t, user, ".claude", filepath.Join("claude-code", "managed-settings.json")), nil
}

// handler implements installer: onFailure "block" makes a crash, a
// timeout or a dead hook block the step instead of falling through to
// the client's own rules.
func (Claude) handler(command string, timeout int) map[string]any {
	return map[string]any{"type": "command", "command": command, "timeout": timeout, "onFailure": "block"}
}

// Name implements Adapter.
func (Claude) Name() string { return "claude" }

// resumePrompt is what Claude Code sends as the prompt when a session is
// resumed without one. The person did not type it.
const resumePrompt = "Continue from where you left off."

// taskNotification opens the prompt Claude Code sends when a background
// sub-agent finishes: the sub-agent's words, never the person's.
const taskNotification = "<task-notification>"

// Read implements Adapter.
func (Claude) Read(in []byte, env Env) (Input, error) {
	c, q, err := decode(in)
	if err != nil {
		return q, err
	}
	// Codex marks its payloads with turn_id, and its tool events with
	// model; Claude Code's SessionStart names the model too.
	if c.TurnID != nil || c.Model != nil && c.HookEventName != "SessionStart" {
		return q, errorf("a Codex payload reached 'sayso hook claude'")
	}
	switch c.HookEventName {
	case "PreToolUse":
		q.Step, err = c.step("claude", env)
		if err == nil {
			q.Step.Dialog = claudeDialog(&c, env)
			q.Step.Sandbox = claudeSandbox(q.Step, env)
			q.Rule = claudeRuleFor(q.Step, env)
		}
	case "PermissionRequest":
		q.Step, err = c.step("claude", env)
		if err == nil {
			q.Step.Sandbox = claudeSandbox(q.Step, env)
			e := c.event("claude", EventPermission)
			e.Text = c.ToolName
			q.Events = append(q.Events, e)
		}
	case "UserPromptSubmit":
		e, err := c.prompt("claude")
		if err != nil {
			return q, err
		}
		e.Source, e.Why = claudeSource(&c, env)
		q.Events = append(q.Events, e)
	default:
		e, err := c.lifecycle("claude", "Claude Code", true)
		if err != nil {
			return q, err
		}
		q.Events = append(q.Events, e)
	}
	return q, err
}

// claudeDialog says whether Claude Code answers an ask with its dialog in
// the person's terminal, firing PermissionRequest while it shows it: in
// its attended terminal, in the permission modes that ask. The variables
// are the client's own; one set by hand only moves the card from one
// hook to the next: the step still asks.
func claudeDialog(c *common, env Env) bool {
	switch c.PermissionMode {
	case "default", "acceptEdits", "plan":
	default:
		return false
	}
	return env.get("CLAUDE_CODE_SESSION_ATTENDED") == "1" && !strings.HasPrefix(env.get("CLAUDE_CODE_ENTRYPOINT"), "sdk")
}

// ClaudeSandbox is Claude Code's own sandbox (bubblewrap on Linux, with
// a seccomp filter that refuses unix sockets): sayso's namespaces cannot
// nest in it.
const ClaudeSandbox ClientSandbox = "claude-code"

// claudeSandbox says whether Claude Code runs the shell step s in its
// own sandbox: whenever a settings file the client reads turns it on
// (user, project, local, managed; later files win). A step the client
// then runs outside it (dangerouslyDisableSandbox, excludedCommands) is
// still read as inside: the decision is stricter than it need be, and
// the launcher, finding it can make its namespaces, sets up the whole
// wall. The other way round would fail every step (status 126).
func claudeSandbox(s *Step, env Env) ClientSandbox {
	if s == nil || s.Kind != KindShell {
		return SandboxUnknown // only a shell step runs in it
	}
	if claudeWall(Target{Home: env.Home, Project: claudeProject(s, env), Getenv: env.Getenv}).on {
		return ClaudeSandbox
	}
	return SandboxNone
}

// ClaudeSandboxNote says what sayso's wall holds where Claude Code runs
// shell steps in its own sandbox: doctor and status say it; the card says
// it of each step the partial wall made ask.
func ClaudeSandboxNote() string {
	return "Claude Code runs shell steps in its own sandbox, where sayso's wall is partly there: Landlock holds the steps' writes to the project and the temp folders, " +
		"but what Claude Code's sandbox leaves readable (credentials included) stays readable, so auto and autopilot ask about steps that run code sayso does not read (the project's scripts, builds, tests)"
}

// ClaudeSandboxOn reports whether Claude Code's settings, as the client
// reads them for project, turn its sandbox on.
func ClaudeSandboxOn(t Target) bool { return claudeWall(t).on }

// claudeProject is the project Claude Code reads its project settings
// from: $CLAUDE_PROJECT_DIR, which it gives its hooks, else the step's
// session folder.
func claudeProject(s *Step, env Env) string {
	if p := env.get("CLAUDE_PROJECT_DIR"); p != "" && filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return s.Project()
}

// claudeNoDialog says why Claude Code shows the person no dialog for
// the step: the permission mode answers for them, or nobody attends.
func claudeNoDialog(s *Step) string {
	if s == nil {
		return "no step"
	}
	switch s.Mode {
	case "default", "acceptEdits", "plan":
		return "nobody attends this run: -p or an SDK host"
	case "":
		return "the client names no permission mode"
	}
	return "permission mode " + s.Mode + " answers without the person"
}

// claudeSource says whether a prompt is the person's: only on positive
// evidence, an attended session and a prompt the client did not make up.
func claudeSource(c *common, env Env) (Source, string) {
	switch {
	case c.Source != "" && c.Source != "user":
		return SourceSystem, "the client marks the prompt " + c.Source
	case *c.Prompt == resumePrompt:
		return SourceSystem, "a resume without a prompt"
	case strings.HasPrefix(strings.TrimSpace(*c.Prompt), taskNotification):
		return SourceSystem, "a background sub-agent's result, handed back by the client"
	case c.AgentID != "":
		return SourceDelegated, "a sub-agent's prompt"
	case env.get("CLAUDE_CODE_SESSION_ATTENDED") != "1":
		return SourceSystem, "the session is not attended (CLAUDE_CODE_SESSION_ATTENDED is not 1)"
	case strings.HasPrefix(env.get("CLAUDE_CODE_ENTRYPOINT"), "sdk"):
		return SourceSystem, "an SDK host, not the terminal"
	}
	return SourcePerson, "typed in an attended session"
}

// Answer implements Adapter.
func (Claude) Answer(in Input, d policy.Decision, reason string) Result {
	r := Result{Input: in, Decision: d, Reason: reason}
	switch in.Event {
	case "PreToolUse":
		if d == policy.Ask && (in.Step == nil || !in.Step.Dialog) {
			// Nobody can be asked here: the client turns an ask into a yes
			// (bypassPermissions, its classifier) or into its own words of
			// refusal. sayso says no in the client's own words.
			d = policy.Deny
			reason = "Claude Code cannot ask here (" + claudeNoDialog(in.Step) + "); " + reason
			r.Decision, r.Reason = d, reason
		}
		out := map[string]any{
			"hookEventName":            "PreToolUse",
			"permissionDecision":       d.String(),
			"permissionDecisionReason": reason,
		}
		if walled := walledInput(in.Step); walled != nil && d != policy.Deny {
			// The step runs inside sayso's wall, whoever lets it through.
			out["updatedInput"] = walled
		}
		r.Stdout = jsonLine(map[string]any{"hookSpecificOutput": out})
	case "PermissionRequest":
		if d == policy.Allow && in.Step != nil && in.Step.Answered {
			// The person answered the step's card: the dialog they would
			// answer the same in closes.
			dec := map[string]any{"behavior": "allow"}
			if walled := walledInput(in.Step); walled != nil {
				dec["updatedInput"] = walled
			}
			r.Stdout = jsonLine(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "PermissionRequest",
				"decision":      dec,
			}})
			return r
		}
		if d != policy.Deny {
			// The client asks the person in its own dialog: that is the
			// person's answer path. sayso lifts nothing here.
			r.Stdout = []byte("{}\n")
			return r
		}
		r.Stdout = jsonLine(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PermissionRequest",
			"decision":      map[string]any{"behavior": "deny", "message": reason},
		}})
	default:
		return Claude{}.Fail(in.Event, reason)
	}
	return r
}

// Ack implements Adapter.
func (Claude) Ack(in Input) Result {
	return Result{Stdout: []byte("{}\n"), Input: in, Decision: policy.Allow}
}

// Fail implements Adapter.
func (c Claude) Fail(event, reason string) Result {
	if event == "PreToolUse" || event == "PermissionRequest" {
		r := c.Answer(Input{Event: event}, policy.Deny, reason)
		return r
	}
	return universalDeny(event, reason)
}
