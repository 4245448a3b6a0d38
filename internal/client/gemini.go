package client

import (
	"path/filepath"

	"encoding/json"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// gemini is Gemini CLI in the registry.
var gemini = Client{Agent: "gemini", Name: "Gemini CLI", Package: "@google/gemini-cli", Command: "gemini", Tested: "0.61.0", Decides: "BeforeTool",
	// Its AfterTool of its sub-agent tool is the sub-agent's end.
	Events:       []eventDef{{"BeforeTool", "*", true}, {"AfterTool", "invoke_agent|delegate_to_agent", false}, {"BeforeAgent", "", false}, {"SessionStart", "", false}},
	Programs:     []string{"node", "gemini"},
	Milliseconds: true, Comments: true, Adapter: Gemini{}}

// Gemini is the Gemini CLI adapter.
//
// BeforeTool answers {"decision":"allow"} or {"decision":"deny","reason"}.
// Gemini's ask hangs a headless run in yolo mode and cannot be told apart
// from an attended one, so ask is answered as a deny with the reason.
// BeforeAgent (a prompt) and SessionStart are recorded. Gemini reports no
// sub-agent's start or end: the AfterTool of its sub-agent tool
// (invoke_agent), which comes when the sub-agent has answered, is that
// sub-agent's end.
type Gemini struct{}

// sandbox reads the client's own sandbox (sandboxReader).
func (Gemini) sandbox(t Target) clientSandbox { return geminiWall(t) }

// settings implements installer.
func (Gemini) settings(t Target) (string, error) {
	user := filepath.Join(GeminiHome(t.Home, t.Getenv), ".gemini", "settings.json")
	return scopedSettings(t, user, ".gemini", filepath.Join("gemini-cli", "settings.json")), nil
}

// handler implements installer: Gemini counts its timeout in
// milliseconds.
func (Gemini) handler(command string, timeout int) map[string]any {
	return map[string]any{"type": "command", "name": "sayso", "command": command, "timeout": timeout * 1000}
}

// Name implements Adapter.
func (Gemini) Name() string { return "gemini" }

// Read implements Adapter.
func (Gemini) Read(in []byte, env Env) (Input, error) {
	c, q, err := decode(in)
	if err != nil {
		return q, err
	}
	switch c.HookEventName {
	case "BeforeTool":
		home := env.get("GEMINI_CLI_HOME")
		if home == "" {
			home = env.Home
		}
		q.Step, err = c.step("gemini", Env{Getenv: env.Getenv, Home: home})
		if err == nil {
			q.Rule = geminiRuleFor(q.Step, home)
		}
	case "BeforeAgent":
		e, err := c.prompt("gemini")
		if err != nil {
			return q, err
		}
		e.Why = "Gemini CLI does not say whether a person typed it"
		q.Events = append(q.Events, e)
	case "AfterTool":
		if c.SessionID == "" || c.ToolName == "" {
			return q, errorf("AfterTool without session_id or tool_name")
		}
		if risk.KindOfTool(c.ToolName) != risk.ToolAgent {
			return q, nil // only a sub-agent's end is kept
		}
		e := c.event("gemini", EventSpawnEnd)
		var in struct {
			Agent string `json:"agent_name"`
		}
		_ = json.Unmarshal(c.ToolInput, &in) // the name is for the ledger only
		e.Text = in.Agent
		e.Why = c.ToolName + " ended"
		q.Events = append(q.Events, e)
	default:
		e, err := c.lifecycle("gemini", "Gemini CLI", false)
		if err != nil {
			return q, err
		}
		q.Events = append(q.Events, e)
	}
	return q, err
}

// Answer implements Adapter.
func (Gemini) Answer(in Input, d policy.Decision, reason string) Result {
	r := Result{Input: in, Decision: d, Reason: reason}
	if in.Event != "BeforeTool" {
		return Gemini{}.Fail(in.Event, reason)
	}
	if d == policy.Allow {
		if walled := walledInput(in.Step); walled != nil {
			// Gemini merges tool_input into the call's arguments: the
			// step runs inside sayso's wall.
			r.Stdout = jsonLine(map[string]any{"decision": "allow", "hookSpecificOutput": map[string]any{
				"hookEventName": "BeforeTool",
				"tool_input":    map[string]any{commandField(walled): walled[commandField(walled)]},
			}})
			return r
		}
		r.Stdout = []byte(`{"decision":"allow"}` + "\n")
		return r
	}
	if d == policy.Ask {
		reason = "Gemini CLI cannot ask here; " + reason
		r.Reason = reason
	}
	r.Decision = policy.Deny
	r.Stdout = jsonLine(map[string]any{"decision": "deny", "reason": reason})
	return r
}

// Ack implements Adapter.
func (Gemini) Ack(in Input) Result {
	return Result{Stdout: []byte("{}\n"), Input: in, Decision: policy.Allow}
}

// Fail implements Adapter.
func (g Gemini) Fail(event, reason string) Result {
	if event == "BeforeTool" {
		return g.Answer(Input{Event: event}, policy.Deny, reason)
	}
	r := universalDeny(event, reason)
	r.Stdout = jsonLine(map[string]any{"decision": "deny", "reason": reason})
	return r
}
