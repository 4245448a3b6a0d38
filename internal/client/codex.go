package client

import (
	"fmt"
	"path/filepath"

	"github.com/sayso-dev/sayso/internal/policy"
)

// codex is Codex CLI in the registry.
var codex = Client{Agent: "codex", Name: "Codex CLI", Package: "@openai/codex", Command: "codex", Tested: "0.171.0", Decides: "PreToolUse",
	// Codex shows its own approval prompt only once its PermissionRequest
	// hook has answered (observed with codex 0.169's terminal: "Running
	// hook" until then): a card there would hold the prompt back, so it
	// waits no longer than the others.
	Events: []eventDef{{"PreToolUse", "*", true}, {"PermissionRequest", "*", false}, {"UserPromptSubmit", "", false}, {"SessionStart", "", false}, {"SubagentStart", "", false}, {"SubagentStop", "", false}, {"SessionEnd", "", false}},
	// Codex 0.169 clamps a SessionEnd hook's timeout to 3 seconds and
	// trusts the hook by the clamped definition: written longer, its
	// terminal UI stops at start for a review of a "changed" hook.
	SessionEndMax: 3,
	Programs:      []string{"codex"},
	WaitStatus:    true, Adapter: Codex{}, OwnSandbox: true}

// Codex is the Codex CLI adapter.
//
// Codex's PreToolUse can only deny: its ask and a bare allow are rejected
// as unsupported and the command runs. So ask is answered as a deny with
// the reason, and allow as no output. PermissionRequest (interactive
// approvals) is denied when sayso denies and otherwise left to Codex's own
// prompt. apply_patch is read as file writes.
type Codex struct{}

// sandbox reads the client's own sandbox (sandboxReader).
func (Codex) sandbox(t Target) clientSandbox { return codexWall(t) }

// settings implements installer: Codex trusts a hook only through the
// user's config.toml.
func (Codex) settings(t Target) (string, error) {
	switch t.Scope {
	case "user":
		return filepath.Join(CodexHome(t.Home, t.Getenv), "hooks.json"), nil
	case "project", "managed":
		return "", fmt.Errorf("codex: --scope %s is not supported: Codex trusts a hook only through the user's config.toml (use --scope user)", t.Scope)
	}
	return "", nil
}

// handler implements installer.
func (Codex) handler(command string, timeout int) map[string]any {
	return map[string]any{"type": "command", "command": command, "timeout": timeout}
}

// Name implements Adapter.
func (Codex) Name() string { return "codex" }

// Read implements Adapter.
func (Codex) Read(in []byte, env Env) (Input, error) {
	c, q, err := decode(in)
	if err != nil {
		return q, err
	}
	switch c.HookEventName {
	case "PreToolUse", "PermissionRequest":
		if c.TurnID == nil {
			return q, errorf("a %s without turn_id is not from Codex", c.HookEventName)
		}
		q.Step, err = c.step("codex", env)
		if err == nil && q.Step.Kind == KindShell {
			q.Step.Sandbox = codexSandbox(c.TranscriptPath, c.SessionID, q.Step.Turn)
			q.Rule = codexRuleFor(q.Step, env)
		}
		if err == nil && c.HookEventName == "PermissionRequest" {
			e := c.event("codex", EventPermission)
			e.Text = c.ToolName
			q.Events = append(q.Events, e)
		}
	case "UserPromptSubmit":
		e, err := c.prompt("codex")
		if err != nil {
			return q, err
		}
		// Codex's input says nothing of who typed the prompt: it is the
		// person's only when the witness finds Codex's terminal UI behind
		// the hook and Codex's own record of the turn says it was typed.
		e.Source, e.Why = SourcePerson, "typed in Codex's terminal UI"
		switch {
		case c.AgentID != "":
			// A sub-agent's prompt comes with its parent's session.
			e.Source, e.Why = SourceDelegated, "a sub-agent's prompt"
		case c.TurnID == nil || *c.TurnID == "":
			e.Source, e.Why = SourceSystem, "a prompt without its turn"
		}
		q.Events = append(q.Events, e)
	default:
		e, err := c.lifecycle("codex", "Codex", true)
		if err != nil {
			return q, err
		}
		q.Events = append(q.Events, e)
	}
	return q, err
}

// Answer implements Adapter.
func (Codex) Answer(in Input, d policy.Decision, reason string) Result {
	r := Result{Input: in, Decision: d, Reason: reason}
	switch in.Event {
	case "PreToolUse":
		if d == policy.Allow {
			walled := walledInput(in.Step)
			if walled == nil {
				return r // no output: Codex runs the step
			}
			// Codex runs an allow only with a rewritten input: the step
			// runs inside sayso's wall.
			r.Stdout = jsonLine(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName":      "PreToolUse",
				"permissionDecision": "allow",
				"updatedInput":       walled,
			}})
			return r
		}
		r.Decision = policy.Deny
		if d == policy.Ask {
			reason = "Codex cannot ask here; " + reason
			r.Reason = reason
		}
		r.Stdout = blockLine(reason)
	case "PermissionRequest":
		if d == policy.Allow && in.Step != nil && in.Step.Answered {
			// The person allowed the step on its card: Codex's own
			// prompt need not ask again.
			r.Stdout = jsonLine(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "PermissionRequest",
				"decision":      map[string]any{"behavior": "allow"},
			}})
			return r
		}
		if d != policy.Deny {
			return r // Codex asks the person in its own prompt
		}
		r.Stdout = jsonLine(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PermissionRequest",
			"decision":      map[string]any{"behavior": "deny", "message": reason},
		}})
	default:
		return Codex{}.Fail(in.Event, reason)
	}
	return r
}

// Ack implements Adapter.
func (Codex) Ack(in Input) Result { return Result{Input: in, Decision: policy.Allow} }

// Fail implements Adapter.
func (c Codex) Fail(event, reason string) Result {
	if event == "PreToolUse" || event == "PermissionRequest" {
		return c.Answer(Input{Event: event}, policy.Deny, reason)
	}
	return universalDeny(event, reason)
}
