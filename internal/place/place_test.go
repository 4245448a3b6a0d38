package place

import "testing"

func TestInProject(t *testing.T) {
	for p, want := range map[string]string{
		"/home/p/proj/CLAUDE.md":                             "CLAUDE.md",
		"proj/claude.md":                                     "CLAUDE.md",
		"/home/p/proj/.vscode/tasks.json":                    ".vscode",
		"/home/p/proj/.github/copilot-instructions.md":       ".github/copilot-instructions.md",
		"/home/p/proj/.Husky/pre-commit/":                    ".husky",
		"/home/p/proj/notCLAUDE.md":                          "",
		"/home/p/proj/CLAUDE.md.bak":                         "",
		"/home/p/proj/x.vscode/tasks.json":                   "",
		"/home/p/proj/docs/.github/copilot-instructions.mdx": "",
	} {
		if got := InProject(p); got != want {
			t.Errorf("InProject(%q) = %q, want %q", p, got, want)
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
