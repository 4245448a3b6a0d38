package sayso_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/client"
)

// TestReadmeNamesTheTestedClients: the client versions the README names
// are the ones CI installs and tests and the ones sayso doctor compares
// the installed clients with (client.Clients), and the README says how to
// upgrade and uninstall; a bump of a pin that leaves the README or the
// code behind fails here.
func TestReadmeNamesTheTestedClients(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	pins, err := os.ReadFile(".ci/install-clients")
	if err != nil {
		t.Fatal(err)
	}
	found := regexp.MustCompile(`(?m)^(\w+)=\$\(install \w+ (\S+) (\S+) \w+\)$`).FindAllStringSubmatch(string(pins), -1)
	if len(found) != len(client.Clients) {
		t.Fatalf(".ci/install-clients pins %d clients, sayso knows %d", len(found), len(client.Clients))
	}
	for _, m := range found {
		c, ok := client.Of(m[1])
		if !ok || c.Package != m[2] || c.Tested != m[3] {
			t.Errorf(".ci/install-clients pins %s %s; internal/client (client.Clients) says %s %s: bump both, and README.md's table", m[2], m[3], c.Package, c.Tested)
		}
	}
	table := regexp.MustCompile("(?m)^\\| ([^|]+) \\| `(@[^`]+)` \\| (\\S+) \\|$").FindAllStringSubmatch(string(readme), -1)
	if len(table) != len(client.Clients) {
		t.Errorf("README.md's table of tested clients has %d rows, sayso knows %d clients", len(table), len(client.Clients))
	}
	for i, c := range client.Clients {
		row := "| " + c.Name + " | `" + c.Package + "` | " + c.Tested + " |"
		if i >= len(table) || table[i][0] != row {
			t.Errorf("README.md does not name %s %s as tested (want the row %q)", c.Package, c.Tested, row)
		}
	}
	// Every npm install the README shows installs a tested version.
	for _, m := range regexp.MustCompile(`npm install -g (?:--prefix \S+ )?(@[^@\s]+/[^@\s]+)(@\S+)?`).FindAllStringSubmatch(string(readme), -1) {
		ok := false
		for _, c := range client.Clients {
			ok = ok || (m[1] == c.Package && m[2] == "@"+c.Tested)
		}
		if !ok {
			t.Errorf("README.md shows %q: not a tested client at its tested version", m[0])
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
