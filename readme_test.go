package sayso_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeNamesTheTestedClients: the client versions the README names
// are the ones CI installs and tests, and the README says how to upgrade
// and uninstall; a bump of a pin that leaves the README behind fails here.
func TestReadmeNamesTheTestedClients(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	pins, err := os.ReadFile(".ci/install-clients")
	if err != nil {
		t.Fatal(err)
	}
	found := regexp.MustCompile(`(?m)^\w+=\$\(install \w+ (\S+) (\S+) \w+\)$`).FindAllStringSubmatch(string(pins), -1)
	if len(found) != 3 {
		t.Fatalf(".ci/install-clients pins %d clients, want 3", len(found))
	}
	for _, m := range found {
		row := "| `" + m[1] + "` | " + m[2] + " |"
		if !strings.Contains(string(readme), row) {
			t.Errorf("README.md does not name %s %s as tested (want a row ending %q)", m[1], m[2], row)
		}
	}
	for _, h := range []string{"\n## Install\n", "\n## Upgrading\n", "\n## Uninstalling\n"} {
		if !strings.Contains(string(readme), h) {
			t.Errorf("README.md has no %q section", strings.TrimSpace(h))
		}
	}
	if i, j := strings.Index(string(readme), "\n## Install\n"), strings.Index(string(readme), "\n## "); i != j {
		t.Error("README.md does not lead with Install")
	}
}

// TestReadmeServeReady: the first line the README shows of sayso serve is
// the one it prints, so that a person reading the terminal knows it is up.
func TestReadmeServeReady(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	serve, err := os.ReadFile("internal/cli/serve.go")
	if err != nil {
		t.Fatal(err)
	}
	format := regexp.MustCompile(`"(sayso: ready: [^"]*)\\n"`).FindSubmatch(serve)
	if format == nil {
		t.Fatal("internal/cli/serve.go prints no 'sayso: ready:' line")
	}
	line := regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(string(format[1])), "%s", ".*") + "$")
	shown := regexp.MustCompile(`(?m)^\s*(?:# )?(sayso: ready: .*)$`).FindAllStringSubmatch(string(readme), -1)
	if len(shown) == 0 {
		t.Error("README.md does not show the line sayso serve prints when it is ready")
	}
	for _, m := range shown {
		if !line.MatchString(m[1]) {
			t.Errorf("README.md shows %q; sayso serve prints %q", m[1], format[1])
		}
	}
}
