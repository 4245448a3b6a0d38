package client

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// npmInstall lays out what npm install -g --prefix prefix pkg@version
// leaves: the package under lib/node_modules and a link to its program in
// bin.
func npmInstall(t *testing.T, prefix string, c Client, version string) {
	t.Helper()
	pkg := filepath.Join(prefix, "lib", "node_modules", filepath.FromSlash(c.Package))
	if err := os.MkdirAll(filepath.Join(pkg, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(pkg, "package.json"), `{"name":"`+c.Package+`","version":"`+version+`"}`)
	// A program that is not run: the version is read from package.json.
	write(t, filepath.Join(pkg, "bin", "cli.js"), "#!/bin/sh\nexit 1\n")
	if err := os.Chmod(filepath.Join(pkg, "bin", "cli.js"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(prefix, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "lib", "node_modules", c.Package, "bin", "cli.js"), filepath.Join(prefix, "bin", c.Command)); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Doctor warns about a client newer or older than the one sayso is
// tested with, naming both versions, and says nothing about the tested
// one or a client it cannot find.
func TestClientVersions(t *testing.T) {
	for _, c := range Clients {
		for _, tc := range []struct {
			version string
			want    string // in the warning; "" for none
		}{
			{c.Tested, ""},
			{bump(c.Tested, 1), "is newer than " + c.Tested},
			{bump(c.Tested, -1), "is older than " + c.Tested},
		} {
			prefix := t.TempDir()
			npmInstall(t, prefix, c, tc.version)
			env := map[string]string{"PATH": "/nonexistent:" + filepath.Join(prefix, "bin")}
			got := clientVersions(map[string]bool{c.Agent: true}, func(k string) string { return env[k] })
			if tc.want == "" {
				if len(got) != 0 {
					t.Errorf("%s %s: %v, want no warning", c.Name, tc.version, got)
				}
				continue
			}
			if len(got) != 1 || !strings.Contains(got[0].What, c.Name+" "+tc.version) || !strings.Contains(got[0].What, tc.want) ||
				!strings.Contains(got[0].Fix, c.Package+"@"+c.Tested) || got[0].Agent != c.Agent {
				t.Errorf("%s %s: %v, want one warning naming %s and %q", c.Name, tc.version, got, tc.version, tc.want)
			}
			// An agent sayso is not installed for is not looked at.
			if got := clientVersions(map[string]bool{}, func(k string) string { return env[k] }); len(got) != 0 {
				t.Errorf("%s not installed: %v", c.Name, got)
			}
		}
	}
	// Not on PATH: nothing to say.
	if got := clientVersions(map[string]bool{"claude": true, "codex": true, "gemini": true}, func(string) string { return t.TempDir() }); len(got) != 0 {
		t.Errorf("no client on PATH: %v", got)
	}
}

// A client installed other than by npm says its version when asked.
func TestClientVersionAsked(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "claude"), "#!/bin/sh\necho '9.0.1 (Claude Code)'\n")
	if err := os.Chmod(filepath.Join(dir, "claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := clientVersions(map[string]bool{"claude": true}, func(string) string { return dir })
	if len(got) != 1 || !strings.Contains(got[0].What, "Claude Code 9.0.1 ") || !strings.Contains(got[0].What, "newer") {
		t.Errorf("claude --version says 9.0.1: %v", got)
	}
}

// The clients CI installs read as the versions sayso is tested with.
func TestClientVersionsReal(t *testing.T) {
	for _, c := range Clients {
		bin := os.Getenv("SAYSO_" + strings.ToUpper(c.Agent) + "_BIN")
		if bin == "" {
			testenv.Missing(t, "SAYSO_%s_BIN is not set (bash .ci/install-clients prints it)", strings.ToUpper(c.Agent))
			return
		}
		if got := installedVersion(c, bin); got != c.Tested {
			t.Errorf("%s at %s reads as version %q, want %s", c.Name, bin, got, c.Tested)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"2.1.328", "2.1.328", 0},
		{"2.1.337", "2.1.328", 1},
		{"2.1.99", "2.1.328", -1},
		{"0.171.0", "0.169.0", 1},
		{"1.0.0", "0.99.99", 1},
		{"0.61.0-preview.1", "0.61.0", 0},
		{"2.1", "2.1.0", 0},
	} {
		if got := compareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("compareVersions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// bump moves the last number of version by d.
func bump(version string, d int) string {
	parts := strings.Split(version, ".")
	n := leadingNumber(parts[len(parts)-1]) + d
	if n < 0 {
		parts[len(parts)-2] = strconv.Itoa(leadingNumber(parts[len(parts)-2]) - 1)
		n = 0
	}
	parts[len(parts)-1] = strconv.Itoa(n)
	return strings.Join(parts, ".")
}
