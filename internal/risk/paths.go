package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/place"
)

// secretPath says what secret p holds, or "" when it holds none sayso knows.
func secretPath(p, home string) string {
	if why := moreSecretPath(p, home); why != "" {
		return why
	}
	base := path.Base(p)
	rel := p
	if home != "" && within(p, home) {
		rel = "~" + strings.TrimPrefix(p, home)
	}
	switch {
	case rel == "~/.ssh" || rel == "~/.aws" || rel == "~/.gnupg" || rel == "~/.kube" || rel == "~/.config/gcloud" || rel == "~/.password-store" || rel == "~/.docker":
		return "a folder of keys"
	case base == ".env" || strings.HasPrefix(base, ".env.") && !envExample(base) || strings.HasPrefix(base, ".env*") || base == "*.env" || strings.HasPrefix(base, ".env") && strings.ContainsAny(base, "*?["):
		return "an environment file"
	case strings.Contains(rel, "/.ssh/") && !strings.HasSuffix(base, ".pub") && base != "known_hosts" && base != "config" && base != "authorized_keys":
		return "an ssh key"
	case strings.HasSuffix(rel, "/.aws/credentials") || strings.HasSuffix(rel, "/.aws/config"):
		return "cloud credentials"
	case strings.Contains(rel, "/.config/gcloud") || strings.Contains(rel, "/.azure/"):
		return "cloud credentials"
	case strings.HasSuffix(rel, "/.kube/config"):
		return "cluster credentials"
	case base == ".netrc" || base == "_netrc" || base == ".git-credentials" || base == ".pgpass" || base == ".my.cnf" || base == ".vault-token":
		return "stored passwords"
	case rel == "~/.npmrc" || rel == "~/.pypirc" || rel == "~/.docker/config.json" || rel == "~/.gem/credentials" || rel == "~/.cargo/credentials.toml" || rel == "~/.cargo/credentials" || rel == "~/.config/gh/hosts.yml":
		return "registry tokens"
	case strings.Contains(rel, "/.gnupg/") || strings.Contains(rel, "/.password-store") || strings.Contains(rel, "/Library/Keychains") || strings.Contains(rel, "/.local/share/keyrings"):
		return "a keyring"
	case strings.HasSuffix(base, "_history") || base == ".histfile":
		return "shell history"
	case strings.HasPrefix(p, "/proc/") && (base == "environ" || base == "cmdline" || base == "mem"):
		return "a process's environment"
	case p == "/etc/shadow" || p == "/etc/gshadow" || p == "/etc/sudoers" || strings.HasPrefix(p, "/etc/ssh/ssh_host_"):
		return "system secrets"
	case strings.Contains(rel, "/.mozilla/") || strings.Contains(rel, "/.config/google-chrome") || strings.Contains(rel, "/.config/chromium") ||
		strings.Contains(rel, "/Library/Application Support/Google/Chrome") || strings.Contains(rel, "/.config/BraveSoftware") || strings.Contains(rel, "/Library/Cookies"):
		return "a browser profile"
	case strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key") || strings.HasSuffix(base, ".p12") || strings.HasSuffix(base, ".pfx") || strings.HasSuffix(base, ".keystore") || strings.HasSuffix(base, ".jks"):
		return "a private key"
	case base == "id_rsa" || base == "id_ed25519" || base == "id_ecdsa" || base == "id_dsa":
		return "an ssh key"
	case strings.HasPrefix(base, "credentials") && strings.HasSuffix(base, ".json") || strings.HasPrefix(base, "service-account") && strings.HasSuffix(base, ".json"):
		return "service credentials"
	case base == "terraform.tfstate" || base == "terraform.tfstate.backup":
		return "infrastructure state with secrets"
	case home != "" && within(p, home) && p != home && place.IsCredential(strings.TrimPrefix(p, home+"/")):
		return "a credential"
	}
	return ""
}

func envExample(base string) bool {
	for _, s := range []string{".example", ".sample", ".template", ".dist", ".defaults", ".schema"} {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	return false
}

// looksSecret judges a path that cannot be resolved by its text.
func looksSecret(raw string) bool {
	for _, s := range []string{".ssh/", ".aws/", ".env", ".netrc", ".kube/", "gcloud", "_history", "/environ", ".git-credentials", ".gnupg", "id_rsa", "id_ed25519", ".password-store", ".docker/"} {
		if strings.Contains(raw+"/", s) {
			return true
		}
	}
	return false
}

// instructionPath says which instructions or start-up code writing p
// changes, or "" when none. Names are matched without regard to case: on a
// case-insensitive file system .Claude/ is .claude/ and claude.md is
// CLAUDE.md.
func instructionPath(p, home string) string {
	p, home = strings.ToLower(p), strings.ToLower(home)
	base := path.Base(p)
	rel := p
	if home != "" && within(p, home) {
		rel = "~" + strings.TrimPrefix(p, home)
	}
	switch {
	case base == "claude.md" || base == "claude.local.md" || base == "agents.md" || base == "agents.override.md" || base == "gemini.md" || base == ".cursorrules" || base == ".windsurfrules" || base == "copilot-instructions.md":
		return "an agent's instructions"
	case containsDir(p, ".claude") || containsDir(p, ".codex") || containsDir(p, ".gemini") || containsDir(p, ".cursor") || containsDir(p, ".agents") || base == ".claude.json" || base == ".mcp.json" ||
		strings.HasPrefix(p, "/etc/claude-code/") || strings.HasPrefix(p, "/etc/gemini-cli/") || strings.HasPrefix(p, "/etc/codex/") ||
		strings.HasPrefix(p, "/library/application support/claudecode/"):
		return "an agent's settings"
	case strings.Contains(p, "/.git/hooks/") || strings.HasSuffix(p, "/.git/hooks") || containsDir(p, ".husky") || base == ".pre-commit-config.yaml" || base == "lefthook.yml":
		return "git hooks"
	case strings.HasSuffix(p, "/.git/config") || base == ".gitconfig" || strings.HasSuffix(rel, "/.config/git/config") || base == ".gitmodules" || base == ".gitattributes":
		return "git configuration that can run programs"
	case rel == "~/.bashrc" || rel == "~/.bash_profile" || rel == "~/.bash_login" || rel == "~/.profile" || rel == "~/.bash_logout" ||
		rel == "~/.zshrc" || rel == "~/.zprofile" || rel == "~/.zshenv" || rel == "~/.zlogin" || rel == "~/.inputrc" ||
		strings.HasPrefix(rel, "~/.config/fish/") || strings.HasPrefix(p, "/etc/profile") || p == "/etc/bash.bashrc" || p == "/etc/environment" ||
		base == ".envrc" || strings.HasPrefix(rel, "~/.oh-my-zsh/custom"):
		return "shell start-up files"
	case strings.HasPrefix(p, "/etc/cron") || strings.HasPrefix(p, "/var/spool/cron") || strings.HasPrefix(rel, "~/.config/autostart") ||
		strings.HasPrefix(rel, "~/library/launchagents") || strings.HasPrefix(p, "/library/launch") || strings.HasPrefix(rel, "~/.config/systemd") || strings.HasPrefix(p, "/etc/systemd"):
		return "scheduled or start-up jobs"
	case strings.HasSuffix(p, "/.vscode/tasks.json") || strings.HasSuffix(p, "/.vscode/settings.json"):
		return "editor tasks that run on open"
	case place.InProject(p) != "":
		return "what an agent or a tool reads from the project (" + place.InProject(p) + ")"
	case rel == "~/.npmrc" || rel == "~/.yarnrc" || rel == "~/.yarnrc.yml" || rel == "~/.bunfig.toml" || rel == "~/.config/go/env" ||
		rel == "~/.cargo/config" || rel == "~/.cargo/config.toml" || rel == "~/.config/pip/pip.conf" || rel == "~/.pip/pip.conf" ||
		rel == "~/.m2/settings.xml" || rel == "~/.gradle/gradle.properties" || strings.HasPrefix(rel, "~/.gradle/init.") ||
		p == "/etc/npmrc" || p == "/etc/pip.conf":
		return "a package tool's settings, which can run programs in every later build or install"
	}
	return ""
}

func containsDir(p, dir string) bool {
	return strings.Contains(p, "/"+dir+"/") || strings.HasSuffix(p, "/"+dir)
}

// devicePath says which device writing p overwrites, or "" when p is not a
// disk or memory device.
func devicePath(p string) string {
	if !strings.HasPrefix(p, "/dev/") {
		return ""
	}
	switch base := path.Base(p); {
	case strings.HasPrefix(base, "sd") || strings.HasPrefix(base, "nvme") || strings.HasPrefix(base, "hd") ||
		strings.HasPrefix(base, "vd") || strings.HasPrefix(base, "xvd") || strings.HasPrefix(base, "mmcblk") ||
		strings.HasPrefix(base, "disk") || strings.HasPrefix(base, "rdisk") || strings.HasPrefix(base, "loop") ||
		strings.HasPrefix(base, "dm-") || strings.HasPrefix(p, "/dev/mapper/") || base == "mem" || base == "kmem" || base == "port":
		return "a disk or memory device"
	}
	return ""
}
