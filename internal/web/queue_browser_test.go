package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
)

// openCard opens the card sel in the queue, as a click on its row does.
func openCard(b *browser, sel string) {
	b.Do("open "+sel, chromedp.Click(chromedp.CSS(sel+" button.open-card")))
	b.WaitFor(sel+" open", `document.querySelector("`+sel+`").classList.contains("open")`)
}

// Ten cards wait: each is one compact row (badge · headline · agent ·
// project · time left) and the one in focus is open. On a phone, the
// first screen holds the open card's answer buttons; j and a click on a
// row open another card and fold the first.
func TestBrowserQueue(t *testing.T) {
	b := newBrowser(t)
	f := newFixture(t, time.Now)
	f.mem.AddSession(Session{ID: "s1", Agent: "claude", Cwd: "/home/p/shop", Mode: policy.ModeAuto})
	cmds := []string{
		"git push origin feature/login", "git push --force origin main", "npm publish", "rm -rf ~/work",
		"curl https://example.com/install.sh", "kubectl apply -f deploy.yaml", "git push origin feature/cart",
		"docker rm web", "sudo systemctl restart nginx", "git push origin feature/pay",
	}
	var ids []string
	for i, cmd := range cmds {
		c := f.mem.AddCard(cmdCard("s1", cmd, time.Now().Add(time.Duration(5+i)*time.Minute)))
		ids = append(ids, "#card-"+c.ID)
	}
	b.Open("log in", f.srv.LoginURL())
	b.WaitFor("the event stream", `document.documentElement.dataset.live === "on"`)

	for _, size := range []struct{ w, h int64 }{{1440, 900}, {390, 844}} {
		b.Do("viewport", chromedp.EmulateViewport(size.w, size.h))
		b.Open("the cards", f.base+"/")
		b.WaitFor("ten cards", `document.querySelectorAll("#cards article.card").length === 10`)
		if n := b.Number(`document.querySelectorAll("#cards article.card.open").length`); n != 1 {
			t.Fatalf("at %d×%d, %v cards are open; want exactly one", size.w, size.h, n)
		}
		if !b.Eval(`document.querySelector("` + ids[0] + `").classList.contains("open") && document.activeElement === document.querySelector("` + ids[0] + `")`) {
			t.Errorf("at %d×%d the open card is not the first, in focus", size.w, size.h)
		}
		for i, sel := range ids[1:] {
			row := b.Text(sel)
			for _, want := range []string{"claude", "p/shop", "left"} {
				if !strings.Contains(row, want) {
					t.Errorf("at %d×%d row %d reads %q; want %q in it", size.w, size.h, i+2, row, want)
				}
			}
			if !b.Eval(`document.querySelector("` + sel + ` .badge").checkVisibility() && !document.querySelector("` + sel + ` form.answers").checkVisibility()`) {
				t.Errorf("at %d×%d row %d is not folded to its badge and headline", size.w, size.h, i+2)
			}
			if h := b.Number(`document.querySelector("` + sel + `").getBoundingClientRect().height`); h > 96 {
				t.Errorf("at %d×%d row %d is %v px high; want a compact row", size.w, size.h, i+2, h)
			}
			if !b.Eval(`(() => { const c = document.querySelector("` + sel + `").getBoundingClientRect(); return [...document.querySelectorAll("` + sel + ` .card-head *")].every(e => e.getBoundingClientRect().right <= c.right + 0.5) })()`) {
				t.Errorf("at %d×%d row %d spills out of its card", size.w, size.h, i+2)
			}
		}
		// The open card's answer buttons are on the first screen.
		for _, v := range []string{"deny", "allow-once"} {
			bottom := b.Number(`(scrollTo(0, 0), document.querySelector("` + ids[0] + ` button[value=` + v + `]").getBoundingClientRect().bottom)`)
			if bottom > float64(size.h) || bottom <= 0 {
				t.Errorf("at %d×%d the %s button ends at %v px: not on the first screen", size.w, size.h, v, bottom)
			}
		}
		b.Screenshot(fmt.Sprintf("queue-%d.png", size.w))
		b.Axe(fmt.Sprintf("/ with ten cards at %d px", size.w))
	}

	// j opens the next card and folds the first; a click on a row opens it.
	b.Do("press j", chromedp.KeyEvent("j"))
	b.WaitFor("the second card open", `document.querySelector("`+ids[1]+`").classList.contains("open") && !document.querySelector("`+ids[0]+`").classList.contains("open")`)
	b.Do("click the last row", chromedp.Click(chromedp.CSS(ids[9]+" button.open-card")))
	b.WaitFor("the last card open", `document.querySelector("`+ids[9]+`").classList.contains("open") && document.querySelectorAll("#cards article.card.open").length === 1`)
	if !b.Eval(`document.querySelector("` + ids[9] + ` button.open-card").getAttribute("aria-expanded") === "true" && document.querySelector("` + ids[1] + ` button.open-card").getAttribute("aria-expanded") === "false"`) {
		t.Error("aria-expanded does not follow the open card")
	}
	// The answer keys act on the open card, which has focus.
	b.Do("deny it by key", chromedp.KeyEvent("d"))
	b.WaitFor("the last card answered", `document.querySelector("`+ids[9]+`") === null && document.querySelectorAll("#cards article.card.open").length === 1`)
	if c, err := f.mem.Card(b.Ctx(), strings.TrimPrefix(ids[9], "#card-")); err != nil || !c.Answered || c.Answer != card.Deny {
		t.Errorf("the key answered %+v (%v); want the open card denied", c, err)
	}
	b.Clean()
}
