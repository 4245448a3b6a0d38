package place

// ClientCode are the places in the home, relative to it, that the agent
// clients load code or instructions from at their next start or tool
// call: their settings and hooks, Claude Code's dev mods (2.1.287 and
// later: they answer tool calls ahead of every hook), plugins, agents,
// commands and skills, MCP server lists. The engine asks before a step
// writes one (an instruction-patch) and the wall keeps each read-only:
// each lies in one of the clients' folders of Table.
var ClientCode = []string{
	".claude/settings.json",
	".claude/dev-mods",
	".claude/plugins",
	".claude/agents",
	".claude/commands",
	".claude/skills",
	".claude/hooks",
	".claude/CLAUDE.md",
	".claude.json",
	".codex/config.toml",
	".codex/hooks.json",
	".codex/rules",
	".codex/AGENTS.md",
	".gemini/settings.json",
	".gemini/extensions",
	".gemini/policies",
	".gemini/GEMINI.md",
	".agents/skills",
}
