package web

import (
	"bufio"
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/testenv"
)

func TestNoteSavedAsTyped(t *testing.T) {
	f := newFixture(t, nil)
	person, csrf := f.login()
	ctx := context.Background()
	// A form sends line breaks as CR LF; the note keeps the LF typed.
	typed := "\nfirst line starts after a newline\r\n  indented «prod» → fly.io\r\n\r\n日本語 ✓ 🚀  "
	want := strings.ReplaceAll(typed, "\r\n", "\n")
	res, _ := f.post(person, "/note", url.Values{"csrf": {csrf}, "note": {typed}}, nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save note: status %d", res.StatusCode)
	}
	if got, _ := f.mem.Note(ctx); got != want {
		t.Errorf("note kept %q, want %q", got, want)
	}
	// The page gives it back exactly: the textarea's leading newline
	// survives the HTML parser.
	body, _ := f.get(person, "/note", nil)
	if !strings.Contains(body, ">\n\nfirst line") {
		t.Errorf("the page loses the note's leading newline")
	}
	// 2000 characters are kept; 2001 are refused and nothing changes.
	long := strings.Repeat("é", MaxNote)
	if res, _ := f.post(person, "/note", url.Values{"csrf": {csrf}, "note": {long}}, nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("2000 characters: status %d", res.StatusCode)
	}
	res, body = f.post(person, "/note", url.Values{"csrf": {csrf}, "note": {long + "x"}}, nil)
	if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "at most 2000") {
		t.Errorf("2001 characters: status %d", res.StatusCode)
	}
	if got, _ := f.mem.Note(ctx); got != long {
		t.Error("a refused note changed the note")
	}
}

func TestEventsTellOfNewCards(t *testing.T) {
	f := newFixture(t, nil)
	person, _ := f.login()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Hang)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.base+"/events", nil)
	res, err := person.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("events: status %d, %s", res.StatusCode, ct)
	}
	r := bufio.NewReader(res.Body)
	next := func() string {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("read events: %v", err)
			}
			if strings.HasPrefix(line, "event: ") {
				return strings.TrimSpace(strings.TrimPrefix(line, "event: "))
			}
		}
	}
	if e := next(); e != "ready" {
		t.Fatalf("first event %q, want ready", e)
	}
	f.seed()
	if e := next(); e != "cards" {
		t.Fatalf("event %q, want cards", e)
	}
	// The stream carries no card: the page fetches them.
	body, code := f.get(person, "/cards", nil)
	if code != http.StatusOK || !strings.Contains(body, "git push origin feature/login") || strings.Contains(body, "<html") {
		t.Errorf("cards fragment: status %d", code)
	}
}

func TestWatchNotifiesOncePerCard(t *testing.T) {
	mem := NewMemory(nil)
	got := make(chan string, 10)
	srv, err := New(mem, Options{Addr: "127.0.0.1:7345", Notify: func(c card.Card) { got <- c.Summary() }})
	if err != nil {
		t.Fatal(err)
	}
	first := mem.AddCard(card.Card{Session: "s1", Agent: "claude", Step: "git push origin main", Classes: []string{"remote-write"}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Watch(ctx); close(done) }()
	next := func() string {
		t.Helper()
		select {
		case s := <-got:
			return s
		case <-time.After(testenv.Hang):
			t.Fatalf("no notification in %v", testenv.Hang)
			return ""
		}
	}
	want := "sayso asks: git push origin main (remote-write) — claude"
	if s := next(); s != want {
		t.Errorf("notified %q, want %q", s, want)
	}
	mem.AddCard(card.Card{Session: "s1", Step: "npm publish", Classes: []string{"publish"}})
	if s := next(); s != "sayso asks: npm publish (publish)" {
		t.Errorf("notified %q", s)
	}
	mem.Answer(ctx, first.ID, card.Deny, "")
	// A card added after the answer is notified once the watch has seen
	// the answer too: a notification the answer made would come first,
	// or with it.
	mem.AddCard(card.Card{Session: "s1", Step: "make deploy", Classes: []string{"deploy"}})
	if s := next(); s != "sayso asks: make deploy (deploy)" {
		t.Errorf("notified %q, want the card added after the answer", s)
	}
	cancel()
	<-done
	select {
	case s := <-got:
		t.Errorf("notified again: %q", s)
	default:
	}
}

func TestSearchFindsSettingsRulesSessions(t *testing.T) {
	f := newFixture(t, nil)
	offering, _ := f.seed()
	person, csrf := f.login()
	f.confirmed(person, csrf, offering, "always")
	for q, want := range map[string]string{
		"default_mode": "/settings#setting-default_mode",
		"feature":      "/rules#rule-",
		"codex":        "/sessions#session-s2",
		"t1":           "/sessions#session-t1",
		"environment":  "/note",
	} {
		body, code := f.get(person, "/search.json?q="+url.QueryEscape(q), nil)
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("search %q: status %d, %s; want %s", q, code, body, want)
		}
	}
}

func TestLeasesModesRelease(t *testing.T) {
	f := newFixture(t, nil)
	f.seed()
	person, csrf := f.login()
	ctx := context.Background()
	grant := func(category, session, cwd, minutes string) int {
		res, _ := f.post(person, "/leases", url.Values{"csrf": {csrf}, "category": {category}, "session": {session}, "cwd": {cwd}, "minutes": {minutes}}, nil)
		return res.StatusCode
	}
	for _, bad := range [][4]string{
		{"secret", "s1", "/home/p/proj", "5"},       // not a leasable category
		{"remote-write", "", "/home/p/proj", "5"},   // no session
		{"remote-write", "s1", "proj", "5"},         // not absolute
		{"remote-write", "s1", "/home/p/../p", "5"}, // not clean
		{"remote-write", "s1", "/home/p/proj", "16"},
		{"remote-write", "s1", "/home/p/proj", "0"},
	} {
		if code := grant(bad[0], bad[1], bad[2], bad[3]); code != http.StatusBadRequest {
			t.Errorf("grant %v: status %d, want 400", bad, code)
		}
	}
	if code := grant("remote-write", "nobody", "/home/p/proj", "5"); code != http.StatusNotFound {
		t.Errorf("grant for an unknown session: status %d, want 404", code)
	}
	if code := grant("remote-write", "s1", "/home/p/proj", "5"); code != http.StatusSeeOther {
		t.Fatalf("grant: status %d", code)
	}
	leases, _ := f.mem.Leases(ctx)
	if len(leases) != 1 || leases[0].Expires.Sub(leases[0].Created) != 5*time.Minute || leases[0].State != "live" {
		t.Fatalf("leases = %+v", leases)
	}
	if res, _ := f.post(person, "/leases/"+leases[0].ID+"/revoke", url.Values{"csrf": {csrf}}, nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("revoke: status %d", res.StatusCode)
	}
	if leases, _ = f.mem.Leases(ctx); leases[0].State != "revoked" {
		t.Errorf("lease state %s after revoke", leases[0].State)
	}

	if res, _ := f.post(person, "/sessions/s2/mode", url.Values{"csrf": {csrf}, "mode": {"yolo"}}, nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("mode yolo: status %d, want 400", res.StatusCode)
	}
	if res, _ := f.post(person, "/sessions/s2/mode", url.Values{"csrf": {csrf}, "mode": {"autopilot"}}, nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("mode autopilot: status %d", res.StatusCode)
	}
	// Deny and hold, then release.
	c := f.mem.AddCard(card.Card{Session: "s2", Step: "sudo rm -rf /", Classes: []string{"privilege"}, NoOffer: "privilege: no words lift it"})
	if res, _ := f.post(person, "/cards/"+c.ID+"/answer", answerForm(csrf, "deny-hold"), nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("deny-hold: status %d", res.StatusCode)
	}
	ss, _ := f.mem.Sessions(ctx)
	if !ss[1].Held || ss[1].Mode.String() != "autopilot" {
		t.Errorf("s2 = %+v, want held, in autopilot", ss[1])
	}
	body, _ := f.get(person, "/sessions", nil)
	if !strings.Contains(body, `action="/sessions/s2/release"`) {
		t.Error("no release button for the held session")
	}
	if res, _ := f.post(person, "/sessions/s2/release", url.Values{"csrf": {csrf}}, nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("release: status %d", res.StatusCode)
	}
	if ss, _ = f.mem.Sessions(ctx); ss[1].Held {
		t.Error("s2 still held after release")
	}
}

// The ledger page shows one page of rows, newest first, and links to
// the next, which starts below the last row shown and keeps the filter.
func TestLedgerPages(t *testing.T) {
	f := newFixture(t, nil)
	f.seed()
	for i := range ledgerLimit + 30 {
		f.mem.AddEntry(Entry{Kind: "decision", Session: "s1", Decision: "allow", Summary: fmt.Sprintf("allow ls dir%03d", i)})
	}
	person, _ := f.login()
	body, code := f.get(person, "/ledger?text=allow+ls", nil)
	if code != http.StatusOK || strings.Count(body, `<li id="entry-`) != ledgerLimit || !strings.Contains(body, "allow ls dir129") || strings.Contains(body, "allow ls dir029") {
		t.Fatalf("the first page: status %d, %d rows", code, strings.Count(body, `<li id="entry-`))
	}
	m := regexp.MustCompile(`<a href="(/ledger\?[^"]+)" rel="next">Older rows</a>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("the first page links to no older rows")
	}
	next := html.UnescapeString(m[1])
	if !strings.Contains(next, "text=allow+ls") || !strings.Contains(next, "before=") {
		t.Errorf("the older rows' link %q does not keep the filter", next)
	}
	body, _ = f.get(person, next, nil)
	if n := strings.Count(body, `<li id="entry-`); n != 30 || !strings.Contains(body, "allow ls dir029") || !strings.Contains(body, "allow ls dir000") || strings.Contains(body, "allow ls dir030") {
		t.Errorf("the second page holds %d rows, want the 30 older ones", n)
	}
	if strings.Contains(body, `rel="next"`) {
		t.Error("the last page links to older rows")
	}
}

// The ledger page renders a finding's words from its reason's kind, not
// from the words the row was written with, and marks it with the kind; a
// kind it does not know keeps the row's words.
func TestLedgerRendersFindingsFromKinds(t *testing.T) {
	f := newFixture(t, nil)
	f.seed()
	f.mem.AddEntry(Entry{Kind: "decision", Session: "s1", Decision: "ask", Summary: "ask git push -f origin main", Findings: []Finding{
		{Class: "force-remote", Words: "stale words of an older sayso", Reason: risk.PushesForce.By("git", "push", "+main")},
		{Class: "opaque", Words: "words of a kind this sayso does not know"},
	}})
	person, _ := f.login()
	body, code := f.get(person, "/ledger", nil)
	if code != http.StatusOK {
		t.Fatalf("ledger: status %d", code)
	}
	for _, want := range []string{
		`data-reason="push-force"`,
		"git push overwrites remote history: +main",
		"words of a kind this sayso does not know",
	} {
		if !strings.Contains(html.UnescapeString(body), want) {
			t.Errorf("the ledger page does not hold %q", want)
		}
	}
	if strings.Contains(body, "stale words") {
		t.Error("the ledger page shows the row's words instead of the kind's")
	}
}
