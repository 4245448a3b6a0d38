// Package sayso_test holds the architecture test: which package may import
// what, with the reason beside each ban. It runs go list and fails — never
// skips — when it cannot.
package sayso_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/sayso-dev/sayso/"

// pure are the core packages that decide: no disk, network, process or
// clock, so the same input always gives the same answer.
var pure = map[string]string{
	"os":                    "the core never touches a disk: the caller reads files and hands in their bytes",
	"os/exec":               "the core never starts a process",
	"net":                   "the core never reaches a network",
	"net/http":              "the core never reaches a network",
	"database/sql":          "only package store touches the database",
	"modernc.org/sqlite":    "only package store touches the database",
	"mvdan.cc/sh/v3/interp": "sayso reads commands, it never runs them",
	"mvdan.cc/sh/v3/expand": "sayso never expands with a live environment",
	"syscall":               "the core makes no system call",
}

// rules names, for each package, the imports it may not have and the
// packages of this module it may import (dependencies point inward).
var rules = map[string]struct {
	banned   map[string]string
	internal []string
}{
	"internal/program": {pure, nil},
	"internal/enum":    {pure, nil},
	"internal/place":   {pure, nil},
	"internal/step":    {pure, []string{"internal/program", "internal/place", "internal/shell", "internal/risk"}},
	"internal/shell":   {pure, []string{"internal/program"}},
	"internal/risk":    {pure, []string{"internal/program", "internal/place", "internal/shell"}},
	"internal/rule":    {pure, []string{"internal/enum", "internal/program", "internal/place", "internal/shell", "internal/risk"}},
	"internal/policy":  {pure, []string{"internal/enum", "internal/program", "internal/place", "internal/shell", "internal/risk", "internal/rule"}},
	"internal/bundle":  {pure, []string{"internal/program", "internal/place", "internal/shell", "internal/risk", "internal/rule", "internal/policy"}},
	// The card and the rules for answering it are the page's, the
	// gateway's, the hub's and the store's alike: pure, so all read one copy.
	"internal/card": {pure, []string{"internal/enum", "internal/program", "internal/place", "internal/shell", "internal/risk", "internal/rule", "internal/policy", "internal/step"}},
	// The wire types are the node's and the hub's alike: a node never
	// carries the hub's PostgreSQL code.
	"internal/hubapi": {map[string]string{
		module + "internal/hub":           "the wire types are the node's too: the hub's PostgreSQL package imports them, never the other way",
		"github.com/jackc/pgx/v5":         "the wire types are the node's too: no PostgreSQL driver",
		"github.com/jackc/pgx/v5/pgxpool": "the wire types are the node's too: no PostgreSQL driver",
		"github.com/jackc/pgx/v5/pgconn":  "the wire types are the node's too: no PostgreSQL driver",
		"database/sql":                    "the wire types touch no database",
		module + "internal/store":         "the wire types touch no database",
	}, []string{"internal/bundle"}},
	// The node's team code speaks to the hub through the wire types and
	// answers cards through the card's rules: the page is one of its
	// callers' views, never its own dependency.
	"internal/team": {map[string]string{
		module + "internal/web": "the node's team code answers through package card: the page is a view of the cards, not their owner",
		module + "internal/hub": "a node speaks to its hub through hubapi's wire types: the hub's PostgreSQL package is the hub's alone",
	}, []string{"internal/atomicfile", "internal/bundle", "internal/card", "internal/hubapi", "internal/passkey", "internal/policy", "internal/rule", "internal/store"}},
	"internal/hub": {map[string]string{
		"database/sql":       "the hub speaks to PostgreSQL through pgx alone; the node's SQLite is package store's",
		"modernc.org/sqlite": "the hub speaks to PostgreSQL through pgx alone; the node's SQLite is package store's",
	}, []string{"internal/migration", "internal/hubapi"}},
	"internal/migration": {map[string]string{
		"database/sql": "it reads the schema's files; each database applies them its own way",
		"os":           "the files are embedded in the binary: no disk",
	}, nil},
	"internal/gitdir": {map[string]string{
		"os/exec": "it reads what a .git link names as git reads it, without running git",
	}, nil},
	"internal/passkey": {map[string]string{
		"os":           "checking a signature needs no disk: the caller hands in the pins, the card and the answer",
		"database/sql": "checking a signature needs no database",
	}, []string{"internal/card"}},
	"internal/wall": {map[string]string{
		"database/sql":       "the launcher starts on every step: no database driver",
		"modernc.org/sqlite": "the launcher starts on every step: no database driver",
		"net/http":           "the launcher starts on every step: its egress proxy speaks only what a proxy must, without an HTTP server's weight",
	}, []string{"internal/place", "internal/gitdir", "internal/unixsock", "internal/atomicfile"}},
	"internal/atomicfile": {map[string]string{
		"os/exec":      "replacing a file starts no process",
		"net":          "replacing a file reaches no network",
		"database/sql": "replacing a file needs no database: the launcher imports it",
	}, nil},
	"cmd/sayso-wall": {map[string]string{
		"database/sql":       "the launcher starts on every step: no database driver",
		"modernc.org/sqlite": "the launcher starts on every step: no database driver",
	}, []string{"internal/wall", "internal/place", "internal/gitdir", "internal/unixsock"}},
	"internal/project": {map[string]string{
		"os/exec":               "it reads the project's files as the tools read them, without running one",
		"net":                   "it reads the project's folder and nothing else",
		"net/http":              "it reads the project's folder and nothing else",
		"database/sql":          "only package store touches the database",
		"modernc.org/sqlite":    "only package store touches the database",
		"mvdan.cc/sh/v3/interp": "sayso reads commands, it never runs them",
	}, []string{"internal/program", "internal/place", "internal/shell", "internal/risk", "internal/rule", "internal/policy", "internal/paths", "internal/gitdir", "internal/wall"}},
	"cmd/sayso-hook": {map[string]string{
		"database/sql":       "the forwarder is the hook's fast path: the database driver stays off it",
		"modernc.org/sqlite": "the forwarder is the hook's fast path: the database driver stays off it",
	}, []string{"internal/paths", "internal/unixsock", "internal/client/hookenv"}},
	"internal/client/hookenv": {pure, nil},
	// The ledger keeps what the core decided and the person answered: it
	// knows no client, page, gateway or hub.
	"internal/store": {map[string]string{
		"net/http":                "the ledger is the node's own file: it reaches no network",
		"os/exec":                 "the ledger starts no process",
		"github.com/jackc/pgx/v5": "the node's ledger is SQLite: PostgreSQL is the hub's",
	}, []string{"internal/card", "internal/migration", "internal/policy", "internal/risk"}},
	// The page shows cards and sends the person's answers to its backend.
	"internal/web": {map[string]string{
		"database/sql":       "the page reads and answers through its backend: only package store touches the database",
		"modernc.org/sqlite": "the page reads and answers through its backend: only package store touches the database",
		"os/exec":            "the page starts no process",
	}, []string{"internal/card", "internal/passkey", "internal/policy", "internal/risk", "internal/rule", "internal/step"}},
	// The hook reads a client's step, asks the gateway and carries out the
	// wall's plan: it keeps nothing itself.
	"internal/hook": {map[string]string{
		"database/sql":       "the hook keeps nothing: the ledger is the gateway's",
		"modernc.org/sqlite": "the hook keeps nothing: the ledger is the gateway's",
		"net/http":           "the hook speaks to the gateway over its socket, not HTTP",
	}, []string{"internal/client", "internal/paths", "internal/policy", "internal/project", "internal/risk", "internal/shell", "internal/wall"}},
	// The gateway wires a step through client, project, policy, card and
	// store; a node reaches its hub through team's wire types alone.
	"internal/gateway": {map[string]string{
		"github.com/jackc/pgx/v5": "a node reaches its hub through package team, never the hub's database",
		module + "internal/hub":   "a node reaches its hub through package team, never the hub's database",
		"os/exec":                 "the gateway decides and keeps; the wall starts the steps",
	}, []string{"internal/atomicfile", "internal/card", "internal/client", "internal/client/hookenv", "internal/hook", "internal/paths", "internal/place", "internal/policy", "internal/project", "internal/review", "internal/risk", "internal/rule", "internal/step", "internal/store", "internal/team", "internal/unixsock", "internal/wall", "internal/web"}},
	// The reviewer asks a model about a step; it decides nothing itself.
	"internal/review": {map[string]string{
		"database/sql": "the reviewer's answer is kept by the gateway: only package store touches the database",
	}, []string{"internal/enum", "internal/policy", "internal/program", "internal/risk", "internal/shell"}},
	// The hub's server serves teams; a node's ledger is never its own.
	"internal/hubserver": {map[string]string{
		module + "internal/store": "the hub's server keeps the hub's database, never a node's ledger",
		"modernc.org/sqlite":      "the hub's server keeps the hub's database, never a node's ledger",
	}, []string{"internal/bundle", "internal/card", "internal/hub", "internal/hubapi", "internal/passkey"}},
	"internal/paths":                  {map[string]string{"os/exec": "it finds a project's folders as git lays them out, without running git"}, []string{"internal/gitdir", "internal/program"}},
	"internal/unixsock":               {map[string]string{"database/sql": "it dials and listens on sockets, nothing else"}, nil},
	"internal/cli":                    {nil, []string{"docs", "internal/atomicfile", "internal/bundle", "internal/card", "internal/client", "internal/gateway", "internal/hook", "internal/hub", "internal/hubapi", "internal/hubserver", "internal/paths", "internal/policy", "internal/review", "internal/risk", "internal/rule", "internal/shell", "internal/store", "internal/team", "internal/unixsock", "internal/web"}},
	"cmd/sayso":                       {nil, []string{"internal/cli"}},
	"docs":                            {pure, nil},
	"e2e":                             {nil, nil},
	"bench/compare":                   {nil, []string{"internal/client"}},
	"bench/hello":                     {nil, nil},
	"internal/web/devserve":           {nil, []string{"internal/card", "internal/client", "internal/policy", "internal/risk", "internal/rule", "internal/web"}},
	"internal/client/fakemodel/serve": {nil, []string{"internal/client/fakemodel"}},
	// The test helpers: only tests, the other helpers and the developers'
	// own commands import them (see TestHelpersOnlyInTests).
	"internal/testenv":             {nil, nil},
	"internal/client/fakemodel":    {nil, nil},
	"internal/hub/pgtest":          {nil, []string{"internal/testenv"}},
	"internal/hub/hubtest":         {nil, []string{"internal/hub", "internal/hub/pgtest"}},
	"internal/passkey/passkeytest": {nil, []string{"internal/passkey"}},
	"internal/web/browsertest":     {nil, []string{"internal/testenv"}},
	"internal/client": {map[string]string{
		"database/sql":       "a client's adapter, install and doctor read and write the clients' files; the ledger is package store's",
		"modernc.org/sqlite": "a client's adapter, install and doctor read and write the clients' files; the ledger is package store's",
		"net/http":           "reading a client's JSON and settings reaches no network",
	}, []string{"internal/program", "internal/place", "internal/shell", "internal/risk", "internal/rule", "internal/policy", "internal/paths", "internal/atomicfile"}},
}

// helpers are the packages made for tests: only tests, other helpers and
// the developers' own commands import them.
var helpers = map[string]string{
	"internal/testenv":             "a test helper: only tests import it",
	"internal/client/fakemodel":    "the fake model is for tests and the quickstart: only they import it",
	"internal/hub/pgtest":          "a test helper: only tests import it",
	"internal/hub/hubtest":         "a test helper: only tests import it",
	"internal/passkey/passkeytest": "a test helper: only tests import it",
	"internal/web/browsertest":     "a test helper: only tests import it",
}

// devCommands are the developers' own commands, which may use the helpers.
var devCommands = map[string]bool{"internal/client/fakemodel/serve": true, "internal/web/devserve": true}

func TestArchitecture(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}\t{{join .Deps \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("go list: unexpected line %q", line)
		}
		pkg := strings.TrimPrefix(fields[0], module)
		if pkg+"/" == module {
			continue // this test's own package
		}
		r, ok := rules[pkg]
		if !ok {
			t.Errorf("%s has no rule: name what it may import in rules", pkg)
			continue
		}
		for _, imp := range strings.Fields(fields[1]) {
			if why := helpers[strings.TrimPrefix(imp, module)]; why != "" && helpers[pkg] == "" && !devCommands[pkg] {
				t.Errorf("%s imports %s: %s", pkg, strings.TrimPrefix(imp, module), why)
			}
		}
		seen[pkg] = true
		for _, imp := range strings.Fields(fields[1]) {
			if why, ok := r.banned[imp]; ok {
				t.Errorf("%s imports %s: %s", pkg, imp, why)
			}
			if own, ok := strings.CutPrefix(imp, module); ok && !contains(r.internal, own) {
				t.Errorf("%s imports %s: dependencies point inward; it may import only %v", pkg, own, r.internal)
			}
		}
		if pkg == "cmd/sayso-hook" || pkg == "cmd/sayso-wall" || pkg == "internal/wall" {
			// What starts on every hook or step must not pay for the
			// database driver, even indirectly.
			for _, dep := range strings.Fields(fields[2]) {
				if dep == "modernc.org/sqlite" || dep == "database/sql" {
					t.Errorf("%s depends on %s: %s", pkg, dep, r.banned[dep])
				}
			}
		}
	}
	for pkg := range rules {
		if !seen[pkg] {
			t.Errorf("go list did not list %s: the rule names a package that is gone", pkg)
		}
	}
}

// TestPureHasNoClock: the core is handed the time; it never reads the
// clock itself.
func TestPureHasNoClock(t *testing.T) {
	for pkg, r := range rules {
		if r.banned["os"] == "" {
			continue
		}
		files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", pkg, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "time.Now(") {
				t.Errorf("%s reads the clock (time.Now): the caller hands the core its time", f)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
