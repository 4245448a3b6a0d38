// Package hookenv names the variables of a client's hook process that
// the clients' adapters read. It imports nothing, so the forwarder
// (sayso-hook), which hands them to the gateway, stays small.
package hookenv

// Names are the variables the adapters read, a line per client.
var Names = []string{
	"CLAUDE_CODE_SESSION_ATTENDED", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR", // Claude Code
	"GEMINI_CLI_HOME", // Gemini CLI
}
