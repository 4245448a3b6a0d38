package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/passkey"
)

// pinAll is an Enroller that counts what it is asked to pin; its
// passkeys are for rp (localhost when empty).
type pinAll struct {
	pinned int
	rp     string
}

func (p *pinAll) Enrolling() (string, string, error) {
	if p.rp == "" {
		return "ada", "localhost", nil
	}
	return "ada", p.rp, nil
}
func (p *pinAll) Pin(context.Context, string, passkey.Key) error {
	p.pinned++
	return nil
}

// TestEnrolRefusals: an enrolment is started only by its link, once and
// in time, and each request of its script needs this page's Origin, the
// enrolment's id and the localhost name; nothing else reaches the pins.
func TestEnrolRefusals(t *testing.T) {
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	pins := &pinAll{}
	s, err := New(NewMemory(nil), Options{Addr: "127.0.0.1:7000", Now: func() time.Time { return now }, Enroller: pins})
	if err != nil {
		t.Fatal(err)
	}
	do := func(method, target string, h map[string]string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, strings.NewReader(`{}`))
		for k, v := range h {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w
	}
	link := s.EnrolURL()
	if !strings.HasPrefix(link, "http://localhost:7000/enrol?token=") {
		t.Fatalf("link %s", link)
	}
	if w := do("GET", "http://localhost:7000/enrol?token=forged", nil); w.Code != http.StatusUnauthorized {
		t.Fatalf("a forged enrolment link: %d", w.Code)
	}
	w := do("GET", link, nil)
	loc := w.Header().Get("Location")
	if w.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/static/enrol.html#enrol=") {
		t.Fatalf("the enrolment link: %d %q", w.Code, loc)
	}
	id := strings.TrimPrefix(loc, "/static/enrol.html#enrol=")
	if w := do("GET", link, nil); w.Code != http.StatusUnauthorized {
		t.Fatalf("the enrolment link twice: %d", w.Code)
	}
	page := map[string]string{"Origin": "http://localhost:7000", "Sec-Fetch-Site": "same-origin", EnrolHeader: id}
	with := func(k, v string) map[string]string {
		h := map[string]string{}
		for a, b := range page {
			h[a] = b
		}
		if v == "" {
			delete(h, k)
		} else {
			h[k] = v
		}
		return h
	}
	for _, c := range []struct {
		name, host string
		h          map[string]string
		code       int
	}{
		{"another origin", "localhost:7000", with("Origin", "https://hub.example"), http.StatusForbidden},
		{"no origin", "localhost:7000", with("Origin", ""), http.StatusForbidden},
		{"no enrolment", "localhost:7000", with(EnrolHeader, ""), http.StatusForbidden},
		{"another enrolment", "localhost:7000", with(EnrolHeader, "forged"), http.StatusForbidden},
		{"an IP address, no relying party", "127.0.0.1:7000", with("Origin", "http://127.0.0.1:7000"), http.StatusMisdirectedRequest},
		{"a foreign host", "hub.example:7000", with("Origin", "http://hub.example:7000"), http.StatusMisdirectedRequest},
		{"the page for a hub's name", "sayso.localhost:7000", with("Origin", "http://sayso.localhost:7000"), http.StatusMisdirectedRequest},
	} {
		for _, path := range []string{"/enrol/options", "/enrol"} {
			if w := do("POST", "http://"+c.host+path, c.h); w.Code != c.code {
				t.Errorf("%s, POST %s: %d, want %d: %s", c.name, path, w.Code, c.code, w.Body)
			}
		}
	}
	if w := do("POST", "http://localhost:7000/enrol/options", page); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"rp_id":"localhost"`) {
		t.Fatalf("the enrolment's options: %d %s", w.Code, w.Body)
	}
	// A credential that is none: refused, and the enrolment spent.
	if w := do("POST", "http://localhost:7000/enrol", page); w.Code != http.StatusBadRequest {
		t.Fatalf("a credential that is none: %d %s", w.Code, w.Body)
	}
	if w := do("POST", "http://localhost:7000/enrol/options", page); w.Code != http.StatusForbidden {
		t.Fatalf("a spent enrolment: %d %s", w.Code, w.Body)
	}
	// A link not used in time works no more.
	late := s.EnrolURL()
	now = now.Add(LoginTTL)
	if w := do("GET", late, nil); w.Code != http.StatusUnauthorized {
		t.Fatalf("a lapsed enrolment link: %d", w.Code)
	}
	if pins.pinned != 0 {
		t.Fatalf("pinned %d keys", pins.pinned)
	}
}

// TestEnrolForHubsName: a node whose hub's page is at a name of its own
// enrols at sayso.localhost, a page the hub can list among its related
// origins, for that name; at localhost it enrols nothing.
func TestEnrolForHubsName(t *testing.T) {
	pins := &pinAll{rp: "hub.example"}
	s, err := New(NewMemory(nil), Options{Addr: "127.0.0.1:7000", Enroller: pins})
	if err != nil {
		t.Fatal(err)
	}
	do := func(method, target string, h map[string]string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, strings.NewReader(`{}`))
		for k, v := range h {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w
	}
	link := s.EnrolURL()
	if !strings.HasPrefix(link, "http://sayso.localhost:7000/enrol?token=") {
		t.Fatalf("link %s", link)
	}
	id := strings.TrimPrefix(do("GET", link, nil).Header().Get("Location"), "/static/enrol.html#enrol=")
	if w := do("POST", "http://localhost:7000/enrol/options", map[string]string{"Origin": "http://localhost:7000", "Sec-Fetch-Site": "same-origin", EnrolHeader: id}); w.Code != http.StatusMisdirectedRequest {
		t.Fatalf("the enrolment's options at localhost: %d %s", w.Code, w.Body)
	}
	page := map[string]string{"Origin": "http://sayso.localhost:7000", "Sec-Fetch-Site": "same-origin", EnrolHeader: id}
	if w := do("POST", "http://sayso.localhost:7000/enrol/options", page); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"rp_id":"hub.example"`) {
		t.Fatalf("the enrolment's options: %d %s", w.Code, w.Body)
	}
	if w := do("GET", "http://sayso.localhost.evil.example:7000/", nil); w.Code != http.StatusMisdirectedRequest {
		t.Fatalf("a name under sayso.localhost's: %d", w.Code)
	}
}
