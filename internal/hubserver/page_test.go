package hubserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hubserver"
)

// TestPageGuards: the hub's page lets a browser in only by a one-time
// link, and answers a card only for the request that carries the
// session's cookie, one of its tabs' keys, the page's Origin and the
// hub's own name, to an open card of that session's person. Judged by
// the answers the hub holds.
func TestPageGuards(t *testing.T) {
	ctx := context.Background()
	h, err := hub.Open(ctx, hubtest.Database(t).Serve)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ada, _ := h.AddPerson(ctx, "ada")
	bob, _ := h.AddPerson(ctx, "bob")
	adaNode, _ := h.AddNode(ctx, "ada-laptop", ada, false, make([]byte, 32))
	bobNode, _ := h.AddNode(ctx, "bob-laptop", bob, false, append(make([]byte, 31), 1))
	for _, c := range []struct {
		node int64
		id   string
	}{{adaNode, "ada-1"}, {bobNode, "bob-1"}} {
		if err := h.PostCard(ctx, c.node, c.id, []byte(`{"card":"`+c.id+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	srv := (&hubserver.Server{Hub: h, Names: []string{"hub.example", "10.0.0.1"}}).Handler()
	do := func(method, target string, hd map[string]string, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		for k, v := range hd {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}

	if _, err := h.MakeLogin(ctx, "carol", time.Minute); err == nil {
		t.Fatal("a login link for a person the hub does not know")
	}
	token, err := h.MakeLogin(ctx, "ada", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	login := "https://localhost:7475/login?token=" + url.QueryEscape(token)
	if w := do("GET", "https://10.0.0.1:7475/login?token="+url.QueryEscape(token), nil, ""); w.Code != http.StatusMisdirectedRequest {
		t.Fatalf("a login at an IP address: %d", w.Code)
	}
	w := do("GET", login, nil, "")
	loc := w.Header().Get("Location")
	if w.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/#tab=") {
		t.Fatalf("login: %d %q", w.Code, loc)
	}
	tab := strings.TrimPrefix(loc, "/#tab=")
	var cookie *http.Cookie
	for _, c := range w.Result().Cookies() {
		cookie = c
	}
	if cookie == nil || !cookie.Secure || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("the session's cookie: %+v", cookie)
	}
	if w := do("GET", login, nil, ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("a login link used twice: %d", w.Code)
	}
	if w := do("GET", "https://localhost:7475/", nil, ""); w.Code != http.StatusOK ||
		!strings.Contains(w.Header().Get("Content-Security-Policy"), "frame-ancestors 'none'") || strings.Contains(w.Body.String(), tab) {
		t.Fatalf("the page's shell: %d %v", w.Code, w.Header())
	}

	page := map[string]string{"Cookie": cookie.Name + "=" + cookie.Value, hubserver.PageTabHeader: tab, "Origin": "https://localhost:7475"}
	with := func(k, v string) map[string]string {
		out := map[string]string{}
		for a, b := range page {
			out[a] = b
		}
		if v == "" {
			delete(out, k)
		} else {
			out[k] = v
		}
		return out
	}
	if w := do("GET", "https://localhost:7475/page/cards", page, ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"ada-1"`) || strings.Contains(w.Body.String(), "bob-1") {
		t.Fatalf("ada's cards: %d %s", w.Code, w.Body)
	}
	if w := do("GET", "https://localhost:7475/page/cards", with(hubserver.PageTabHeader, ""), ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("the cards with the cookie alone: %d", w.Code)
	}
	for name, hd := range map[string]map[string]string{"the cookie alone": with(hubserver.PageTabHeader, ""), "another tab's key": with(hubserver.PageTabHeader, "forged"), "no cookie": with("Cookie", "")} {
		if w := do("GET", "https://localhost:7475/page/ledger", hd, ""); w.Code != http.StatusUnauthorized {
			t.Errorf("the ledger with %s: %d", name, w.Code)
		}
	}
	if w := do("GET", "https://evil.example:7475/page/ledger", page, ""); w.Code != http.StatusMisdirectedRequest {
		t.Errorf("the ledger at a foreign host: %d", w.Code)
	}
	if w := do("GET", "https://localhost:7475/page/ledger", page, ""); w.Code != http.StatusOK || !strings.Contains(w.Header().Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("ada's ledger: %d %s", w.Code, w.Body)
	}
	deny := `{"verdict":"deny"}`
	for _, c := range []struct {
		name, target string
		hd           map[string]string
		body         string
		code         int
	}{
		{"the cookie alone", "https://localhost:7475/page/cards/ada-1/answer", with(hubserver.PageTabHeader, ""), deny, http.StatusUnauthorized},
		{"another tab's key", "https://localhost:7475/page/cards/ada-1/answer", with(hubserver.PageTabHeader, "forged"), deny, http.StatusUnauthorized},
		{"no cookie", "https://localhost:7475/page/cards/ada-1/answer", with("Cookie", ""), deny, http.StatusUnauthorized},
		{"another origin", "https://localhost:7475/page/cards/ada-1/answer", with("Origin", "https://evil.example"), deny, http.StatusForbidden},
		{"no origin", "https://localhost:7475/page/cards/ada-1/answer", with("Origin", ""), deny, http.StatusForbidden},
		{"a foreign host", "https://evil.example:7475/page/cards/ada-1/answer", with("Origin", "https://evil.example:7475"), deny, http.StatusMisdirectedRequest},
		{"another person's card", "https://localhost:7475/page/cards/bob-1/answer", page, deny, http.StatusNotFound},
		{"a yes with no signature", "https://localhost:7475/page/cards/ada-1/answer", page, `{"verdict":"allow-once"}`, http.StatusBadRequest},
		{"an unknown verdict", "https://localhost:7475/page/cards/ada-1/answer", page, `{"verdict":"approve"}`, http.StatusBadRequest},
	} {
		if w := do("POST", c.target, c.hd, c.body); w.Code != c.code {
			t.Errorf("%s: %d, want %d: %s", c.name, w.Code, c.code, w.Body)
		}
	}
	for _, id := range []string{"ada-1", "bob-1"} {
		if as, err := h.Answers(ctx, id); err != nil || len(as) != 0 {
			t.Fatalf("answers to %s after the refusals: %+v %v", id, as, err)
		}
	}
	if w := do("POST", "https://localhost:7475/page/cards/ada-1/answer", page, deny); w.Code != http.StatusNoContent {
		t.Fatalf("ada's deny: %d %s", w.Code, w.Body)
	}
	if as, err := h.Answers(ctx, "ada-1"); err != nil || len(as) != 1 || as[0].Verdict != "deny" {
		t.Fatalf("answers to ada-1: %+v %v", as, err)
	}

	// The changes offered for signing: ada's page lists hers only, and
	// signs one of hers only, with the same guards.
	if err := h.OfferChange(ctx, adaNode, []byte(`{"person":"ada","note":"ada's"}`)); err != nil {
		t.Fatal(err)
	}
	if err := h.OfferChange(ctx, bobNode, []byte(`{"person":"bob","note":"bob's"}`)); err != nil {
		t.Fatal(err)
	}
	offered := func(person int64) hub.Change {
		cs, err := h.OfferedChanges(ctx, person)
		if err != nil || len(cs) != 1 {
			t.Fatalf("changes offered for %d: %+v %v", person, cs, err)
		}
		return cs[0]
	}
	adaChange, bobChange := offered(ada), offered(bob)
	if w := do("GET", "https://localhost:7475/page/changes", page, ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"id":`+strconv.FormatInt(adaChange.ID, 10)) ||
		strings.Contains(w.Body.String(), `"id":`+strconv.FormatInt(bobChange.ID, 10)) {
		t.Fatalf("ada's changes: %d %s", w.Code, w.Body)
	}
	sign := `{"assertions":[{"id":"x"}]}`
	adaSign := "https://localhost:7475/page/changes/" + strconv.FormatInt(adaChange.ID, 10) + "/sign"
	for _, c := range []struct {
		name, target string
		hd           map[string]string
		body         string
		code         int
	}{
		{"the cookie alone", adaSign, with(hubserver.PageTabHeader, ""), sign, http.StatusUnauthorized},
		{"another origin", adaSign, with("Origin", "https://evil.example"), sign, http.StatusForbidden},
		{"another person's change", "https://localhost:7475/page/changes/" + strconv.FormatInt(bobChange.ID, 10) + "/sign", page, sign, http.StatusNotFound},
		{"no signature", adaSign, page, `{"assertions":[]}`, http.StatusBadRequest},
	} {
		if w := do("POST", c.target, c.hd, c.body); w.Code != c.code {
			t.Errorf("sign, %s: %d, want %d: %s", c.name, w.Code, c.code, w.Body)
		}
	}
	for _, p := range []int64{ada, bob} {
		if cs, err := h.SignedChanges(ctx, p, 0); err != nil || len(cs) != 0 {
			t.Fatalf("signed changes of %d after the refusals: %+v %v", p, cs, err)
		}
	}
	if w := do("POST", adaSign, page, sign); w.Code != http.StatusNoContent {
		t.Fatalf("ada's signature: %d %s", w.Code, w.Body)
	}
	if cs, err := h.SignedChanges(ctx, ada, 0); err != nil || len(cs) != 1 || cs[0].ID != adaChange.ID {
		t.Fatalf("ada's signed changes: %+v %v", cs, err)
	}
}

// TestWellKnownWebAuthn: the hub lists the nodes' own pages, at
// sayso.localhost on each listed port, as related origins of its names,
// and nothing at localhost or an address (no relying party of its own).
func TestWellKnownWebAuthn(t *testing.T) {
	srv := (&hubserver.Server{Names: []string{"hub.example", "10.0.0.1"}, NodePagePorts: []int{7474, 7480}}).Handler()
	get := func(target string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		return w
	}
	for _, at := range []string{"https://hub.example/.well-known/webauthn", "https://hub.example:7475/.well-known/webauthn"} {
		w := get(at)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" ||
			strings.TrimSpace(w.Body.String()) != `{"origins":["http://sayso.localhost:7474","http://sayso.localhost:7480"]}` {
			t.Errorf("%s: %d %s %s", at, w.Code, w.Header().Get("Content-Type"), w.Body)
		}
	}
	for _, at := range []string{"https://localhost/.well-known/webauthn", "https://10.0.0.1/.well-known/webauthn", "https://evil.example/.well-known/webauthn"} {
		if w := get(at); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d %s", at, w.Code, w.Body)
		}
	}
	none := (&hubserver.Server{Names: []string{"hub.example"}}).Handler()
	w := httptest.NewRecorder()
	none.ServeHTTP(w, httptest.NewRequest("GET", "https://hub.example/.well-known/webauthn", nil))
	if w.Code != http.StatusNotFound {
		t.Errorf("with no node page ports: %d %s", w.Code, w.Body)
	}
}
