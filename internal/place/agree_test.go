package place_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
	"github.com/sayso-dev/sayso/internal/wall"
)

const home, root = "/home/u", "/home/u/src/p"

// probeHome are paths of the home, relative to it, that the engine or the
// wall named before they read one table.
var probeHome = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout",
	".inputrc", ".config/fish/config.fish", ".config/nushell/config.nu", ".config/environment.d/x.conf", ".oh-my-zsh/custom/x.zsh",
	".config/autostart/x.desktop", ".config/systemd/user/x.service", ".gitconfig", ".config/git/config",
	".npmrc", ".yarnrc", ".yarnrc.yml", ".bunfig.toml", ".config/go/env", ".cargo/config", ".cargo/config.toml",
	".config/pip/pip.conf", ".pip/pip.conf", ".pydistutils.cfg", ".m2/settings.xml", ".gradle/gradle.properties",
	".gradle/init.gradle", ".gradle/init.d/x.gradle", ".ssh/authorized_keys", ".ssh/config", ".ssh/rc",
	".claude/settings.json", ".claude/CLAUDE.md", ".claude/skills/x/SKILL.md", ".claude.json", ".codex/config.toml",
	".codex/AGENTS.md", ".gemini/settings.json", ".gemini/GEMINI.md", ".agents/skills/x/SKILL.md", ".mcp.json",
	".cursor/mcp.json", ".envrc", "CLAUDE.md", "AGENTS.md", ".vscode/settings.json", ".vscode/tasks.json",
	".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json", ".gemini/google_accounts.json",
	".gemini/mcp-oauth-tokens.json", ".config/github-copilot/hosts.json", ".aider.conf.yml",
	".mozilla/firefox/x", ".config/google-chrome/Default/Cookies", ".config/chromium/x", ".config/BraveSoftware/x",
	".ssh/id_ed25519", ".aws/credentials", ".gnupg/x", ".kube/config", ".config/gcloud/credentials.db",
	".password-store/x", ".docker/config.json", ".netrc", ".git-credentials", ".pgpass", ".pypirc",
	".gem/credentials", ".cargo/credentials.toml", ".config/gh/hosts.yml", ".local/share/keyrings/x",
	".config/op/x", ".oci/config", ".m2/settings-security.xml", ".age/key.txt", ".config/sops/age/keys.txt",
}

// probeRoot are paths of a project, relative to its root.
var probeRoot = []string{
	"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "GEMINI.md", ".mcp.json", ".claude/settings.local.json", ".codex/config.toml",
	".gemini/settings.json", ".agents/skills/x/SKILL.md", ".cursor/rules/x.mdc", ".cursorrules", ".windsurfrules",
	".github/copilot-instructions.md", ".husky/pre-commit", ".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml",
	".gitmodules", ".gitattributes", ".envrc", ".vscode/tasks.json", ".vscode/settings.json", ".idea/workspace.xml",
	".devcontainer/devcontainer.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", "bunfig.toml",
	".cargo/config.toml", "nuget.config", ".bundle/config", "pip.conf",
}

// probeMachine are the machine's paths.
var probeMachine = []string{
	"/etc/profile", "/etc/profile.d/x.sh", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zsh/zshrc", "/etc/environment",
	"/etc/crontab", "/etc/cron.d/x", "/var/spool/cron/crontabs/u", "/etc/systemd/system/x.service", "/etc/npmrc", "/etc/pip.conf",
}

// engine is what the engine calls writing and reading p.
func engine(p string) (written, secret bool) {
	ctx := risk.Context{Root: root, Home: home}
	w := risk.Classify(shell.Parse("echo x > '"+p+"'"), ctx).Classes
	r := risk.Classify(shell.Parse("cat '"+p+"'"), ctx).Classes
	return w.Has(risk.InstructionPatch), r.Has(risk.Secret)
}

// in reports whether p is one of list or lies in one.
func in(p string, list []string) bool {
	for _, l := range list {
		if p == l || strings.HasPrefix(p, l+"/") {
			return true
		}
	}
	return false
}

// profiles are the walls of a step that names no place: each scope, and
// an approved step the person's policy widens to the folder p lies in,
// to the home, and to the machine.
func profiles(p string) map[string]wall.Profile {
	out := map[string]wall.Profile{}
	for _, s := range []wall.Scope{wall.Read, wall.Local, wall.Approved} {
		out[s.String()] = wall.For(wall.Inputs{Home: home, Root: root, Scope: s})
	}
	for _, w := range []string{filepath.Dir(p), home, "/"} {
		out["approved widened to "+w] = wall.For(wall.Inputs{Home: home, Root: root, Scope: wall.Approved, Widen: []string{w}})
	}
	return out
}

// TestPlacesAgree: the engine and the wall read one table of places. In
// every scope and widening (the person's policy widening an approved step
// to the folder a place lies in, to the home, to the machine), the wall
// lets no step write a place the engine asks about before it is written,
// and keeps none the engine lets a step write as local work; it hides
// every credential place the engine calls a secret read. The day the
// engine or the wall treats a path the other does not, this fails.
func TestPlacesAgree(t *testing.T) {
	var paths []string
	for _, r := range probeHome {
		paths = append(paths, filepath.Join(home, r))
	}
	for _, r := range probeRoot {
		paths = append(paths, filepath.Join(root, r))
	}
	paths = append(paths, probeMachine...)
	for _, pl := range place.Table {
		if pl.Kind.Acts() || pl.Kind == place.Credential {
			switch pl.Base {
			case place.Home:
				paths = append(paths, pl.In(home, 0))
			case place.Machine:
				paths = append(paths, pl.In("", 0))
			case place.Tree:
				// The project's, the home's, and a folder's between.
				paths = append(paths, pl.In(root, 0), pl.In(home, 0), pl.In(filepath.Dir(root), 0))
			}
		}
	}
	local := wall.For(wall.Inputs{Home: home, Root: root, Scope: wall.Local})
	for _, p := range paths {
		written, secret := engine(p)
		if _, ok := place.Written(p, home); ok != written && !strings.Contains(p, "/.git/") {
			t.Errorf("%s: the engine calls writing it an instruction patch = %v; the table's place that acts later = %v", p, written, ok)
		}
		for name, prof := range profiles(p) {
			writable := in(p, prof.Write) && !in(p, prof.ReadOnly) && !in(p, prof.Hidden)
			if written && writable {
				t.Errorf("%s: the engine asks before it is written; the wall (%s) lets it be written", p, name)
			}
			if !written && in(p, prof.ReadOnly) && !in(p, prof.Hidden) {
				t.Errorf("%s: the wall (%s) keeps it; the engine lets a step write it as local work", p, name)
			}
		}
		pl, credential := place.Secret(p, home)
		if credential && !secret {
			t.Errorf("%s: the table names it %s; the engine reads it as a plain read", p, pl.Kind)
		}
		if rel, ok := strings.CutPrefix(p, home+"/"); ok && place.IsCredential(rel) {
			for name, prof := range profiles(p) {
				if !in(p, prof.Hidden) {
					t.Errorf("%s: the engine calls reading it a secret; the wall (%s) shows it", p, name)
				}
			}
		} else if secret && credential && pl.Token == "" && pl.Base == place.Home {
			t.Errorf("%s: the engine calls reading it a secret; the wall shows it", p)
		} else if credential && pl.Token != "" && !in(p, local.ReadOnly) {
			t.Errorf("%s: settings that may hold a token, which the wall does not keep", p)
		}
	}
}

// TestPlacesDaemonsAndCaches: the wall hides every daemon of the table
// unless a step may reach them, and lets local work write every cache.
func TestPlacesDaemonsAndCaches(t *testing.T) {
	for _, s := range []wall.Scope{wall.Read, wall.Local, wall.Approved} {
		prof := wall.For(wall.Inputs{Home: home, Root: root, Scope: s})
		for _, pl := range place.Of(place.Machine, place.Daemon) {
			if p := pl.In("", os.Getuid()); !in(p, prof.Hidden) {
				t.Errorf("%s: the wall (%s) lets a step reach the daemon", p, s)
			}
		}
		for _, pl := range place.Of(place.Home, place.Cache) {
			if p := pl.In(home, 0); (s != wall.Read) != in(p, prof.Write) {
				t.Errorf("%s: the wall (%s) writes the cache = %v", p, s, in(p, prof.Write))
			}
		}
	}
}
