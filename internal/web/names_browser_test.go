package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/policy"
)

// Find finds steps: the waiting card and the ledger's rows, by words of
// the command and by the project's name, in the finder (⌘K) and on the
// search page.
func TestBrowserFindSteps(t *testing.T) {
	b := newBrowser(t)
	f := newFixture(t, time.Now)
	f.mem.AddSession(Session{ID: "0199a2b4-7c1e-4c5d-9e8f-0a1b2c3d4e5f", Agent: "claude", Cwd: "/home/p/work/shop", Mode: policy.ModeAuto, Created: time.Now().Add(-time.Hour)})
	f.mem.AddSession(Session{ID: "5e6f7a8b-codex", Agent: "codex", Cwd: "/home/p/work/infra", Mode: policy.ModeAuto, Created: time.Now().Add(-time.Hour)})
	card := f.mem.AddCard(cmdCard("0199a2b4-7c1e-4c5d-9e8f-0a1b2c3d4e5f", "git push origin feature/login", time.Now().Add(10*time.Minute)))
	f.mem.AddEntry(Entry{At: time.Now().Add(-time.Minute), Kind: "decision", Session: "5e6f7a8b-codex", Class: "deploy", Decision: "ask", Outcome: "deny",
		Summary: "ask terraform apply -auto-approve: a ceiling"})
	f.mem.AddEntry(Entry{At: time.Now().Add(-2 * time.Minute), Kind: "decision", Session: "0199a2b4-7c1e-4c5d-9e8f-0a1b2c3d4e5f", Class: "read", Decision: "allow",
		Summary: "allow ls -la"})
	b.Open("log in", f.srv.LoginURL())
	b.WaitFor("the event stream", `document.documentElement.dataset.live === "on"`)

	find := func(q string) []string {
		t.Helper()
		b.Do("open the finder", chromedp.KeyEvent("k", chromedp.KeyModifiers(2))) // Ctrl
		b.WaitFor("the finder", `document.getElementById("finder").open`)
		b.Eval(`(document.getElementById("finder-q").value = "", document.getElementById("finder-results").replaceChildren(), true)`)
		b.Do("type "+q, chromedp.SendKeys(chromedp.ID("finder-q"), q))
		b.WaitFor("results for "+q, `document.getElementById("finder-results").dataset.q === "`+q+`"`)
		got := strings.Split(b.String(`[...document.querySelectorAll("#finder-results li")].map(l => l.textContent.replace(/\s+/g, " ").trim()).join("\n")`), "\n")
		b.Do("close the finder", chromedp.KeyEvent("\x1b"))
		return got
	}
	has := func(got []string, want ...string) bool {
		for _, g := range got {
			ok := true
			for _, w := range want {
				ok = ok && strings.Contains(g, w)
			}
			if ok {
				return true
			}
		}
		return false
	}

	// "push" finds the waiting card; a project's name finds its steps.
	if got := find("push"); !has(got, "card", "git push origin feature/login") {
		t.Errorf("Find push: %q; want the waiting card", got)
	}
	if got := find("shop"); !has(got, "card", "git push origin feature/login") || !has(got, "step", "ls -la") {
		t.Errorf("Find shop: %q; want the shop session's waiting card and its ledger step", got)
	}
	if got := find("infra terraform"); !has(got, "step", "terraform apply", "codex") || has(got, "git push") {
		t.Errorf("Find infra terraform: %q; want the infra session's terraform step, and nothing else", got)
	}
	if got := find("deploy"); !has(got, "step", "terraform apply") {
		t.Errorf("Find deploy (a class): %q", got)
	}
	b.Screenshot("find-steps.png")

	// The search page finds the same, and its link opens the card.
	b.Open("search page", f.base+"/search?q=push+feature")
	if got := b.Text("main"); !strings.Contains(got, "git push origin feature/login") {
		t.Errorf("the search page for push feature reads %q", got)
	}
	b.Axe("/search?q=push+feature")
	b.Open("the card, from its result", f.base+b.String(`document.querySelector("ul.results a").getAttribute("href")`))
	b.WaitFor("the card found, open", `document.querySelector("#card-`+card.ID+`.open") !== null`)
	b.Clean()
}

// Sessions by name everywhere: agent · project · started on the sessions
// page (ended ones hidden until asked), the lease picker (distinct names,
// live sessions only; a lease for an ended one is refused) and the
// ledger (a session column; the filter by name).
func TestBrowserSessionsByName(t *testing.T) {
	b := newBrowser(t)
	f := newFixture(t, time.Now)
	started := time.Now().Add(-time.Hour).Truncate(time.Minute)
	// Two sessions of the same agent, in the same project, started the
	// same minute: their names must still differ.
	f.mem.AddSession(Session{ID: "aaaa1111-live", Agent: "claude", Cwd: "/home/p/work/shop", Mode: policy.ModeAuto, Created: started})
	f.mem.AddSession(Session{ID: "bbbb2222-live", Agent: "claude", Cwd: "/home/p/work/shop", Mode: policy.ModeAuto, Created: started})
	f.mem.AddSession(Session{ID: "cccc3333-ended", Agent: "gemini", Cwd: "/home/p/notes", Mode: policy.ModeAuto, Created: started,
		Ended: true, EndedAt: time.Now().Add(-10 * time.Minute)})
	f.mem.AddEntry(Entry{At: time.Now(), Kind: "decision", Session: "cccc3333-ended", Class: "read", Decision: "allow", Summary: "allow cat notes.md"})
	b.Open("log in", f.srv.LoginURL())

	b.Open("sessions", f.base+"/sessions")
	titles := b.String(`[...document.querySelectorAll("article.session h2")].map(h => h.textContent).join("|")`)
	if strings.Contains(titles, "gemini") || !strings.Contains(b.Text("main"), "1 ended session hidden") {
		t.Errorf("the sessions page lists %q; want the ended session hidden, and said so", titles)
	}
	for _, want := range []string{"claude · work/shop · started", "live, in auto"} {
		if !strings.Contains(b.Text("main"), want) {
			t.Errorf("the sessions page does not say %q", want)
		}
	}
	b.Submit("show the ended", `location.search === "?ended=1"`, chromedp.Click(chromedp.CSS(`a[href="/sessions?ended=1"]`)))
	b.WaitFor("the ended session", `document.getElementById("session-cccc3333-ended") !== null`)
	if got := b.Text("#session-cccc3333-ended"); !strings.Contains(got, "gemini · p/notes · started") || !strings.Contains(got, "ended") || strings.Contains(got, "Grant a lease") {
		t.Errorf("the ended session reads %q", got)
	}
	b.Axe("/sessions?ended=1")

	b.Open("leases", f.base+"/leases")
	options := strings.Split(b.String(`[...document.querySelectorAll("#lease-session option")].slice(1).map(o => o.textContent).join("\n")`), "\n")
	if len(options) != 2 || options[0] == options[1] {
		t.Errorf("the lease picker offers %q; want the two live sessions, by distinct names", options)
	}
	for _, o := range options {
		if !strings.HasPrefix(o, "claude · work/shop · started") {
			t.Errorf("the lease picker names a session %q", o)
		}
	}
	// A lease for the ended session, posted by hand, is refused.
	c, csrf := f.login()
	res, body := f.post(c, "/leases", url.Values{"csrf": {csrf}, "category": {"remote-write"}, "session": {"cccc3333-ended"}, "cwd": {"/home/p/notes"}, "minutes": {"5"}}, nil)
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "has ended") {
		t.Errorf("a lease for an ended session: %d %s", res.StatusCode, body)
	}
	if ls, _ := f.mem.Leases(b.Ctx()); len(ls) != 0 {
		t.Errorf("leases after the refusal: %+v", ls)
	}

	b.Open("ledger", f.base+"/ledger")
	if got := b.Text("ul.ledger li .who"); !strings.Contains(got, "gemini · p/notes") {
		t.Errorf("the ledger row's session reads %q", got)
	}
	filter := b.String(`[...document.querySelectorAll("#f-session option")].map(o => o.value + "=" + o.textContent).join("|")`)
	if !strings.Contains(filter, "cccc3333-ended=gemini · p/notes · started") || !strings.Contains(filter, "(ended)") {
		t.Errorf("the ledger's session filter offers %q; want names", filter)
	}
	b.Axe("/ledger")
	b.Clean()
}
