package web

import (
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/rule"
)

// clock is a settable clock for tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a page served on 127.0.0.1 over a Memory.
type fixture struct {
	t     *testing.T
	srv   *Server
	mem   *Memory
	ts    *httptest.Server
	base  string // http://127.0.0.1:PORT
	port  string
	clock *clock
}

func newFixture(t *testing.T, now func() time.Time) *fixture {
	t.Helper()
	f := &fixture{t: t}
	if now == nil {
		f.clock = &clock{t: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
		now = f.clock.Now
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.mem = NewMemory(now)
	f.srv, err = New(f.mem, Options{Addr: ln.Addr().String(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	f.ts = httptest.NewUnstartedServer(f.srv)
	f.ts.Listener.Close()
	f.ts.Listener = ln
	f.ts.Start()
	t.Cleanup(func() {
		f.srv.Close()
		f.ts.Close()
	})
	f.base = f.ts.URL
	_, f.port, _ = net.SplitHostPort(ln.Addr().String())
	return f
}

// seed adds two sessions, one waiting card that offers a rule and one
// severe card that offers none.
func (f *fixture) seed() (offering, severe card.Card) {
	f.mem.AddSession(Session{ID: "s1", Agent: "claude", Mode: policy.ModeAuto, Tasks: []Task{{ID: "t1", Agent: "claude", Mode: policy.ModeAuto}}})
	f.mem.AddSession(Session{ID: "s2", Agent: "codex", Mode: policy.ModeAsk})
	now := f.srv.now()
	offering = f.mem.AddCard(card.Card{
		Session: "s1", Agent: "claude", Tool: "Bash", Step: "git push origin feature/login", Cwd: "/home/p/proj",
		Mode: policy.ModeAuto, Classes: []string{"remote-write"}, Reason: "remote-write is a ceiling: only the person lets it through",
		Offer:   []rule.Rule{{Tool: "Bash", Unit: rule.UnitCommand, Pattern: "git push origin feature/*", Cwd: "/home/p/proj"}},
		Expires: now.Add(5 * time.Minute),
	})
	severe = f.mem.AddCard(card.Card{
		Session: "s1", Agent: "claude", Tool: "Bash", Step: "git push --force origin main", Cwd: "/home/p/proj",
		Mode: policy.ModeAuto, Classes: []string{"force-remote"}, Reason: "force-remote is severe",
		NoOffer: "force-remote is severe: no \"always\" is ever offered for it",
		Expires: now.Add(5 * time.Minute),
	})
	return offering, severe
}

// client returns an HTTP client with a cookie jar that follows no redirect.
func client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// login returns the person's client, logged in through a fresh link, and
// the session's anti-CSRF token.
func (f *fixture) login() (*http.Client, string) {
	f.t.Helper()
	c := client()
	res, err := c.Get(f.srv.LoginURL())
	if err != nil {
		f.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		f.t.Fatalf("login: status %d", res.StatusCode)
	}
	c.Transport = withTab(f.t, res)
	body, code := f.get(c, "/", nil)
	if code != http.StatusOK {
		f.t.Fatalf("after login GET / = %d", code)
	}
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		f.t.Fatal("no csrf field on the page")
	}
	return c, m[1]
}

// withTab is a transport that sends the tab's key the login redirect
// handed over in its fragment, as the page's script does.
func withTab(t *testing.T, login *http.Response) http.RoundTripper {
	t.Helper()
	_, tab, ok := strings.Cut(login.Header.Get("Location"), "#tab=")
	if !ok || tab == "" {
		t.Fatalf("the login redirect %q hands over no tab key", login.Header.Get("Location"))
	}
	return tabTransport(tab)
}

// tabTransport sends the tab's key on every request that sets none.
type tabTransport string

func (t tabTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if _, set := r.Header[TabHeader]; !set {
		r = r.Clone(r.Context())
		r.Header.Set(TabHeader, string(t))
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (f *fixture) get(c *http.Client, path string, hdr http.Header) (string, int) {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.base+path, nil)
	for k, v := range hdr {
		req.Header[k] = v
	}
	if h := hdr.Get("Host"); h != "" {
		req.Host = h
	}
	res, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b), res.StatusCode
}

// post sends a form as the page would, from the served origin, unless
// hdr says otherwise ("Origin": "" leaves the Origin out).
func (f *fixture) post(c *http.Client, path string, form url.Values, hdr http.Header) (*http.Response, string) {
	f.t.Helper()
	req, _ := http.NewRequest("POST", f.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", f.base)
	for k, v := range hdr {
		req.Header[k] = v
	}
	if o, ok := hdr["Origin"]; ok && len(o) == 1 && o[0] == "" {
		req.Header.Del("Origin")
	}
	if h := hdr.Get("Host"); h != "" {
		req.Host = h
		req.Header.Del("Host")
	}
	res, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}
