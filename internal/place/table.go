package place

import "slices"

// The engine's words for what a place holds.
const (
	agentInstructions = "an agent's instructions"
	agentSettings     = "an agent's settings"
	agentCredentials  = "an agent's credentials"
	gitHooks          = "git hooks"
	gitConfig         = "git configuration that can run programs"
	shellStartUp      = "shell start-up files"
	jobs              = "scheduled or start-up jobs"
	editorTasks       = "editor tasks that run on open"
	toolSettings      = "a package tool's settings, which can run programs in every later build or install"
	sshStartUp        = "what ssh runs or lets in at the next login"
	keys              = "a folder of keys"
	storedPasswords   = "stored passwords"
	cloud             = "cloud credentials"
	registry          = "registry tokens"
	keyring           = "a keyring"
	toolToken         = "a tool's stored token"
	browser           = "a browser profile"
	credential        = "a credential"
)

// Table is every place sayso knows by its name: the home's, the
// project's (a tree's) and the machine's, each with its kind. The engine
// (risk) reads it to say what a step's write changes or what its read
// reads; the wall reads it to keep, hide, make and let write. A new
// place is one line here.
var Table = slices.Concat(
	// The agents' instructions and settings in a project, and the
	// clients' own folders there (made when missing).
	group(Tree, Instruction, agentInstructions, "CLAUDE.md", "CLAUDE.local.md", "AGENTS.md",
		"AGENTS.override.md", "GEMINI.md", ".cursorrules", ".windsurfrules", ".github/copilot-instructions.md",
		"copilot-instructions.md"),
	made(group(Tree, Settings, agentSettings, ".claude", ".codex", ".gemini", ".agents")),
	group(Tree, Settings, agentSettings, ".cursor", ".mcp.json"),
	token(group(Tree, Settings, agentSettings, ".claude.json"), agentCredentials),
	// The project's sayso policy folder: only the person edits it (the
	// policy calls a step that touches it protected).
	made(group(Tree, Own, "", ".sayso")),
	// What git runs, or is told to run, at the person's next command
	// (the repository's own hooks and configuration are read from the
	// repository: wall.gitPaths, risk's git rules).
	group(Tree, StartUp, gitHooks, ".pre-commit-config.yaml", "lefthook.yml"),
	group(Tree, StartUp, "", ".lefthook.yml"),
	group(Tree, StartUp, gitHooks, ".husky"),
	group(Tree, Settings, gitConfig, ".gitmodules", ".gitattributes", ".gitconfig"),
	// What the shell, the editors and dev containers run on their own.
	group(Tree, StartUp, shellStartUp, ".envrc"),
	group(Tree, StartUp, editorTasks, ".vscode/tasks.json", ".vscode/settings.json"),
	group(Tree, Settings, "", ".vscode", ".idea"),
	group(Tree, StartUp, "", ".devcontainer"),
	// The package tools' project settings: a registry to install from, a
	// script shell, a hook every install or build runs.
	group(Tree, Settings, "", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", "bunfig.toml",
		".cargo/config", ".cargo/config.toml", "nuget.config", "NuGet.Config", ".bundle/config", "pip.conf"),
	// Other agents' credentials, wherever their folder is (CODEX_HOME).
	hidden(group(Tree, Credential, agentCredentials, ".codex/auth.json", "oauth_creds.json")),
	group(Tree, Credential, toolToken, "com.vercel.cli/auth.json"),
	// The clients' settings, hooks, plugins, skills and instructions in
	// the home.
	group(Home, Settings, agentSettings, ".claude", ".codex", ".gemini", ".agents"),
	group(Home, Instruction, agentInstructions, ".claude/CLAUDE.md", ".codex/AGENTS.md", MemoryFile),
	token(group(Home, Settings, agentSettings, ".claude.json"), agentCredentials),
	// git's and the package tools' settings in the home: a pager, an
	// fsmonitor, a script shell, GOFLAGS=-toolexec, a cargo runner, an
	// index to install from, an init script every build runs.
	group(Home, Settings, gitConfig, ".config/git"),
	group(Home, Settings, toolSettings, ".npmrc", ".yarnrc"),
	token(group(Home, Settings, toolSettings, ".yarnrc.yml", ".bunfig.toml"), toolToken),
	group(Home, Settings, toolSettings, ".config/go/env", ".cargo/config", ".cargo/config.toml"),
	token(group(Home, Settings, toolSettings, ".config/pip", ".pip"), toolToken),
	group(Home, Settings, toolSettings, ".pydistutils.cfg"),
	token(group(Home, Settings, toolSettings, ".m2/settings.xml"), toolToken),
	group(Home, Settings, toolSettings, ".gradle/gradle.properties", ".gradle/init.gradle",
		".gradle/init.gradle.kts", ".gradle/init.d"),
	// What the shell, the session and ssh run on their own. The shell's
	// files are hidden as well: tokens are exported there.
	hidden(group(Home, StartUp, shellStartUp, ".bashrc", ".bash_profile", ".bash_login", ".bash_logout",
		".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout", ".config/fish", ".config/nushell",
		".config/environment.d")),
	group(Home, StartUp, shellStartUp, ".inputrc", ".oh-my-zsh/custom"),
	group(Home, StartUp, jobs, ".config/systemd", ".config/autostart", "Library/LaunchAgents"),
	group(Home, StartUp, sshStartUp, ".ssh/authorized_keys", ".ssh/config", ".ssh/rc"),
	// The person's credentials: a program that reads one can act as the
	// person somewhere else (push, publish, deploy, pay). Keys and
	// keyrings.
	group(Home, Credential, keys, ".ssh", ".gnupg", ".password-store"),
	group(Home, Credential, keyring, ".local/share/keyrings"),
	group(Home, Credential, toolToken, ".age"),
	// Stored passwords, and git's credential-cache daemon: asked on its
	// socket, it answers with the passwords it keeps.
	group(Home, Credential, storedPasswords, ".netrc", ".git-credentials", ".config/git/credentials", ".pgpass",
		".my.cnf", ".vault-token", ".cache/git/credential", ".git-credential-cache"),
	// Clouds and clusters.
	group(Home, Credential, keys, ".aws"),
	group(Home, Credential, cloud, ".azure"),
	group(Home, Credential, "cluster credentials", ".kube/config"),
	group(Home, Credential, cloud, ".config/gcloud/credentials.db", ".config/gcloud/access_tokens.db",
		".config/gcloud/legacy_credentials", ".config/gcloud/application_default_credentials.json"),
	group(Home, Credential, toolToken, ".oci", ".config/doctl/config.yaml", ".fly/config.yml",
		".terraform.d/credentials.tfrc.json", ".config/rclone/rclone.conf", ".s3cfg", ".boto", ".config/sops"),
	// Forges, registries and their tools' tokens.
	group(Home, Credential, registry, ".config/gh/hosts.yml"),
	group(Home, Credential, toolToken, ".config/glab-cli/config.yml", ".config/hub", ".config/tea/config.yml"),
	group(Home, Credential, registry, ".docker/config.json", ".npmrc", ".pypirc"),
	group(Home, Credential, toolToken, ".config/pypoetry/auth.toml"),
	group(Home, Credential, registry, ".gem/credentials", ".cargo/credentials", ".cargo/credentials.toml"),
	group(Home, Credential, toolToken, ".composer/auth.json", ".config/composer/auth.json",
		".m2/settings-security.xml", ".gradle/gradle.properties", ".nuget/NuGet/NuGet.Config",
		".jfrog/jfrog-cli.conf", ".huggingface/token", ".cache/huggingface/token", ".kaggle/kaggle.json",
		".vercel/auth.json", ".netlify/config.json", ".config/netlify/config.json", ".config/.wrangler",
		".wrangler/config/default.toml", ".railway/config.json", ".config/stripe/config.toml", ".config/op",
		".bluemix/config.json"),
	// Browser profiles: cookies and saved passwords.
	hidden(group(Home, Credential, browser, ".mozilla", ".config/google-chrome", ".config/chromium",
		".config/BraveSoftware", ".config/microsoft-edge", ".config/vivaldi", "snap/firefox", "snap/chromium",
		".var/app/org.mozilla.firefox", ".var/app/com.google.Chrome", ".var/app/org.chromium.Chromium")),
	// The clients' own credentials and IDE connections (a token there
	// lets a step drive the editor), and other agents'.
	hidden(group(Home, Credential, agentCredentials, ".claude/.credentials.json", ".claude/ide",
		".codex/auth.json", ".gemini/oauth_creds.json", ".gemini/google_accounts.json",
		".gemini/mcp-oauth-tokens.json", ".aider.conf.yml")),
	// Other agents' credentials.
	group(Home, Credential, agentCredentials, ".config/github-copilot/hosts.json",
		".config/github-copilot/apps.json", ".local/share/opencode/auth.json"),
	// The user's build caches, which local work writes. Folders that
	// hold programs a later step would run (~/go/bin, ~/.cargo/bin,
	// ~/.rustup/toolchains, pnpm's global bin) are not caches; nor is
	// ~/.deno: it holds deno itself and what deno install -g puts on the
	// person's PATH (deno's cache is ~/.cache/deno).
	group(Home, Cache, "", ".cache", "go/pkg/mod", ".npm", ".cargo/registry", ".cargo/git", ".m2/repository",
		".gradle/caches", ".gradle/wrapper/dists", ".local/share/pnpm/store", ".pnpm-store", ".yarn/berry/cache",
		".bun/install/cache", ".nuget/packages"),
	// The machine's shell start-up files, jobs, and the settings its
	// agents and package tools read for every user.
	group(Machine, StartUp, shellStartUp, "/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/bashrc",
		"/etc/zsh", "/etc/environment"),
	group(Machine, StartUp, jobs, "/etc/crontab", "/etc/cron.d", "/etc/cron.hourly", "/etc/cron.daily",
		"/etc/cron.weekly", "/etc/cron.monthly", "/var/spool/cron", "/etc/systemd", "/Library/LaunchAgents",
		"/Library/LaunchDaemons"),
	group(Machine, Settings, agentSettings, "/etc/claude-code", "/etc/gemini-cli", "/etc/codex",
		"/Library/Application Support/ClaudeCode"),
	group(Machine, Settings, toolSettings, "/etc/npmrc", "/etc/pip.conf"),
	// The daemons that run what they are asked outside any wall: the
	// container engines, systemd and the buses, terminal multiplexers and
	// X11 (keystrokes into the person's terminal), an agent's app-server
	// daemon (its terminal UI starts it; it runs turns and commands for
	// whoever connects), and the multiplexers and editors that run what
	// their socket is sent (zellij action write-chars, emacsclient
	// --eval, wezterm cli send-text). The ssh and gpg agents are not
	// among them.
	group(Machine, Daemon, "", "/run/docker.sock", "/var/run/docker.sock", "/run/containerd", "/run/podman",
		"/run/crio", "/run/buildkit", "/run/incus", "/run/lxd", "/var/snap/lxd/common/lxd",
		"/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket", "/run/systemd/private",
		"/run/systemd/userdb", "/run/user/{uid}/bus", "/run/user/{uid}/systemd", "/run/user/{uid}/docker.sock",
		"/run/user/{uid}/docker", "/run/user/{uid}/podman", "/run/user/{uid}/containerd-rootless",
		"/run/user/{uid}/dbus-1", "/run/user/{uid}/at-spi", "/run/user/{uid}/wayland-0",
		"/run/user/{uid}/wayland-1", "/run/user/{uid}/pulse", "/run/user/{uid}/pipewire-0", "/tmp/tmux-{uid}",
		"/tmp/.X11-unix", "/run/screen", "/var/run/screen", "/tmp/codex-daemon-{uid}", "/tmp/zellij-{uid}",
		"/run/user/{uid}/zellij", "/tmp/emacs{uid}", "/run/user/{uid}/emacs", "/run/user/{uid}/wezterm"),
)

// group is the places of one base and kind at paths, which the engine
// names alike (what).
func group(b Base, k Kind, what string, paths ...string) []Place {
	out := make([]Place, len(paths))
	for i, p := range paths {
		out[i] = Place{Base: b, Path: p, Kind: k, What: what}
	}
	return out
}

// token marks settings that may hold a token (Place.Token).
func token(ps []Place, reads string) []Place {
	for i := range ps {
		ps[i].Token = reads
	}
	return ps
}

// hidden marks places the wall hides from every step (Place.Hide).
func hidden(ps []Place) []Place {
	for i := range ps {
		ps[i].Hide = true
	}
	return ps
}

// made marks a tree's folders the wall makes when missing (Place.Make).
func made(ps []Place) []Place {
	for i := range ps {
		ps[i].Make = true
	}
	return ps
}

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

// MemoryFile is the home's instruction file, relative to it, that an
// agent's memory tool (save_memory) appends to.
const MemoryFile = ".gemini/GEMINI.md"
