package hubserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/cli"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// syncBuffer is a command's output, read while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// sayso runs one command in-process, as a person types it.
func sayso(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb syncBuffer
	code = cli.Main(args, &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Context: ctx})
	return code, out.String(), errb.String()
}

// background runs a long command (hub, serve) until stop or the test's
// end, and returns its output as it comes. A test that fails shows what
// the command said on its standard error.
func background(t *testing.T, args ...string) (out *syncBuffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out = &syncBuffer{}
	var errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Main(args, &cli.Env{Stdin: strings.NewReader(""), Stdout: out, Stderr: &errb, Context: ctx})
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("sayso %s, its standard error:\n%s", strings.Join(args, " "), errb.String())
		}
	})
	return out, stop
}

func waitOutput(t *testing.T, b *syncBuffer, re *regexp.Regexp) []string {
	t.Helper()
	var m []string
	testenv.Wait(t, fmt.Sprintf("%s in the output", re), func() (bool, string) {
		out := b.String()
		m = re.FindStringSubmatch(out)
		return m != nil, out
	})
	return m
}

// TestCommands: the setup as docs/team.md gives it, command by command:
// the hub starts and prints its fingerprint, an admin makes a token and
// publishes the org's bundle, a machine joins with the token (pinning the
// hub's certificate and the org key, taking the bundle), the token joins
// no second machine, and sayso serve on the node ships its ledger.
func TestCommands(t *testing.T) {
	ctx := context.Background()
	hdb := hubtest.Roles(t)
	dsn := hdb.Serve
	root := t.TempDir()
	hubDir := filepath.Join(root, "hub")
	// The hub serves only a database its owner migrated, and never as
	// the owner.
	if code, _, stderr := sayso(t, ctx, "hub", "--db", dsn, "--addr", "127.0.0.1:0", "--dir", hubDir); code == 0 || !strings.Contains(stderr, "sayso hub migrate") {
		t.Fatalf("hub on a database not migrated: %d %s", code, stderr)
	}
	if code, _, stderr := sayso(t, ctx, "hub", "migrate", "--db", hdb.Owner); code != 0 {
		t.Fatalf("hub migrate: %s", stderr)
	}
	if code, _, stderr := sayso(t, ctx, "hub", "--db", hdb.Owner, "--addr", "127.0.0.1:0", "--dir", hubDir); code == 0 || !strings.Contains(stderr, "owner") {
		t.Fatalf("hub as the tables' owner: %d %s", code, stderr)
	}
	out, _ := background(t, "hub", "--db", dsn, "--addr", "127.0.0.1:0", "--dir", hubDir)
	m := waitOutput(t, out, regexp.MustCompile(`hub ready on (https://[0-9.:]+)/ \(certificate (sha256:[0-9a-f]{64})\)`))
	base, fp := m[1], m[2]

	code, token, stderr := sayso(t, ctx, "hub", "token", "--db", dsn, "--dir", hubDir, "--person", "ada", "--url", base)
	token = strings.TrimSpace(token)
	if code != 0 || token == "" || !strings.Contains(stderr, "sayso team join "+base+" --token "+token+" --fingerprint "+fp) {
		t.Fatalf("hub token: %d %q %s", code, token, stderr)
	}

	// The org's key and its first bundle, published at the hub.
	policyDir := filepath.Join(root, "policy")
	os.MkdirAll(policyDir, 0o700)
	os.WriteFile(filepath.Join(policyDir, "org.toml"), []byte("mode_cap = \"auto\"\n[[deny]]\ncommand = \"git push --force\"\n"), 0o600)
	code, orgPub, stderr := sayso(t, ctx, "policy", "keygen", filepath.Join(root, "org.key"))
	if code != 0 {
		t.Fatalf("policy keygen: %s", stderr)
	}
	orgPub = strings.TrimSpace(orgPub)
	code, signed, stderr := sayso(t, ctx, "policy", "sign", "--key", filepath.Join(root, "org.key"), "--org", "acme", "--seq", "1", policyDir)
	if code != 0 {
		t.Fatalf("policy sign: %s", stderr)
	}
	os.WriteFile(filepath.Join(root, "bundle.json"), []byte(signed), 0o600)
	if code, _, stderr := sayso(t, ctx, "hub", "publish", "--db", dsn, filepath.Join(root, "bundle.json")); code != 0 {
		t.Fatalf("hub publish: %s", stderr)
	}

	// The machine joins.
	node := func(name string) string {
		dir := filepath.Join(root, name)
		for _, d := range []string{"config", "state"} {
			os.MkdirAll(filepath.Join(dir, d), 0o700)
		}
		return dir
	}
	ada := node("ada-laptop")
	code, stdout, stderr := sayso(t, ctx, at(ada, "team", "join", base, "--token", token, "--fingerprint", fp, "--org-key", orgPub, "--org", "acme", "--name", "ada-laptop")...)
	if code != 0 || !strings.Contains(stdout, "of ada") || !strings.Contains(stdout, "took org bundle acme #1") {
		t.Fatalf("team join: %d %s %s", code, stdout, stderr)
	}
	st, joined, err := team.ReadState(filepath.Join(ada, "config"))
	if err != nil || !joined || st.HubPin != fp || st.Person != "ada" || st.Seq != 1 || st.Org != "acme" {
		t.Fatalf("the node's team state: %+v, %v", st, err)
	}
	if got := team.Load(filepath.Join(ada, "config"), time.Now()); got.Org == nil || len(got.Org.Entries) != 1 {
		t.Fatalf("the node decides without the org's deny: %+v (%s)", got.Org, got.Why)
	}
	if fi, err := os.Stat(filepath.Join(ada, "config", team.KeyFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the node's key: %v, %v; want a file of mode 0600", fi, err)
	}

	// The token is spent.
	mallory := node("mallory-box")
	code, _, stderr = sayso(t, ctx, at(mallory, "team", "join", base, "--token", token, "--fingerprint", fp, "--org-key", orgPub, "--name", "mallory-box")...)
	if code == 0 || !strings.Contains(stderr, "unknown, used or expired") {
		t.Fatalf("the token used twice: %d %s", code, stderr)
	}

	// sayso serve on the node ships its ledger to the hub.
	for _, note := range []string{"prod is db-1", "prod is db-2"} {
		if code, _, stderr := sayso(t, ctx, at(ada, "note", "set", writeFile(t, filepath.Join(root, "note"), note))...); code != 0 {
			t.Fatalf("note set: %s", stderr)
		}
	}
	serveOut, stopServe := background(t, at(ada, "serve", "--addr", "127.0.0.1:0")...)
	waitOutput(t, serveOut, regexp.MustCompile(`sayso: ready`))
	h, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	db, err := store.Open(ctx, filepath.Join(ada, "state", store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	testenv.Wait(t, "sayso serve to ship every ledger row of the node", func() (bool, string) {
		local, _ := db.Log(ctx, store.LogFilter{})
		held, _ := h.Ledger(ctx, 1, 1000) // ada, the hub's first person
		return len(local) > 0 && len(held) == len(local), fmt.Sprintf("%d of %d rows at the hub", len(held), len(local))
	})
	stopServe()

	// sayso log --team: the hub's rows of the person's machines, printed
	// as sayso log prints this machine's, each named by its machine.
	code, local, stderr := sayso(t, ctx, at(ada, "log")...)
	if code != 0 || local == "" {
		t.Fatalf("log: %d %s %s", code, local, stderr)
	}
	code, teamLog, stderr := sayso(t, ctx, at(ada, "log", "--team")...)
	if want := regexp.MustCompile(`(?m)^`).ReplaceAllString(strings.TrimSuffix(local, "\n"), "ada-laptop:") + "\n"; code != 0 || teamLog != want {
		t.Fatalf("log --team: %d %s\n%q\nwant\n%q", code, stderr, teamLog, want)
	}
	lines := strings.Split(strings.TrimSuffix(teamLog, "\n"), "\n")
	if code, last, stderr := sayso(t, ctx, at(ada, "log", "--team", "--limit", "1")...); code != 0 || len(lines) < 2 || last != lines[len(lines)-1]+"\n" {
		t.Fatalf("log --team --limit 1: %d %q %s", code, last, stderr)
	}
	code, found, stderr := sayso(t, ctx, at(ada, "log", "--team", "--kind", "setting-changed", "--json")...)
	var row struct {
		Node  string      `json:"node"`
		Entry store.Entry `json:"entry"`
	}
	if code != 0 || strings.Count(found, "\n") != 2 || json.Unmarshal([]byte(found[strings.Index(found, "\n")+1:]), &row) != nil || row.Node != "ada-laptop" || row.Entry.Kind != "setting-changed" {
		t.Fatalf("log --team --kind setting-changed --json: %d %q %s", code, found, stderr)
	}
	if code, _, stderr := sayso(t, ctx, at(mallory, "log", "--team")...); code == 0 || !strings.Contains(stderr, "joined no hub") {
		t.Fatalf("log --team on a machine in no team: %d %s", code, stderr)
	}

	// sayso log --team --follow: the matching rows, then each one the hub
	// takes after, once.
	followed, stopFollow := background(t, at(ada, "log", "--team", "--follow", "--kind", "setting-changed")...)
	count := func() int { return strings.Count(followed.String(), "setting-changed") }
	waitOutput(t, followed, regexp.MustCompile(`(?s)setting-changed.*setting-changed`))
	if code, _, stderr := sayso(t, ctx, at(ada, "note", "set", writeFile(t, filepath.Join(root, "note"), "prod is db-3"))...); code != 0 {
		t.Fatalf("note set: %s", stderr)
	}
	serveOut, stopServe = background(t, at(ada, "serve", "--addr", "127.0.0.1:0")...)
	waitOutput(t, serveOut, regexp.MustCompile(`sayso: ready`))
	waitOutput(t, followed, regexp.MustCompile(`(?s)(setting-changed.*){3}`))
	// A fourth row, taken after the third was printed: once it is
	// printed, the follower has asked past the first three, and must
	// have printed none of them again.
	if code, _, stderr := sayso(t, ctx, at(ada, "note", "set", writeFile(t, filepath.Join(root, "note"), "prod is db-4"))...); code != 0 {
		t.Fatalf("note set: %s", stderr)
	}
	waitOutput(t, followed, regexp.MustCompile(`(?s)(setting-changed.*){4}`))
	stopServe()
	stopFollow()
	if n := count(); n != 4 {
		t.Fatalf("log --team --follow printed %d setting-changed rows, want 4 (each once): %s", n, followed.String())
	}

	// The machine leaves: the hub hears it, and the node's key signs
	// nothing more there.
	key, err := team.ReadNodeKey(filepath.Join(ada, "config"))
	if err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := sayso(t, ctx, at(ada, "team", "leave")...); code != 0 || stderr != "" {
		t.Fatalf("team leave: %d %s %s", code, stdout, stderr)
	}
	if _, _, err := hubapi.NewClient(base, fp, st.Node, key).Head(ctx, st.Node); !refusedWith(err, http.StatusUnauthorized) {
		t.Fatalf("a request signed by the key of a node that left: %v, want 401", err)
	}
	if _, err := os.Stat(filepath.Join(ada, "config", team.KeyFile)); !os.IsNotExist(err) {
		t.Fatalf("the node's key is still on the machine after leaving: %v", err)
	}
}

// at names a node's folders on the command line, as the hook lines sayso
// install writes do: then no environment variable decides them.
func at(dir string, args ...string) []string {
	return append([]string{"--state-dir", filepath.Join(dir, "state"), "--config-dir", filepath.Join(dir, "config")}, args...)
}

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
