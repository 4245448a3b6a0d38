package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/web"
	"github.com/sayso-dev/sayso/internal/web/browsertest"
)

// page is the person's page of the world's 'sayso serve', logged in as a
// tab is: the cookie of a fresh login link, the tab's key from the
// redirect's fragment on every request, and the session's anti-CSRF
// token from the page.
type page struct {
	base string
	c    *http.Client
	tab  string
	csrf string
}

// login opens a link from 'sayso login' as the person's browser does.
// It may run beside the test, while a client waits: it returns errors.
func (w *world) login() (*page, error) {
	link, err := w.cli("login")
	if err != nil {
		return nil, err
	}
	jar, _ := cookiejar.New(nil)
	p := &page{base: "http://" + w.addr, c: &http.Client{Jar: jar, Timeout: testenv.Hang,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	res, err := p.c.Get(strings.TrimSpace(string(link)))
	if err != nil {
		return nil, err
	}
	res.Body.Close()
	_, tab, ok := strings.Cut(res.Header.Get("Location"), "#tab=")
	if res.StatusCode != http.StatusSeeOther || !ok || tab == "" {
		return nil, fmt.Errorf("login %s: status %d, Location %q", link, res.StatusCode, res.Header.Get("Location"))
	}
	p.tab = tab
	body, code, err := p.get("/")
	if err != nil {
		return nil, err
	}
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		return nil, fmt.Errorf("the page after login: status %d, no csrf field:\n%s", code, body)
	}
	p.csrf = m[1]
	return p, nil
}

func (p *page) get(path string) (string, int, error) {
	req, err := http.NewRequest("GET", p.base+path, nil)
	if err != nil {
		return "", 0, err
	}
	req.Header.Set(web.TabHeader, p.tab)
	res, err := p.c.Do(req)
	if err != nil {
		return "", 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return string(b), res.StatusCode, err
}

// post sends a form as the page's script does: from the page's origin,
// with the tab's key and the token.
func (p *page) post(path string, form url.Values) (int, string, error) {
	form.Set("csrf", p.csrf)
	req, err := http.NewRequest("POST", p.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", p.base)
	req.Header.Set(web.TabHeader, p.tab)
	res, err := p.c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}

// card waits for the card of step on the page and returns its id. It
// may run beside the test, while a client waits: it returns errors, and
// gives up when over closes (the client no longer waits) or only a hang
// would have kept the card away.
func (p *page) card(step string, over <-chan struct{}) (string, error) {
	re := regexp.MustCompile(`<article class="card[^"]*" id="card-([^"]+)"[^>]* data-step="` + regexp.QuoteMeta(step) + `"`)
	var body string
	start := time.Now()
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		var err error
		if body, _, err = p.get("/cards"); err != nil {
			return "", err
		}
		if m := re.FindStringSubmatch(body); m != nil {
			return m[1], nil
		}
		select {
		case <-over:
			return "", fmt.Errorf("the client stopped waiting before a card for %q was on the page:\n%s", step, body)
		default:
		}
		if time.Since(start) > testenv.Hang {
			return "", fmt.Errorf("waited %v for a card for %q on the page; last saw:\n%s", testenv.Hang, step, body)
		}
		time.Sleep(pause)
	}
}

// TestDenyMessageReachesModel: the agent's push waits on a card; the
// person denies it on the page with a message; the real client hands the
// deny to the model, which reads the person's words in its next request's
// tool result. Judged by what the model server received.
func TestDenyMessageReachesModel(t *testing.T) {
	const step, said = "git push origin main", "push to the branch feature/login instead"
	for _, name := range []string{"claude", "codex"} {
		t.Run(name, func(t *testing.T) {
			client(t, name)
			w := newWorld(t)
			// The card waits as long as the test waits for anything.
			w.serveFor(t, testenv.Hang.String())
			f := NewFake(Call{Command: step})
			defer f.Close()
			type answered struct {
				code int
				body string
				err  error
			}
			done := make(chan answered, 1)
			over := make(chan struct{})
			go func() {
				// The person's page, while the client waits on the card.
				p, err := w.login()
				if err != nil {
					done <- answered{err: err}
					return
				}
				id, err := p.card(step, over)
				if err != nil {
					done <- answered{err: err}
					return
				}
				code, body, err := p.post("/cards/"+id+"/answer", url.Values{"answer": {"deny"}, "message": {said}})
				done <- answered{code, body, err}
			}()
			out := w.drive(t, name, f, "push my branch")
			close(over)
			a := <-done
			if a.err != nil || a.code != http.StatusSeeOther {
				t.Fatalf("deny on the page: status %d, %v\n%s\n%s output:\n%s", a.code, a.err, a.body, name, out)
			}
			results := f.Results()
			if len(results) == 0 {
				t.Fatalf("the model server received no tool result\n%s output:\n%s", name, out)
			}
			t.Logf("the model received: %s", results[0])
			if !strings.Contains(results[0], said) {
				t.Errorf("the model's next request holds the tool result %s; want the person's words %q in it", results[0], said)
			}
			if p := w.pushes(); len(p) != 0 {
				t.Errorf("pushed: %q", p)
			}
			if t.Failed() {
				t.Logf("%s output:\n%s\nledger:\n%s", name, out, w.sayso(t, "log"))
			}
		})
	}
}

// TestBrowserDenyReachesClaudeCode: the same, with the person's page in
// real Chromium: the card appears while the real client waits, the person
// types a message and presses Deny, and the model reads their words.
func TestBrowserDenyReachesClaudeCode(t *testing.T) {
	const step, said = "git push origin main", "push to the branch feature/login instead"
	client(t, "claude")
	w := newWorld(t)
	w.serveFor(t, testenv.Hang.String())
	f := NewFake(Call{Command: step})
	defer f.Close()
	b := browsertest.New(t)
	link, err := w.cli("login")
	must(t, err)
	card := `article.card[data-step="` + step + `"]`
	// The page takes a press once its script has drawn it and listens
	// for cards, and the card is open, its message field shown.
	takes := `(() => { const r = document.documentElement;
		const m = document.querySelector('` + card + ` input[name=message]');
		return document.readyState === "complete" && r.dataset.page === "ready" && r.dataset.live === "on" &&
			m !== null && m.offsetParent !== null && !m.disabled; })()`
	done := make(chan error, 1)
	go func() {
		// The person, while the client waits on the card: no t here, this
		// is not the test's goroutine.
		done <- chromedp.Do(b.Ctx(),
			chromedp.Navigate(strings.TrimSpace(string(link))),
			chromedp.Poll[chromedp.Void](takes, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(testenv.Hang)),
			chromedp.SendKeys(chromedp.CSS(card+` input[name=message]`), said),
			chromedp.Click(chromedp.CSS(card+` button[value=deny]`)),
			chromedp.WaitNotPresent(chromedp.CSS(card)),
		)
	}()
	out := w.drive(t, "claude", f, "push my branch")
	if err := <-done; err != nil {
		t.Fatalf("deny in the browser: %v\nclaude output:\n%s", err, out)
	}
	results := f.Results()
	if len(results) == 0 || !strings.Contains(results[0], said) {
		t.Errorf("the model's next request holds the tool results %q; want the person's words %q in the first", results, said)
	}
	if p := w.pushes(); len(p) != 0 {
		t.Errorf("pushed: %q", p)
	}
}
