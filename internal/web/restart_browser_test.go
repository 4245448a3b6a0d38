package web

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
)

// over holds when the card sel is shown as over: marked gone, with no
// answer button left to press and its countdown stopped.
func over(sel string) string {
	return `(() => { const c = document.querySelector("` + sel + `"); if (!c || !c.classList.contains("gone")) return false;
		if ([...c.querySelectorAll("button[name=answer]")].some(b => !b.disabled || b.checkVisibility())) return false;
		return c.querySelector("time.expires") === null && c.querySelector("time.over") !== null })()`
}

// A restart of sayso serve is ordinary: the tab stays logged in, the
// cards that waited on the stopped gateway are shown as over at once and
// leave the title's count, and the cards of the new one can be answered
// from the same tab, its anti-CSRF token still good.
func TestBrowserRestartKeepsTab(t *testing.T) {
	b := newBrowser(t)
	r := newRestartable(t)
	r.mem.AddSession(Session{ID: "s1", Agent: "claude", Cwd: "/home/p/shop", Mode: policy.ModeAuto})
	before := r.mem.AddCard(pushCard("s1", "feature/login", time.Now().Add(10*time.Minute)))
	b.Open("log in", r.srv.LoginURL())
	b.WaitFor("the event stream", `document.documentElement.dataset.live === "on"`)
	sel := "#card-" + before.ID
	b.WaitFor("the card counted", `document.title.startsWith("(1) ") && document.querySelector("`+sel+`") !== null`)

	// sayso serve goes away without a word (a kill): the card's hook was
	// answered without the person, so the page shows the card as over.
	stopped := time.Now()
	r.stop()
	r.mem.Drop(before.ID) // the gateway's cards end with it
	b.WaitFor("the card shown as over", over(sel))
	t.Logf("the card was shown as over %v after the gateway stopped", time.Since(stopped).Round(time.Millisecond))
	if title := b.String(`document.title`); strings.HasPrefix(title, "(") {
		t.Errorf("with the gateway gone the title still counts a card: %q", title)
	}
	if got := b.Text(sel + " .gone-note"); !strings.Contains(got, "sayso serve does not answer") {
		t.Errorf("the dead card says %q; want why it is over", got)
	}
	countdown := b.Content(sel + " time.over")
	if got := b.Text("#conn"); !strings.Contains(got, "start it again with sayso serve") || !strings.Contains(got, "Trying again in") {
		t.Errorf("the banner says %q; want what to do, and that it keeps trying", got)
	}
	b.Screenshot("restart-dead-card.png")
	b.Axe("/ with a dead card")
	// The page's countdowns tick each second: past a tick on the page's
	// own clock, a countdown still running would have moved.
	b.PageTime("a second and more", 1500*time.Millisecond)
	if got := b.Content(sel + " time.over"); got != countdown {
		t.Errorf("the dead card's countdown moved: %q, then %q", countdown, got)
	}

	// A new sayso serve on the same address: a new Server, which knows
	// the tab only by what it kept.
	after := r.mem.AddCard(pushCard("s1", "feature/other", time.Now().Add(10*time.Minute)))
	started := time.Now()
	r.start()
	asel := "#card-" + after.ID
	b.WaitFor("the tab back, logged in, with the new card", `document.getElementById("conn").hidden && document.documentElement.dataset.live === "on" && document.querySelector("`+asel+`") !== null`)
	t.Logf("the tab was back %v after the gateway started", time.Since(started).Round(time.Millisecond))
	if !b.Eval(`document.title.startsWith("(1) ")`) {
		t.Errorf("after the restart the title is %q; want the one new card counted", b.String(`document.title`))
	}
	if !b.Eval(over(sel)) {
		t.Error("the card of the stopped gateway came back to life")
	}
	b.Submit("deny the new card from the same tab", `document.querySelector("`+asel+`") === null`,
		chromedp.Click(chromedp.CSS(asel+" button[value=deny]")))
	if c, err := r.mem.Card(b.Ctx(), after.ID); err != nil || !c.Answered || c.Answer != card.Deny {
		t.Errorf("after the restart the tab's Deny reached %+v (%v); want the card denied", c, err)
	}
	b.Clean()
}

// A tab whose login ended (logged out elsewhere, then sayso serve
// restarted) stops trying what cannot succeed, and says what to do.
func TestBrowserLoginEndedStopsTrying(t *testing.T) {
	b := newBrowser(t)
	b.BeforeScripts(`window.streams = 0; { const f = window.fetch; window.fetch = function (u, o) { if (String(u).startsWith("/events")) window.streams++; return f.apply(this, arguments) } }`)
	r := newRestartable(t)
	b.Open("log in", r.srv.LoginURL())
	b.WaitFor("the event stream", `document.documentElement.dataset.live === "on"`)
	kept, _ := r.mem.PageLogins(b.Ctx())
	if len(kept) != 1 || len(kept[0].Tabs) != 1 {
		t.Fatalf("the page kept %+v; want one session with one tab", kept)
	}
	r.stop()
	for _, l := range kept {
		r.mem.ForgetPageLogin(b.Ctx(), l.Session)
	}
	r.start()
	b.WaitFor("the login-ended banner", `document.documentElement.dataset.conn === "login" && !document.getElementById("conn").hidden`)
	if got := b.Text("#conn"); !strings.Contains(got, "login ended") || !strings.Contains(got, "sayso login") || strings.Contains(got, "Trying again") {
		t.Errorf("the banner says %q; want that the login ended, what to do, and no retry", got)
	}
	n := b.Number(`window.streams`)
	// Past, on the page's own clock, any retry the page had set before its
	// login ended: one would have opened the stream again by now.
	b.PageTime("past every backoff the page had", 3*time.Second)
	if m := b.Number(`window.streams`); m != n {
		t.Errorf("the tab tried the event stream %v more times after its login ended", m-n)
	}
	b.Clean()
}

// A card whose hook gave up while the page is connected (the agent's
// client timed it out, or went away) is shown as over at once: no
// button to press, the countdown stopped, the title's count cleared.
func TestBrowserDeadCardOver(t *testing.T) {
	b := newBrowser(t)
	f := newFixture(t, time.Now)
	f.mem.AddSession(Session{ID: "s1", Agent: "claude", Cwd: "/home/p/shop", Mode: policy.ModeAuto})
	c := f.mem.AddCard(pushCard("s1", "feature/login", time.Now().Add(10*time.Minute)))
	b.Open("log in", f.srv.LoginURL())
	b.WaitFor("the event stream", `document.documentElement.dataset.live === "on"`)
	sel := "#card-" + c.ID
	b.WaitFor("the card counted", `document.title.startsWith("(1) ")`)
	f.mem.Drop(c.ID)
	b.WaitFor("the card shown as over", over(sel)+` && !document.title.startsWith("(")`)
	if got := b.Text(sel + " .gone-note"); !strings.Contains(got, "stopped waiting") {
		t.Errorf("the dead card says %q", got)
	}
	countdown := b.Content(sel + " time.over")
	// Past a tick of the page's countdowns, on its own clock.
	b.PageTime("a second and more", 1500*time.Millisecond)
	if got := b.Content(sel + " time.over"); got != countdown {
		t.Errorf("the dead card's countdown moved: %q, then %q", countdown, got)
	}
	b.Clean()
}
