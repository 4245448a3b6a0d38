package sayso_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/client"
)

// clientsHome is the clients' own package: a file per client, its
// registry line, and what sayso knows of each (events, tools, settings
// files, rules, sandbox, evidence, pins).
const clientsHome = "internal/client"

// clientNamesAllowed are the files outside the clients' package that may
// name a client, each with its reason. Keep it short: at most four.
var clientNamesAllowed = map[string]string{
	"internal/place/table.go":     "the one table of places names the clients' own files",
	"internal/risk/runners.go":    "the agents' programs are programs a step may run (claude -p, gemini -y): risk's family of agent runners classifies them",
	"internal/program/runners.go": "the registry names every program a step may run, the clients' own programs among them, beside the other runners",
}

// clientName matches every name the clients' registry has: a new
// client's name is watched as soon as it has its registry line. The three
// spelled out keep the test honest should the registry lose one.
var clientName = func() *regexp.Regexp {
	names := slices.Compact(slices.Sorted(slices.Values(append(client.Agents(), "claude", "codex", "gemini"))))
	for i, n := range names {
		names[i] = regexp.QuoteMeta(n)
	}
	return regexp.MustCompile(`(?i)` + strings.Join(names, "|"))
}()

// TestClientNamesHaveOneHome: a client's name (any case, in code or in a
// comment) appears in no non-test Go file outside the clients' own
// package but the few allowed, so a new client is its file, its golden
// files and one registry line, and no other package branches on a name.
func TestClientNamesHaveOneHome(t *testing.T) {
	if len(clientNamesAllowed) > 4 {
		t.Errorf("%d places may name a client; at most 4", len(clientNamesAllowed))
	}
	named := map[string]bool{}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || p == clientsHome) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !clientName.Match(b) {
			return nil
		}
		p = filepath.ToSlash(p)
		named[p] = true
		if clientNamesAllowed[p] != "" {
			return nil
		}
		t.Errorf("%s names a client (%q): ask the clients' registry in %s (client.Of, client.Clients)", p, clientName.Find(b), clientsHome)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range clientNamesAllowed {
		if !named[p] {
			t.Errorf("%s names no client any more: take it off clientNamesAllowed", p)
		}
	}
}
