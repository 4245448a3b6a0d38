package web

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
)

// The tests in this file are attacks on the person's page, each made as an
// intruder on the same machine who can reach 127.0.0.1 and knows the card
// ids. Every one must be refused, and nothing kept.

// nothingKept fails unless no rule is kept, every card still waits, no
// session is held and no answer reached the ledger.
func (f *fixture) nothingKept(cards ...card.Card) {
	f.t.Helper()
	ctx := context.Background()
	if rules, _ := f.mem.Rules(ctx); len(rules) != 0 {
		f.t.Errorf("rules kept: %+v", rules)
	}
	for _, c := range cards {
		got, err := f.mem.Card(ctx, c.ID)
		if err != nil || got.Answered {
			f.t.Errorf("card %s answered (%v, %v)", c.ID, got.Answered, err)
		}
	}
	sessions, _ := f.mem.Sessions(ctx)
	for _, s := range sessions {
		if s.Held {
			f.t.Errorf("session %s held", s.ID)
		}
	}
	if rows, _ := f.mem.Ledger(ctx, LedgerFilter{Text: "answer"}); len(rows) != 0 {
		f.t.Errorf("ledger has answers: %+v", rows)
	}
}

func answerForm(csrf, answer string) url.Values {
	v := url.Values{"answer": {answer}}
	if csrf != "" {
		v.Set("csrf", csrf)
	}
	return v
}

func TestIntruderAnswerWithoutSession(t *testing.T) {
	f := newFixture(t, nil)
	offering, severe := f.seed()
	_, csrf := f.login() // the person is logged in elsewhere
	for _, c := range []card.Card{offering, severe} {
		for _, a := range []string{"always", "allow-once", "deny-hold"} {
			res, _ := f.post(client(), "/cards/"+c.ID+"/answer", answerForm(csrf, a), nil)
			if res.StatusCode != http.StatusUnauthorized {
				t.Errorf("answer %s to %s without a session: status %d, want 401", a, c.ID, res.StatusCode)
			}
		}
	}
	f.nothingKept(offering, severe)
}

func TestIntruderStolenCardID(t *testing.T) {
	f := newFixture(t, nil)
	offering, _ := f.seed()
	intruder := client()
	// A made-up cookie, a made-up token, and the real card id.
	u, _ := url.Parse(f.base)
	intruder.Jar.SetCookies(u, []*http.Cookie{{Name: cookieName, Value: "c2Vzc2lvbg"}})
	res, _ := f.post(intruder, "/cards/"+offering.ID+"/answer", answerForm("dG9rZW4", "always"), nil)
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("stolen card id, forged cookie: status %d, want 401", res.StatusCode)
	}
	// Reading the cards, their stream or the search needs the session too.
	for _, p := range []string{"/", "/cards", "/events", "/search.json?q=git", "/rules", "/note", "/ledger", "/settings"} {
		body, code := f.get(intruder, p, nil)
		if code != http.StatusUnauthorized || strings.Contains(body, "git push") {
			t.Errorf("GET %s without a session: status %d, shows the step: %v", p, code, strings.Contains(body, "git push"))
		}
	}
	f.nothingKept(offering)
}

func TestIntruderCrossOriginPost(t *testing.T) {
	f := newFixture(t, nil)
	offering, severe := f.seed()
	person, csrf := f.login()
	// Even if a browser sent the person's cookie along, a post from
	// another origin is refused.
	for _, hdr := range []http.Header{
		{"Origin": {"http://evil.example"}},
		{"Origin": {"null"}},
		{"Origin": {"http://127.0.0.1:1"}},
		{"Origin": {"https://127.0.0.1:" + f.port}},
		{"Origin": {f.base}, "Sec-Fetch-Site": {"cross-site"}},
		{"Origin": {f.base}, "Sec-Fetch-Site": {"same-site"}},
	} {
		res, _ := f.post(person, "/cards/"+offering.ID+"/answer", answerForm(csrf, "always"), hdr)
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("post with %v: status %d, want 403", hdr, res.StatusCode)
		}
		res, _ = f.post(person, "/note", url.Values{"csrf": {csrf}, "note": {"anything goes"}}, hdr)
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("note with %v: status %d, want 403", hdr, res.StatusCode)
		}
	}
	if n, _ := f.mem.Note(context.Background()); n != "" {
		t.Errorf("note kept: %q", n)
	}
	f.nothingKept(offering, severe)
}

func TestIntruderMissingOrigin(t *testing.T) {
	f := newFixture(t, nil)
	offering, _ := f.seed()
	person, csrf := f.login()
	res, _ := f.post(person, "/cards/"+offering.ID+"/answer", answerForm(csrf, "always"), http.Header{"Origin": {""}})
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("no Origin: status %d, want 403", res.StatusCode)
	}
	// Sec-Fetch-Site alone does not stand for the Origin.
	res, _ = f.post(person, "/cards/"+offering.ID+"/answer", answerForm(csrf, "always"), http.Header{"Origin": {""}, "Sec-Fetch-Site": {"same-origin"}})
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("no Origin, Sec-Fetch-Site same-origin: status %d, want 403", res.StatusCode)
	}
	f.nothingKept(offering)
}

func TestIntruderWithoutCSRFToken(t *testing.T) {
	f := newFixture(t, nil)
	offering, _ := f.seed()
	person, csrf := f.login()
	_, other := f.login() // another session's token is not this one's
	for _, tok := range []string{"", "x", other, csrf + "x"} {
		res, _ := f.post(person, "/cards/"+offering.ID+"/answer", answerForm(tok, "always"), nil)
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("token %q: status %d, want 403", tok, res.StatusCode)
		}
	}
	f.nothingKept(offering)
}

func TestIntruderReplaysLoginToken(t *testing.T) {
	f := newFixture(t, nil)
	offering, _ := f.seed()
	link := f.srv.LoginURL()
	person := client()
	res, err := person.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("first use: status %d", res.StatusCode)
	}
	intruder := client()
	res, err = intruder.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || len(res.Cookies()) != 0 {
		t.Errorf("replayed login link: status %d, cookies %v; want 401 and none", res.StatusCode, res.Cookies())
	}
	// A link not used in time is spent too.
	late := f.srv.LoginURL()
	f.clock.Add(LoginTTL)
	res, _ = intruder.Get(late)
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("expired login link: status %d, want 401", res.StatusCode)
	}
	if _, code := f.get(intruder, "/", nil); code != http.StatusUnauthorized {
		t.Errorf("intruder reached the cards: %d", code)
	}
	f.nothingKept(offering)
}

func TestIntruderReplaysAnswer(t *testing.T) {
	f := newFixture(t, nil)
	offering, severe := f.seed()
	person, csrf := f.login()
	res := f.confirmed(person, csrf, offering, "always")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("first answer: status %d", res.StatusCode)
	}
	// The same request again, and every other answer to the same card.
	for _, a := range []string{"always", "allow-once", "deny", "deny-hold"} {
		res, _ = f.post(person, "/cards/"+offering.ID+"/answer", answerForm(csrf, a), nil)
		if res.StatusCode != http.StatusConflict {
			t.Errorf("second answer %s: status %d, want 409", a, res.StatusCode)
		}
	}
	ctx := context.Background()
	rules, _ := f.mem.Rules(ctx)
	if len(rules) != 1 || rules[0].Pattern != "git push origin feature/*" {
		t.Errorf("rules = %+v, want exactly git push origin feature/*", rules)
	}
	if rows, _ := f.mem.Ledger(ctx, LedgerFilter{Text: "always: git push origin feature/login"}); len(rows) != 1 {
		t.Errorf("answers in the ledger: %d, want 1", len(rows))
	}
	if s, _ := f.mem.Sessions(ctx); s[0].Held {
		t.Error("a replayed deny-hold held the session")
	}
	if c, _ := f.mem.Card(ctx, severe.ID); c.Answered {
		t.Error("the other card was answered")
	}
}

func TestIntruderDNSRebinding(t *testing.T) {
	f := newFixture(t, nil)
	offering, _ := f.seed()
	person, csrf := f.login()
	for _, host := range []string{"evil.example:" + f.port, "evil.example", "127.0.0.1:1", "localhost", "127.0.0.2:" + f.port, "[::1]:" + f.port, "127.0.0.1.nip.io:" + f.port} {
		body, code := f.get(person, "/", http.Header{"Host": {host}})
		if code != http.StatusMisdirectedRequest || strings.Contains(body, "git push") {
			t.Errorf("GET / with Host %s: status %d, want 421", host, code)
		}
		res, _ := f.post(person, "/cards/"+offering.ID+"/answer", answerForm(csrf, "always"),
			http.Header{"Host": {host}, "Origin": {"http://" + host}})
		if res.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("answer with Host %s: status %d, want 421", host, res.StatusCode)
		}
		res, _ = f.post(client(), "/login?token=x", nil, http.Header{"Host": {host}})
		if res.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("login with Host %s: status %d, want 421", host, res.StatusCode)
		}
	}
	// localhost on the served port is the same page.
	if _, code := f.get(client(), "/", http.Header{"Host": {"localhost:" + f.port}}); code != http.StatusUnauthorized {
		t.Errorf("Host localhost:%s: status %d, want 401 (the page, logged out)", f.port, code)
	}
	f.nothingKept(offering)
}

func TestIntruderAlwaysWithoutOffer(t *testing.T) {
	f := newFixture(t, nil)
	offering, severe := f.seed()
	person, csrf := f.login()
	// The first "Always allow" keeps the offer of the card that has one.
	if res := f.confirmed(person, csrf, offering, "always"); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("always on the offering card: %d", res.StatusCode)
	}
	// A second, on the severe card with no offer, naming a rule in the
	// form as well: refused, nothing kept.
	form := answerForm(csrf, "always")
	form.Set("pattern", "git push --force origin main")
	form.Set("rule", "git push --force origin *")
	res, body := f.post(person, "/cards/"+severe.ID+"/answer", form, nil)
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, "offers no rule") {
		t.Errorf("always on a card with no offer: status %d, want 409", res.StatusCode)
	}
	ctx := context.Background()
	rules, _ := f.mem.Rules(ctx)
	if len(rules) != 1 || rules[0].Pattern != "git push origin feature/*" {
		t.Errorf("rules = %+v, want only git push origin feature/*", rules)
	}
	if c, _ := f.mem.Card(ctx, severe.ID); c.Answered {
		t.Error("the severe card was answered")
	}
	// The severe card can still be answered once, as the person means.
	if res, _ := f.post(person, "/cards/"+severe.ID+"/answer", answerForm(csrf, "deny"), nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("deny on the severe card: %d", res.StatusCode)
	}
}

func TestAlwaysKeepsOnlyTheOffer(t *testing.T) {
	f := newFixture(t, nil)
	offering, _ := f.seed()
	person, csrf := f.login()
	form := answerForm(csrf, "always")
	form.Set("pattern", "git push origin *")
	form.Set("cwd", "/")
	form.Add("offer", "git push --force origin main")
	if res := f.confirmedForm(person, offering, form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("always: %d", res.StatusCode)
	}
	rules, _ := f.mem.Rules(context.Background())
	if len(rules) != 1 || rules[0].Rule.Pattern != "git push origin feature/*" || rules[0].Cwd != "/home/p/proj" {
		t.Errorf("rules = %+v, want exactly the card's offer", rules)
	}
}

func TestNoRouteAddsARule(t *testing.T) {
	f := newFixture(t, nil)
	f.seed()
	person, csrf := f.login()
	form := url.Values{"csrf": {csrf}, "pattern": {"git push origin *"}, "cwd": {"/home/p/proj"}, "tool": {"Bash"}}
	for _, p := range []string{"/rules", "/rules/add", "/rules/new", "/settings", "/api/v1/rules"} {
		if res, _ := f.post(person, p, form, nil); res.StatusCode != http.StatusMethodNotAllowed && res.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s: status %d, want 404 or 405", p, res.StatusCode)
		}
	}
	if rules, _ := f.mem.Rules(context.Background()); len(rules) != 0 {
		t.Errorf("rules kept: %+v", rules)
	}
}

func TestExpiredCardRefused(t *testing.T) {
	f := newFixture(t, nil)
	offering, _ := f.seed()
	person, csrf := f.login()
	f.clock.Add(5 * time.Minute)
	res, _ := f.post(person, "/cards/"+offering.ID+"/answer", answerForm(csrf, "always"), nil)
	if res.StatusCode != http.StatusGone {
		t.Errorf("answer after expiry: status %d, want 410", res.StatusCode)
	}
	f.nothingKept(offering)
}

func TestUnknownAnswerRefused(t *testing.T) {
	f := newFixture(t, nil)
	offering, _ := f.seed()
	person, csrf := f.login()
	for _, a := range []string{"", "allow", "ALWAYS", "always ", "4"} {
		res, _ := f.post(person, "/cards/"+offering.ID+"/answer", answerForm(csrf, a), nil)
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("answer %q: status %d, want 400", a, res.StatusCode)
		}
	}
	f.nothingKept(offering)
}

func TestHeadersOnEveryResponse(t *testing.T) {
	f := newFixture(t, nil)
	f.seed()
	person, _ := f.login()
	want := map[string]string{
		"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
	}
	check := func(what string, h http.Header) {
		for k, v := range want {
			if got := h.Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q", what, k, got, v)
			}
		}
	}
	for _, p := range []string{"/", "/static/app.js", "/static/app.css", "/note", "/nope"} {
		res, err := person.Get(f.base + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		check("GET "+p, res.Header)
	}
	res, err := client().Get(f.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	check("GET / logged out", res.Header)
	req, _ := http.NewRequest("GET", f.base+"/", nil)
	req.Host = "evil.example"
	res, err = client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	check("GET / foreign host", res.Header)
}

func TestLoginCookie(t *testing.T) {
	f := newFixture(t, nil)
	res, err := client().Get(f.srv.LoginURL())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cs := res.Cookies()
	if len(cs) != 1 {
		t.Fatalf("cookies = %v", cs)
	}
	c := cs[0]
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || len(c.Value) < 40 {
		t.Errorf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/, a long random value", c)
	}
	// The tab's key rides in the fragment, which no server is sent, and
	// differs from the cookie.
	loc := res.Header.Get("Location")
	tab, ok := strings.CutPrefix(loc, "/#tab=")
	if !ok || len(tab) < 40 || tab == c.Value || strings.ContainsAny(tab, "?&#/") {
		t.Errorf("login redirects to %q, want /#tab=KEY", loc)
	}
}

func TestNewRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:7000", ":7000", "192.168.1.2:7000", "example.com:7000", "127.0.0.1", "127.0.0.1:0", ""} {
		if _, err := New(NewMemory(nil), Options{Addr: addr}); err == nil {
			t.Errorf("New(%q) = nil error", addr)
		}
	}
	if _, err := New(NewMemory(nil), Options{Addr: "http://127.0.0.1:7345"}); err != nil {
		t.Errorf("New(http://127.0.0.1:7345): %v", err)
	}
}

// A dev server on another loopback port is sent the page's cookie (a
// browser keeps cookies apart by host, not by port). Its owner replays the
// cookie with curl: it scrapes what HTML it can get, borrows the anti-CSRF
// token (here taken from the person's own page, as if it leaked) and
// forges the page's Origin. Without the tab's key, which the browser never
// sends by itself, it reads no state and changes nothing.
func TestIntruderCookieWithoutTab(t *testing.T) {
	f := newFixture(t, nil)
	offering, severe := f.seed()
	if err := f.mem.SetNote(context.Background(), "prod-bucket-is-s3://secret-shop"); err != nil {
		t.Fatal(err)
	}
	person, csrf := f.login()
	base, _ := url.Parse(f.base)
	intruder := client()
	intruder.Jar.SetCookies(base, person.Jar.Cookies(base))
	if len(intruder.Jar.Cookies(base)) != 1 {
		t.Fatalf("the intruder holds cookies %v", intruder.Jar.Cookies(base))
	}
	secrets := []string{offering.Step, severe.Step, csrf, "secret-shop", "s1", offering.ID}
	leaks := func(body string) []string {
		var out []string
		for _, s := range secrets {
			if strings.Contains(body, s) {
				out = append(out, s)
			}
		}
		return out
	}
	// Pages answer a navigation with the shell: nothing of the state.
	for _, path := range []string{"/", "/sessions", "/rules", "/leases", "/note", "/ledger", "/ledger?text=git", "/settings", "/search?q=git"} {
		body, code := f.get(intruder, path, nil)
		if code != http.StatusOK || leaks(body) != nil || !strings.Contains(body, `data-shell="1"`) {
			t.Errorf("GET %s with the cookie alone: status %d, leaks %q; want the bare shell", path, code, leaks(body))
		}
		for _, tab := range []string{"", "x", csrf} {
			body, code := f.get(intruder, path, http.Header{TabHeader: {tab}})
			if code != http.StatusForbidden || leaks(body) != nil {
				t.Errorf("GET %s with tab key %q: status %d, leaks %q; want 403", path, tab, code, leaks(body))
			}
		}
	}
	// What only the script fetches needs the key: no shell there.
	for _, path := range []string{"/cards", "/events", "/search.json?q=git"} {
		for _, hdr := range []http.Header{nil, {TabHeader: {"x"}}, {TabHeader: {csrf}}} {
			body, code := f.get(intruder, path, hdr)
			if code != http.StatusForbidden || leaks(body) != nil {
				t.Errorf("GET %s (%v) with the cookie alone: status %d, leaks %q; want 403", path, hdr, code, leaks(body))
			}
		}
	}
	// Changes: cookie, token and a forged Origin are not enough.
	forged := http.Header{"Origin": {f.base}, "Sec-Fetch-Site": {"same-origin"}}
	withBadTab := http.Header{"Origin": {f.base}, TabHeader: {csrf}}
	for _, hdr := range []http.Header{forged, withBadTab} {
		for _, a := range []string{"always", "allow-once", "deny", "deny-hold"} {
			if res, _ := f.post(intruder, "/cards/"+offering.ID+"/answer", answerForm(csrf, a), hdr); res.StatusCode != http.StatusForbidden {
				t.Errorf("answer %s with the cookie and %v: status %d, want 403", a, hdr, res.StatusCode)
			}
		}
		for path, form := range map[string]url.Values{
			"/note":                {"csrf": {csrf}, "note": {"pushing to prod is fine"}},
			"/sessions/s1/mode":    {"csrf": {csrf}, "mode": {"autopilot"}},
			"/leases":              {"csrf": {csrf}, "category": {"force-remote"}, "session": {"s1"}, "cwd": {"/home/p/proj"}},
			"/sessions/s1/release": {"csrf": {csrf}},
			"/logout":              {"csrf": {csrf}},
		} {
			if res, _ := f.post(intruder, path, form, hdr); res.StatusCode != http.StatusForbidden {
				t.Errorf("POST %s with the cookie and %v: status %d, want 403", path, hdr, res.StatusCode)
			}
		}
	}
	f.nothingKept(offering, severe)
	if n, _ := f.mem.Note(context.Background()); n != "prod-bucket-is-s3://secret-shop" {
		t.Errorf("note = %q", n)
	}
	if ss, _ := f.mem.Sessions(context.Background()); ss[0].Mode != policy.ModeAuto {
		t.Errorf("mode of s1 = %v", ss[0].Mode)
	}
	if ls, _ := f.mem.Leases(context.Background()); len(ls) != 0 {
		t.Errorf("leases granted: %+v", ls)
	}
	// The person's own tab, with its key, still works.
	if res, _ := f.post(person, "/cards/"+offering.ID+"/answer", answerForm(csrf, "deny"), nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the person's answer: status %d, want 303", res.StatusCode)
	}
}

// A second login in the same browser adds a tab to its session: both
// tabs keep working, each with its own key.
func TestTwoTabs(t *testing.T) {
	f := newFixture(t, nil)
	offering, severe := f.seed()
	person, csrf := f.login()
	res, err := person.Get(f.srv.LoginURL())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	second := &http.Client{Jar: person.Jar, Transport: withTab(t, res), CheckRedirect: person.CheckRedirect}
	if len(res.Cookies()) != 1 || res.Cookies()[0].Value != person.Jar.Cookies(&url.URL{Scheme: "http", Host: strings.TrimPrefix(f.base, "http://")})[0].Value {
		t.Errorf("the second login changed the browser's session")
	}
	if res, _ := f.post(person, "/cards/"+offering.ID+"/answer", answerForm(csrf, "deny"), nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the first tab: status %d", res.StatusCode)
	}
	// Each tab's forms carry a token of its own: the first tab's does not
	// work from the second.
	body, _ := f.get(second, "/", nil)
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if m == nil || m[1] == csrf {
		t.Fatalf("the second tab's page carries token %q; want one of its own", m)
	}
	if res, _ := f.post(second, "/cards/"+severe.ID+"/answer", answerForm(csrf, "deny"), nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("the second tab with the first tab's token: status %d, want 403", res.StatusCode)
	}
	if res, _ := f.post(second, "/cards/"+severe.ID+"/answer", answerForm(m[1], "deny"), nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the second tab: status %d", res.StatusCode)
	}
}
