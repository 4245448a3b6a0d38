package client

import "strings"

// PartialWalls says what sayso's wall holds in each installed client's
// own sandbox, where that sandbox makes it partial; "" for a client that
// is not installed or runs with no sandbox of its own. sayso status
// reports them.
type PartialWalls struct {
	// Codex says what the wall holds in Codex's own sandbox, as its
	// settings configure it.
	Codex string `json:"wall_in_codex,omitempty"`
	// Claude says the same of Claude Code's own sandbox.
	Claude string `json:"wall_in_claude,omitempty"`
}

// PartialWallsFor reads the sandboxes of the installed agents for the
// project of t.
func PartialWallsFor(agents []string, t Target) PartialWalls {
	var p PartialWalls
	for _, a := range agents {
		t.Agent = a
		switch a {
		case codex.Agent:
			p.Codex = CodexSandboxNote(t)
		case claude.Agent:
			if ClaudeSandboxOn(t) {
				p.Claude = ClaudeSandboxNote()
			}
		}
	}
	return p
}

// Lines are the lines sayso status prints of p.
func (p PartialWalls) Lines() []string {
	var out []string
	if p.Codex != "" {
		out = append(out, "wall in Codex: partly: "+p.Codex)
	}
	if p.Claude != "" {
		out = append(out, "wall in Claude Code: partly: "+p.Claude)
	}
	return out
}

// AgentList names the agents as a sentence does: "a, b or c".
func AgentList() string {
	as := Agents()
	if len(as) < 2 {
		return strings.Join(as, "")
	}
	return strings.Join(as[:len(as)-1], ", ") + " or " + as[len(as)-1]
}
