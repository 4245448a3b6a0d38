package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
)

// TestBrowserDeliberate: answering is deliberate where it matters, in real
// Chromium. A key acts only on the card that has focus; no key allows a
// severe step, whose Allow asks to be confirmed; Allow once waits out a
// short undo; Allow and Deny sit apart and do not look alike.
func TestBrowserDeliberate(t *testing.T) {
	b := newBrowser(t)
	f := newFixture(t, time.Now)
	f.mem.AddSession(Session{ID: "s1", Agent: "claude", Cwd: "/home/p/shop", Mode: policy.ModeAuto})
	exp := time.Now().Add(10 * time.Minute)
	force := f.mem.AddCard(cmdCard("s1", "git push --force origin main", exp))
	npm := f.mem.AddCard(cmdCard("s1", "npm install left-pad", exp))
	fsel, nsel := "#card-"+force.ID, "#card-"+npm.ID
	if !strings.Contains(strings.Join(force.Classes, " "), "force-remote") {
		t.Fatalf("the force-push card has classes %v", force.Classes)
	}
	unanswered := func(what string, c card.Card) {
		t.Helper()
		if got, _ := f.mem.Card(context.Background(), c.ID); got.Answered {
			t.Errorf("%s: card %q answered with %v", what, c.Step, got.Answer)
		}
	}
	b.Open("log in", f.srv.LoginURL())
	b.WaitFor("focus on the severe card", `document.activeElement.id === "card-`+force.ID+`"`)
	if b.Eval(`document.querySelector("` + fsel + ` button[value=allow-once]").hasAttribute("aria-keyshortcuts")`) {
		t.Error("the severe card's Allow once names a key")
	}

	// One key does not allow the severe card that has focus.
	b.Do("a on the severe card", chromedp.KeyEvent("a"))
	// The page says so where it would have started an allow: it has
	// handled the key.
	b.WaitFor("the page to say no key allows it", `document.querySelector("#toast").textContent.includes("No key allows a severe step")`)
	if b.Eval(`!!document.documentElement.dataset.pending || !!document.documentElement.dataset.busy || document.querySelector("` + fsel + `") === null || document.querySelector("` + fsel + `").classList.contains("sending")`) {
		t.Error("a on a severe card started an allow")
	}
	unanswered("a on the severe card", force)

	// A key with no card in focus does nothing.
	b.Eval(`document.activeElement.blur(), true`)
	for _, k := range []string{"a", "d", "D"} {
		b.Do(k+" with no card in focus", chromedp.KeyEvent(k))
	}
	// j with no card in focus moves to the first card: once it has, the
	// page has handled every key before it.
	b.Do("j with no card in focus", chromedp.KeyEvent("j"))
	b.WaitFor("j to move to the first card", `document.activeElement.matches("#cards article.card")`)
	if b.Eval(`!!document.documentElement.dataset.pending || !!document.documentElement.dataset.busy || document.querySelectorAll("article.card.sending").length > 0`) {
		t.Error("a key with no card in focus started an answer")
	}
	unanswered("keys with no card in focus", force)
	unanswered("keys with no card in focus", npm)

	// Allow once waits a few seconds, counting down, and undo cancels it.
	b.Do("focus the npm card", chromedp.Focus(chromedp.CSS(nsel)))
	b.Do("a on the npm card", chromedp.KeyEvent("a"))
	b.WaitFor("the undo offered", `document.documentElement.dataset.pending === "1"`)
	if got := b.Text("#toast"); !strings.Contains(got, "Allow once (npm install left-pad) in 3 s") && !strings.Contains(got, "in 2 s") {
		t.Errorf("the undo says %q, want a countdown", got)
	}
	b.Do("u", chromedp.KeyEvent("u"))
	b.WaitFor("undone", `!document.documentElement.dataset.pending && document.querySelector("#toast").textContent.includes("Undone")`)
	// Past the 3 s the allow would have waited, on the page's clock: had
	// the undo not held, the page would be sending it, or have sent it.
	b.PageTime("the undo time of the allow", 4*time.Second)
	if b.Eval(`!!document.documentElement.dataset.pending || !!document.documentElement.dataset.busy || document.querySelector("` + nsel + `") === null || document.querySelector("` + nsel + `").classList.contains("sending")`) {
		t.Error("an undone Allow once went on to send")
	}
	unanswered("an undone Allow once", npm)

	// Allow and Deny sit apart and do not look alike.
	gap := b.Number(`(() => { const d = document.querySelector("` + nsel + ` button[value=deny]").getBoundingClientRect(), a = document.querySelector("` + nsel + ` button[value=allow-once]").getBoundingClientRect(); return Math.max(a.left - d.right, a.top - d.bottom); })()`)
	if gap < 48 {
		t.Errorf("Allow once is %v px from Deny, want them apart", gap)
	}
	if b.Eval(`(() => { const s = (v) => getComputedStyle(document.querySelector("` + nsel + ` button[value=" + v + "]")); return s("deny").backgroundColor === s("allow-once").backgroundColor || s("deny").borderRadius === s("allow-once").borderRadius; })()`) {
		t.Error("Deny and Allow once look alike")
	}

	// The severe card's Allow once asks to be confirmed: the first press
	// sends nothing, a press at once after it neither; a second press
	// later allows, after its undo time.
	once := fsel + " button[value=allow-once]"
	openCard(b, fsel)
	b.Do("press Allow once on the severe card twice at once", chromedp.Click(chromedp.CSS(once)), chromedp.Click(chromedp.CSS(once)))
	// The first press asks the server, which refuses it and gives the
	// confirm; the second came while it asked.
	b.WaitFor("the first press to be refused for a confirm", armed(once))
	if got := b.Text(once); got != "Confirm: allow once" {
		t.Errorf("after one press the button reads %q", got)
	}
	if b.Eval(`!!document.documentElement.dataset.pending`) {
		t.Error("a double press allowed the severe step")
	}
	unanswered("one press on the severe card", force)
	b.Screenshot("deliberate-confirm.png")
	b.Axe("/ with a severe card to confirm")
	// The page takes a press as the confirm from 600 ms after it armed
	// (by design: a press sooner is the same stray press) until 10 s
	// after; one that lapsed while the page was checked is armed again.
	if !b.Eval(armed(once)) {
		arm(b, "arm Allow once again", once)
	}
	confirmDue(b, once)
	b.Submit("confirm", `document.querySelector("`+fsel+`") === null`, chromedp.Click(chromedp.CSS(once)))
	if got, _ := f.mem.Card(context.Background(), force.ID); !got.Answered || got.Answer != card.AllowOnce {
		t.Errorf("after the confirm the severe card: answered %v with %v", got.Answered, got.Answer)
	}
	b.Clean()
}
