package hubserver_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hubserver"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// pageClient speaks to a hub's page as a browser's tab does.
type pageClient struct {
	t           *testing.T
	srv         http.Handler
	cookie, tab string
}

func (p *pageClient) do(method, target string, hd map[string]string, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "https://localhost:7475"+target, strings.NewReader(body))
	if p.cookie != "" {
		r.Header.Set("Cookie", "sayso_hub="+p.cookie)
	}
	if p.tab != "" {
		r.Header.Set(hubserver.PageTabHeader, p.tab)
	}
	for k, v := range hd {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	p.srv.ServeHTTP(w, r)
	return w
}

// pageLogin spends a login link of person at srv, as a browser does.
func pageLogin(t *testing.T, h *hub.Hub, srv http.Handler, person string) *pageClient {
	t.Helper()
	token, err := h.MakeLogin(context.Background(), person, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	p := &pageClient{t: t, srv: srv}
	w := p.do("GET", "/login?token="+url.QueryEscape(token), nil, "")
	loc := w.Header().Get("Location")
	if w.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/#tab=") {
		t.Fatalf("login: %d %q", w.Code, loc)
	}
	p.tab = strings.TrimPrefix(loc, "/#tab=")
	for _, c := range w.Result().Cookies() {
		if c.Name == "sayso_hub" {
			p.cookie = c.Value
		}
	}
	return p
}

// TestPageSessionRestart: a browser let in to the hub's page stays in
// when the hub restarts (a new process over the same database), until it
// logs out or its time ends; the database holds only the hashes of its
// secrets. Judged by what the page hands the browser.
func TestPageSessionRestart(t *testing.T) {
	ctx := context.Background()
	hdb := hubtest.Database(t)
	dsn := hdb.Serve
	h1, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	ada, _ := h1.AddPerson(ctx, "ada")
	node, _ := h1.AddNode(ctx, "ada-laptop", ada, false, make([]byte, 32))
	if err := h1.PostCard(ctx, node, "ada-1", []byte(`{"step":"curl https://example.com/a"}`)); err != nil {
		t.Fatal(err)
	}
	p := pageLogin(t, h1, (&hubserver.Server{Hub: h1}).Handler(), "ada")
	other := pageLogin(t, h1, (&hubserver.Server{Hub: h1}).Handler(), "ada")
	if w := p.do("GET", "/page/cards", nil, ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "ada-1") {
		t.Fatalf("the cards before the restart: %d %s", w.Code, w.Body)
	}
	h1.Close()

	h2, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	srv := (&hubserver.Server{Hub: h2}).Handler()
	p.srv, other.srv = srv, srv
	if w := p.do("GET", "/page/cards", nil, ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "ada-1") {
		t.Fatalf("the cards after the restart: %d %s", w.Code, w.Body)
	}
	if w := p.do("POST", "/page/cards/ada-1/answer", map[string]string{"Origin": "https://localhost:7475"}, `{"verdict":"deny"}`); w.Code != http.StatusNoContent {
		t.Fatalf("a deny after the restart: %d %s", w.Code, w.Body)
	}

	owner := pgConn(t, hdb.Super)
	var clear int
	if err := owner.QueryRow(ctx, "SELECT count(*) FROM page_sessions WHERE position($1::bytea IN digest || tab) > 0 OR position($2::bytea IN digest || tab) > 0",
		[]byte(p.cookie), []byte(p.tab)).Scan(&clear); err != nil || clear != 0 {
		t.Fatalf("the database holds a session's secret as it is: %d %v", clear, err)
	}
	d := sha256.Sum256([]byte(p.cookie))
	var held int
	if err := owner.QueryRow(ctx, "SELECT count(*) FROM page_sessions WHERE digest = $1", d[:]).Scan(&held); err != nil || held != 1 {
		t.Fatalf("the session's row by the cookie's hash: %d %v", held, err)
	}

	// Logging out: a request of another origin, or with the cookie alone,
	// logs no one out; the page's own deletes the row.
	for _, hd := range []map[string]string{{"Origin": "https://evil.example"}, {}} {
		if w := p.do("POST", "/page/logout", hd, ""); w.Code != http.StatusForbidden {
			t.Errorf("a logout from %v: %d", hd, w.Code)
		}
	}
	bare := &pageClient{t: t, srv: srv, cookie: p.cookie}
	if w := bare.do("POST", "/page/logout", map[string]string{"Origin": "https://localhost:7475"}, ""); w.Code != http.StatusUnauthorized {
		t.Errorf("a logout with the cookie alone: %d", w.Code)
	}
	if w := p.do("GET", "/page/cards", nil, ""); w.Code != http.StatusOK {
		t.Fatalf("the session after the refused logouts: %d", w.Code)
	}
	if w := p.do("POST", "/page/logout", map[string]string{"Origin": "https://localhost:7475"}, ""); w.Code != http.StatusNoContent {
		t.Fatalf("logout: %d %s", w.Code, w.Body)
	}
	if err := owner.QueryRow(ctx, "SELECT count(*) FROM page_sessions WHERE digest = $1", d[:]).Scan(&held); err != nil || held != 0 {
		t.Fatalf("the session's row after logout: %d %v", held, err)
	}
	for _, target := range []string{"/page/cards", "/page/ledger"} {
		if w := p.do("GET", target, nil, ""); w.Code != http.StatusUnauthorized {
			t.Errorf("%s after logout: %d", target, w.Code)
		}
	}
	if w := other.do("GET", "/page/cards", nil, ""); w.Code != http.StatusOK {
		t.Errorf("another browser's session after one logged out: %d", w.Code)
	}
	// A session past its time opens nothing.
	if _, err := owner.Exec(ctx, "UPDATE page_sessions SET expires_at = now() - interval '1 second'"); err != nil {
		t.Fatal(err)
	}
	if w := other.do("GET", "/page/cards", nil, ""); w.Code != http.StatusUnauthorized {
		t.Errorf("an expired session: %d", w.Code)
	}
}

// TestPageSessionForged: a session row inserted into the hub's database
// by hand (an admin, a restored backup) opens nothing to whoever does
// not hold the secrets hashed in it, whatever they send built from the
// row itself. Judged by the cards and ledger handed over and the answers
// the hub holds.
func TestPageSessionForged(t *testing.T) {
	ctx := context.Background()
	hdb := hubtest.Database(t)
	dsn := hdb.Serve
	h, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ada, _ := h.AddPerson(ctx, "ada")
	node, _ := h.AddNode(ctx, "ada-laptop", ada, false, make([]byte, 32))
	if err := h.PostCard(ctx, node, "ada-1", []byte(`{"step":"curl https://example.com/a"}`)); err != nil {
		t.Fatal(err)
	}
	secret := func() []byte {
		b := make([]byte, 32)
		rand.Read(b)
		return b
	}
	cookie, tab := sha256.Sum256(secret()), sha256.Sum256(secret())
	if _, err := pgConn(t, hdb.Super).Exec(ctx, "INSERT INTO page_sessions (digest, tab, person_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 hour')",
		cookie[:], tab[:], ada); err != nil {
		t.Fatal(err)
	}
	srv := (&hubserver.Server{Hub: h}).Handler()
	spell := []func([]byte) string{
		hex.EncodeToString, base64.RawURLEncoding.EncodeToString, base64.StdEncoding.EncodeToString,
		func(b []byte) string { return string(b) },
	}
	for _, sc := range spell {
		for _, st := range spell {
			p := &pageClient{t: t, srv: srv, cookie: sc(cookie[:]), tab: st(tab[:])}
			for _, target := range []string{"/page/cards", "/page/ledger"} {
				if w := p.do("GET", target, nil, ""); w.Code != http.StatusUnauthorized || strings.Contains(w.Body.String(), "ada") {
					t.Errorf("%s with the row's own hashes as secrets: %d %s", target, w.Code, w.Body)
				}
			}
			p.do("POST", "/page/cards/ada-1/answer", map[string]string{"Origin": "https://localhost:7475"}, `{"verdict":"deny"}`)
			p.do("POST", "/page/logout", map[string]string{"Origin": "https://localhost:7475"}, "")
		}
	}
	if as, err := h.Answers(ctx, "ada-1"); err != nil || len(as) != 0 {
		t.Fatalf("answers after the forged session: %+v %v", as, err)
	}
	var rows int
	if err := pgConn(t, hdb.Super).QueryRow(ctx, "SELECT count(*) FROM page_sessions").Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("the forged row was logged out by its hashes: %d %v", rows, err)
	}
}

// TestPageRungAfterLostNotification: the page's script waiting for the
// person's cards is rung when a card comes; and when the notification of
// a card is lost, its listener's connection killed before it was sent,
// the card still reaches the waiting script, once the listener connects
// again and re-reads the tables; a change offered or signed rings it too.
// Judged by the cards the waiting request is handed, well before the page
// would have read them on its own.
func TestPageRungAfterLostNotification(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hdb := hubtest.Database(t)
	dsn := hdb.Serve
	h, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ada, _ := h.AddPerson(ctx, "ada")
	node, _ := h.AddNode(ctx, "ada-laptop", ada, false, make([]byte, 32))
	s := &hubserver.Server{Hub: h, PageWait: time.Minute, ListenRetry: 2 * time.Second}
	listening := make(chan struct{})
	go func() { s.Listen(ctx); close(listening) }()
	defer func() { cancel(); <-listening }()
	p := pageClient{t: t, srv: s.Handler()}
	p = *pageLogin(t, h, p.srv, "ada")

	type page struct {
		Cards []struct{ ID string } `json:"cards"`
		Gen   string                `json:"gen"`
	}
	read := func(wait string) page {
		w := p.do("GET", "/page/cards?wait="+wait, nil, "")
		var pg page
		if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &pg) != nil {
			t.Errorf("the page's cards: %d %s", w.Code, w.Body)
		}
		return pg
	}
	// The listener rings once it listens: from then on a card is rung.
	var gen string
	testenv.Wait(t, "the listener to ring", func() (bool, string) {
		gen = read("").Gen
		return !strings.HasSuffix(gen, ".0.0"), "generation " + gen
	})
	waiting := func(gen string) chan page {
		c := make(chan page, 1)
		go func() { c <- read(gen) }()
		return c
	}
	got := func(c chan page, id string) {
		t.Helper()
		select {
		case pg := <-c:
			for _, c := range pg.Cards {
				if c.ID == id {
					gen = pg.Gen
					return
				}
			}
			t.Fatalf("the waiting page was handed %+v, not card %s", pg.Cards, id)
		case <-time.After(testenv.Hang):
			t.Fatalf("card %s did not reach the waiting page within %s", id, testenv.Hang)
		}
	}
	c := waiting(gen)
	time.Sleep(200 * time.Millisecond) // most likely parked on the ring; a request that is not yet reads the card at once
	if err := h.PostCard(ctx, node, "ada-1", []byte(`{"step":"one"}`)); err != nil {
		t.Fatal(err)
	}
	got(c, "ada-1")

	// Another person's card rings only their pages: ada's waits on, and
	// learns nothing of it.
	bob, _ := h.AddPerson(ctx, "bob")
	bobNode, _ := h.AddNode(ctx, "bob-laptop", bob, false, append(make([]byte, 31), 1))
	c = waiting(gen)
	time.Sleep(200 * time.Millisecond)
	if err := h.PostCard(ctx, bobNode, "bob-1", []byte(`{"step":"bob's"}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case pg := <-c:
		t.Fatalf("bob's card rang ada's page: %+v", pg)
	case <-time.After(2 * time.Second):
	}
	if err := h.PostCard(ctx, node, "ada-b", []byte(`{"step":"after bob's"}`)); err != nil {
		t.Fatal(err)
	}
	got(c, "ada-b")

	// The listener's connection killed, and a card posted before it
	// connects again: its notification goes to no one.
	c = waiting(gen)
	time.Sleep(200 * time.Millisecond)
	var killed bool
	if err := pgConn(t, hdb.Super).QueryRow(ctx, `SELECT coalesce(bool_and(pg_terminate_backend(pid, 5000)), false) FROM pg_stat_activity
		WHERE application_name = $1 AND datname = current_database()`, hub.ListenerName).Scan(&killed); err != nil || !killed {
		t.Fatalf("kill the listener's connection: %v %v", killed, err)
	}
	if err := h.PostCard(ctx, node, "ada-2", []byte(`{"step":"two"}`)); err != nil {
		t.Fatal(err)
	}
	got(c, "ada-2")

	// A change offered for ada, and her signature of it, ring her
	// waiting page too: it reads the changes to sign at each ring.
	rung := func(what string, do func() error) {
		t.Helper()
		c := waiting(gen)
		time.Sleep(200 * time.Millisecond)
		if err := do(); err != nil {
			t.Fatal(err)
		}
		select {
		case pg := <-c:
			gen = pg.Gen
		case <-time.After(testenv.Hang):
			t.Fatalf("%s did not ring the waiting page within %s", what, testenv.Hang)
		}
	}
	rung("a change offered", func() error { return h.OfferChange(ctx, node, []byte(`{"change":1}`)) })
	cs, err := h.OfferedChanges(ctx, ada)
	if err != nil || len(cs) != 1 {
		t.Fatalf("the changes offered: %+v %v", cs, err)
	}
	rung("a change signed", func() error { return h.SignChange(ctx, ada, cs[0].ID, [][]byte{[]byte("a signature")}) })
}
