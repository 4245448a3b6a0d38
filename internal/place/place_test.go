package place

import "testing"

func TestWritten(t *testing.T) {
	const home = "/home/p"
	for p, want := range map[string]string{
		"/home/p/proj/CLAUDE.md":                             "CLAUDE.md",
		"proj/claude.md":                                     "CLAUDE.md",
		"/home/p/proj/.vscode/tasks.json":                    ".vscode/tasks.json",
		"/home/p/proj/.vscode/launch.json":                   ".vscode",
		"/home/p/proj/.github/copilot-instructions.md":       ".github/copilot-instructions.md",
		"/home/p/proj/.Husky/pre-commit/":                    ".husky",
		"/home/p/.Claude/settings.json":                      ".claude",
		"/home/p/.claude/CLAUDE.md":                          ".claude/CLAUDE.md",
		"/home/p/.gradle/init.d/x.gradle":                    ".gradle/init.d",
		"/ETC/cron.d/x":                                      "/etc/cron.d",
		"/home/p/proj/notCLAUDE.md":                          "",
		"/home/p/proj/CLAUDE.md.bak":                         "",
		"/home/p/proj/x.vscode/tasks.json":                   "",
		"/home/p/proj/docs/.github/copilot-instructions.mdx": "",
		"/home/p/.ssh/id_ed25519":                            "",
		"/home/p/.cache/go-build/x":                          "",
	} {
		got, _ := Written(p, home)
		if got.Path != want {
			t.Errorf("Written(%q) = %q, want %q", p, got.Path, want)
		}
	}
}

func TestSecret(t *testing.T) {
	const home = "/home/p"
	for p, want := range map[string]string{
		"/home/p/.ssh/id_ed25519":    ".ssh",
		"/home/p/.claude.json":       ".claude.json",
		"/home/p/.claude/x.json":     "",
		"/root/.codex/auth.json":     ".codex/auth.json",
		"/home/p/.m2/settings.xml":   ".m2/settings.xml",
		"/home/p/.gradle/init.d/x":   "",
		"/home/p/src/.npmrc":         "",
		"/home/p/.npmrc":             ".npmrc",
		"/home/p/.sshx":              "",
		"/home/p/.kube/cache/x.json": "",
	} {
		got, _ := Secret(p, home)
		if got.Path != want {
			t.Errorf("Secret(%q) = %q, want %q", p, got.Path, want)
		}
	}
}

func TestIsCredential(t *testing.T) {
	for rel, want := range map[string]bool{
		".ssh":             true,
		".ssh/id_ed25519":  true,
		".sshx":            false,
		".aws/credentials": true,
		".aws":             true,
		"":                 false,
	} {
		if got := IsCredential(rel); got != want {
			t.Errorf("IsCredential(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestTable: each place is one line, its path clean and relative (or
// absolute for the machine's), named once for each kind.
func TestTable(t *testing.T) {
	seen := map[[3]string]bool{}
	for _, pl := range Table {
		abs := len(pl.Path) > 0 && pl.Path[0] == '/'
		if pl.Path == "" || abs != (pl.Base == Machine) || pl.Path[len(pl.Path)-1] == '/' {
			t.Errorf("%+v: a path relative to its base, or absolute for the machine's", pl)
		}
		k := [3]string{string(rune('0' + pl.Base)), pl.Path, pl.Kind.String()}
		if seen[k] {
			t.Errorf("%s (%s) is named twice", pl.Path, pl.Kind)
		}
		seen[k] = true
		if pl.Token != "" && pl.Kind != Settings || pl.Make && pl.Base != Tree {
			t.Errorf("%+v: a token is a settings file's; only a tree's folders are made", pl)
		}
	}
}
