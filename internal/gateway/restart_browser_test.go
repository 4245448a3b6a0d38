package gateway_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A restart of sayso serve is ordinary: the card that waited is shown
// as over the moment the gateway stops, its agent told why; the tab stays
// logged in across the restart, from what the store kept (hashes only),
// and answers the new gateway's cards.
func TestBrowserRestart(t *testing.T) {
	b := newBrowser(t)
	f := startGateway(t, 40*time.Second)
	login(b, f)
	conn := f.openHook("s-restart", "git push origin feature/restart")
	card := f.waitCard("git push origin feature/restart")
	sel := "#card-" + card.ID
	b.WaitFor("the card, counted", `document.querySelector("`+sel+`") !== null && document.title.startsWith("(1) ")`)

	stopped := time.Now()
	f.stop()
	b.WaitFor("the card shown as over", `(() => { const c = document.querySelector("`+sel+`");
		return c && c.classList.contains("gone") && c.querySelector("time.expires") === null &&
			![...c.querySelectorAll("button[name=answer]")].some(b => !b.disabled || b.checkVisibility()) })()`)
	t.Logf("the card was shown as over %v after the gateway began to stop", time.Since(stopped).Round(time.Millisecond))
	// The page learns of the stop from the gateway's last event, or, when
	// the connection drops before that event arrives (a busy machine), from
	// the first status check that reaches no server: either way the card
	// says the gateway is gone.
	if got := b.Text(sel + " .gone-note"); !strings.Contains(got, "sayso serve stopped") && !strings.Contains(got, "sayso serve does not answer") {
		t.Errorf("the dead card says %q; want that sayso serve stopped or does not answer", got)
	}
	if title := b.String(`document.title`); strings.HasPrefix(title, "(") {
		t.Errorf("the title still counts a card: %q", title)
	}
	if out := readReply(t, conn, 10*time.Second); !strings.Contains(out, "sayso serve stopped while the card waited") {
		t.Errorf("the agent was answered %s; want it told that sayso serve stopped", out)
	}
	conn.Close()
	b.WaitFor("the banner", `!document.getElementById("conn").hidden`)
	if got := b.Text("#conn"); !strings.Contains(got, "start it again with sayso serve") {
		t.Errorf("the banner says %q; want what to do", got)
	}

	// A new gateway on the same address, over the same store.
	started := time.Now()
	f.start()
	b.WaitFor("the tab back, logged in", `document.getElementById("conn").hidden && document.documentElement.dataset.live === "on"`)
	t.Logf("the tab was back %v after the gateway started", time.Since(started).Round(time.Millisecond))
	push := f.block("s-restart", "git push origin feature/again")
	psel := showCard(b, push)
	b.Submit("deny from the same tab", `document.querySelector("`+psel+`") === null`,
		chromedp.Click(chromedp.CSS(psel+" button[value=deny]")))
	if got := push.result(t); got != "deny" {
		t.Errorf("the hook returned %q after Deny from the tab kept across the restart, want deny", got)
	}
	b.Clean()
}
