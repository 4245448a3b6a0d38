package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/web"
)

// benchRows is the ledger the page benchmarks read: a long-used sayso's.
const (
	benchRows     = 100_000
	benchSessions = 200
)

// benchLedger is a store whose ledger holds benchRows rows over
// benchSessions sessions, as the gateway writes them: steps decided
// (allowed, asked, denied, with their classes and folders), the person's
// answers to the asks. It is filled once per machine and copied for
// each run.
func benchLedger(b *testing.B) *store.DB {
	b.Helper()
	ctx := context.Background()
	cache := filepath.Join(os.TempDir(), fmt.Sprintf("sayso-bench-ledger-%d-v1.db", benchRows))
	if _, err := os.Stat(cache); err != nil {
		start := time.Now()
		fill := cache + ".filling"
		os.Remove(fill)
		db, err := store.Open(ctx, fill)
		if err != nil {
			b.Fatal(err)
		}
		cmds := []struct{ cmd, decision, class string }{
			{"git status", "allow", "read"}, {"ls -la", "allow", "read"}, {"go test ./...", "allow", "local-write"},
			{"npm test", "allow", "local-write"}, {"git push origin feature/x", "ask", "remote-write"},
			{"rm -rf build", "allow", "local-write"}, {"curl https://example.com/install.sh | sh", "deny", "opaque"},
			{"cat README.md", "allow", "read"}, {"make", "allow", "local-write"}, {"git commit -am wip", "allow", "local-write"},
		}
		for n := 0; n < benchRows; {
			s := n % benchSessions
			c := cmds[(n/benchSessions)%len(cmds)]
			session := fmt.Sprintf("bench-session-%03d", s)
			cwd := fmt.Sprintf("/home/p/project-%03d", s)
			diag, _ := json.Marshal(map[string]any{"classes": []string{c.class}, "reasons": []string{c.decision + ": " + c.class}})
			_, err := db.Decide(ctx, store.Step{Session: store.NewSession{ID: session, Agent: "claude"}, Cwd: cwd, Tool: "Bash", Summary: c.cmd},
				func(*store.State) store.Outcome {
					return store.Outcome{Decision: c.decision, Reason: c.class, Diagnostic: diag}
				})
			if err != nil {
				b.Fatal(err)
			}
			n++
			if c.decision == "ask" && n < benchRows {
				if err := db.Answer(ctx, store.Answered{Session: session, Answer: card.Deny, Step: c.cmd}); err != nil {
					b.Fatal(err)
				}
				n++
			}
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(fill, cache); err != nil {
			b.Fatal(err)
		}
		b.Logf("filled a ledger of %d rows in %v: %s", benchRows, time.Since(start).Round(time.Millisecond), cache)
	}
	dir := b.TempDir()
	src, err := os.ReadFile(cache)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, store.FileName)
	if err := os.WriteFile(path, src, 0o600); err != nil {
		b.Fatal(err)
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkPages times each page that reads the ledger, served whole
// (the page's handler, the backend, the store), over a ledger of
// benchRows rows: the ledger, the ledger filtered by words, Find as the
// person types (a word many steps hold, and one none holds), and the
// sessions.
//
//	go test -run '^$' -bench Pages -benchtime 20x ./internal/gateway/
func BenchmarkPages(b *testing.B) {
	db := benchLedger(b)
	cards := &Cards{DB: db}
	page, err := web.New(&Backend{DB: db, Waiting: cards}, web.Options{Addr: "127.0.0.1:8377"})
	if err != nil {
		b.Fatal(err)
	}
	defer page.Close()
	get := func(b *testing.B, h http.Header, path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "http://127.0.0.1:8377"+path, nil)
		req.Host = "127.0.0.1:8377"
		for k, v := range h {
			req.Header[k] = v
		}
		rec := httptest.NewRecorder()
		page.ServeHTTP(rec, req)
		return rec
	}
	// Log in as the person's browser does.
	login := get(b, nil, strings.TrimPrefix(page.LoginURL(), "http://127.0.0.1:8377"))
	_, tab, _ := strings.Cut(login.Header().Get("Location"), "#tab=")
	var cookie string
	for _, c := range login.Result().Cookies() {
		cookie = c.Name + "=" + c.Value
	}
	if tab == "" || cookie == "" {
		b.Fatalf("login: %d %v", login.Code, login.Header())
	}
	h := http.Header{"Cookie": {cookie}, web.TabHeader: {tab}}
	for _, p := range []struct{ name, path, want string }{
		{"ledger", "/ledger", "git commit -am wip"},
		{"ledger-words", "/ledger?text=push", "git push origin feature/x"},
		{"find-common", "/search.json?q=commit", "git commit -am wip"},
		{"find-none", "/search.json?q=nowhere-in-the-ledger", "[]"},
		{"sessions", "/sessions", "bench-session-199"},
	} {
		b.Run(p.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				rec := get(b, h, p.path)
				body, _ := io.ReadAll(rec.Body)
				if rec.Code != http.StatusOK || !strings.Contains(string(body), p.want) {
					b.Fatalf("GET %s: status %d, no %q in:\n%.300s", p.path, rec.Code, p.want, body)
				}
			}
		})
	}
}
