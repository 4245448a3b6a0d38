package client

// The help of the commands that act on the clients: it names each
// client and its settings.

import "strings"

// agentChoice is the agents as a usage line offers them: "a|b|c".
var agentChoice = strings.Join(Agents(), "|")

// HookUsage is the help of sayso hook.
var HookUsage = `usage: sayso --state-dir DIR --config-dir DIR hook ` + agentChoice + `

Run by the agent's client, not by the person: reads one hook JSON on
stdin and prints the decision in that client's own format. Every failure
is the client's deny with a short reason: exit status 0 with the deny on
stdout, or 2 with the reason on stderr when the input cannot be read.
'sayso install AGENT' writes the hook definitions that run it, naming
sayso's folders: the hook never finds them through its environment
(SAYSO_*, XDG_*, HOME), which a client's settings can set. Without the
folders every step asks and no prompt is the person's.
`

// InstallUsage is the help of sayso install.
var InstallUsage = `usage: sayso install ` + agentChoice + ` [--scope user|project|managed] [--fast|--one-binary]

Writes sayso's hook definitions into the agent's settings with an
absolute binary path, an explicit timeout and every fail-closed option
the client has, keeping the rest of the file (the old file is kept beside
it as FILE.sayso-backup). Records SHA-256 pins of the binaries and of
each definition; 'sayso doctor' checks them. Installing again re-pins.
Codex: --scope user only; install also writes Codex's trust hashes.

When sayso-hook sits beside this binary (go install ./cmd/sayso
./cmd/sayso-hook puts it there) the hooks run it: it hands each step to
sayso serve without loading the database driver, and runs this binary's
'sayso hook' when no gateway answers. Both binaries are pinned. Otherwise
the hooks run this binary. --fast insists on sayso-hook; --one-binary
makes the hooks run this binary even when sayso-hook is there.
`

// UninstallUsage is the help of sayso uninstall.
var UninstallUsage = `usage: sayso uninstall [` + agentChoice + `]

Removes exactly what 'sayso install' added, for one agent or all.
`

// DoctorUsage is the help of sayso doctor.
const DoctorUsage = `usage: sayso doctor [--json]

Checks the pins of what 'sayso install' wrote and the client settings
that switch hooks off, and prints each problem with the command that fixes
it. Exit status 1 when there is a problem. Problems too: an "env" entry in
any client settings file that sets SAYSO_*, XDG_* or HOME; Claude Code's
sandbox.allowUnsandboxedCommands; a sayso hook that no pin holds; a file
of the same name as an installed sayso binary earlier on PATH.

It also reads each installed client's own sandbox (Claude Code's
"sandbox" settings, Codex's sandbox_mode and writable roots, Gemini CLI's
GEMINI_SANDBOX or tools.sandbox) and warns when it is off or when sayso's
state or configuration folder is inside what it lets the agent write.
Warnings do not change the exit status: sayso still gates every step, but
a program it lets run could rewrite its store.
`
