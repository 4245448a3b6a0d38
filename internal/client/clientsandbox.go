package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// ClientSandbox is the client's own sandbox a shell step runs in, as the
// client recorded it for the step's turn. The zero value is unknown,
// which is read as a sandbox sayso's wall may not nest in: the decision
// then leans on no more than Landlock (the fail-closed side).
type ClientSandbox string

const (
	// SandboxUnknown: the client did not say, or its record could not be read.
	SandboxUnknown ClientSandbox = ""
	// SandboxNone: the client runs the step as it is (Codex's
	// danger-full-access, --dangerously-bypass-approvals-and-sandbox):
	// the whole wall applies. Also every client that keeps no record of a
	// sandbox of its own around the steps sayso rewrites (Claude Code,
	// Gemini CLI).
	SandboxNone ClientSandbox = "none"
)

// Confines reports whether the step may run in a sandbox of the client's
// where only Landlock of the wall can be applied.
func (c ClientSandbox) Confines() bool { return c != SandboxNone }

// codexSandbox reads Codex's sandbox for the step's turn from the session's
// record at transcript (sessions/…/rollout-…-SESSION.jsonl): the turn's
// turn_context, which Codex writes before any of the turn's tools run, holds
// "sandbox_policy": {"type": "read-only" | "workspace-write" |
// "danger-full-access" | …}. Anything but a record of exactly this session
// and turn is unknown. The record only ever makes the decision stricter: a
// record that says read-only where there is no sandbox has the step asked
// about more and run in the whole wall (the launcher finds it can make its
// namespaces); one that says danger-full-access inside a sandbox has the
// launcher fail the step (status 126), since the line does not let it fall
// back to Landlock alone.
func codexSandbox(transcript, session, turn string) ClientSandbox {
	if transcript == "" || !filepath.IsAbs(transcript) || !codexID(session) || !codexID(turn) ||
		!strings.HasSuffix(filepath.Base(transcript), "-"+session+".jsonl") {
		return SandboxUnknown
	}
	f, err := os.Open(transcript)
	if err != nil {
		return SandboxUnknown
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	got := SandboxUnknown
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(`"turn_context"`)) || !bytes.Contains(line, []byte(turn)) {
			continue
		}
		var rec struct {
			Type    string `json:"type"`
			Payload struct {
				TurnID  string `json:"turn_id"`
				Sandbox struct {
					Type string `json:"type"`
				} `json:"sandbox_policy"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Type != "turn_context" || rec.Payload.TurnID != turn {
			continue
		}
		switch t := rec.Payload.Sandbox.Type; t {
		case "danger-full-access":
			got = SandboxNone
		case "":
			got = SandboxUnknown
		default:
			got = ClientSandbox(t)
		}
	}
	if sc.Err() != nil {
		return SandboxUnknown
	}
	return got
}

// Words say what a partial wall holds in the client's sandbox.
func (c ClientSandbox) Words() string {
	what := "an unknown sandbox of the client's"
	switch c {
	case SandboxUnknown:
	case ClaudeSandbox:
		what = "Claude Code's own sandbox"
	default:
		what = "the client's " + string(c) + " sandbox"
	}
	return "the step runs in " + what + ", where only Landlock of the wall can be added: writes held to the project and the temp folders, but credentials it leaves readable stay readable"
}

// CodexSandboxNote says what sayso's wall holds for Codex as its settings
// configure it (the user's config.toml, its selected profile, then the
// project's .codex/config.toml): "" where Codex runs its steps with no
// sandbox of its own (danger-full-access), and sayso's whole wall holds
// them. doctor and status say it; the card says it of each step the
// partial wall made ask. A flag on Codex's command line (-s,
// --dangerously-bypass-approvals-and-sandbox) is not seen here: the hook
// reads the turn's own record.
func CodexSandboxNote(t Target) string {
	mode := codexWall(t).mode
	if mode == "danger-full-access" {
		return ""
	}
	what := "its " + mode + " sandbox"
	if mode == "" {
		what = "its own sandbox (no sandbox_mode set: read-only for codex exec, workspace-write in a trusted project)"
	}
	return "Codex runs shell steps in " + what + ", where sayso's wall is partly there: Landlock holds the steps' writes to the project and the temp folders, " +
		"but the credentials Codex's sandbox leaves readable stay readable, so auto and autopilot ask about steps that run code sayso does not read (the project's scripts, builds, tests), and Codex cannot ask: they are denied unless you allow their card"
}
