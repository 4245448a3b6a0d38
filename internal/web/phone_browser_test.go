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

// TestBrowserPhoneWriteCard: on a phone, a Write card shows what the
// write puts in the file before its answer buttons, and both on the first
// screen: the person sees what they answer before they answer. Judged by
// where Chromium draws them, at a phone's viewport (and the order at a
// desktop's, where the card's context also comes before the buttons).
func TestBrowserPhoneWriteCard(t *testing.T) {
	b := newBrowser(t)
	f := newFixture(t, time.Now)
	f.mem.AddSession(Session{ID: "s1", Agent: "claude", Cwd: "/home/p/proj", Mode: policy.ModeAuto})
	var rc []string
	for i := range 30 {
		rc = append(rc, fmt.Sprintf("export PATH=$HOME/.local/share/tools/bin%d:$PATH # added by the installer of tool %d", i, i))
	}
	write := f.mem.AddCard(card.Card{Session: "s1", Agent: "claude", Tool: "Write", Step: "Write: write /home/p/.bashrc", Cwd: "/home/p/proj",
		Mode: policy.ModeAuto, Classes: []string{"instruction"}, Expires: time.Now().Add(10 * time.Minute),
		Shows: shownOf(t, "Write", map[string]string{"file_path": "/home/p/.bashrc", "content": strings.Join(rc, "\n") + "\n"})})
	f.mem.AddCard(cmdCard("s1", "npm install left-pad", time.Now().Add(11*time.Minute)))
	sel := "#card-" + write.ID
	b.Open("log in", f.srv.LoginURL())
	b.WaitFor("the event stream", `document.documentElement.dataset.live === "on"`)
	// top and bottom of the first element sel matches, as drawn from the
	// top of the page scrolled to its start.
	box := func(what string) (top, bottom float64) {
		t.Helper()
		js := `(() => { scrollTo(0, 0); const e = document.querySelector("` + what + `"); if (!e || !e.checkVisibility()) return -1; return e.getBoundingClientRect().`
		top, bottom = b.Number(js+`top })()`), b.Number(js+`bottom })()`)
		if top < 0 {
			t.Fatalf("%s is not drawn", what)
		}
		return top, bottom
	}
	for _, size := range []struct{ w, h int64 }{{390, 844}, {1440, 900}} {
		b.Do("viewport", chromedp.EmulateViewport(size.w, size.h))
		b.Open("the cards", f.base+"/")
		b.WaitFor("the write card open", `document.querySelector("`+sel+`") !== null && document.querySelector("`+sel+`").classList.contains("open")`)
		_, stepBottom := box(sel + " .step")
		whatTop, _ := box(sel + " .shows-what")
		diffTop, diffBottom := box(sel + " .shows > pre.diff")
		var first float64 = 1 << 20
		for _, v := range []string{"deny", "allow-once"} {
			top, bottom := box(sel + " button[value=" + v + "]")
			first = min(first, top)
			if size.w < 640 && bottom > float64(size.h) {
				t.Errorf("at %d×%d the %s button ends at %v px: not on the first screen", size.w, size.h, v, bottom)
			}
		}
		if !(stepBottom <= whatTop && whatTop < diffTop && diffBottom <= first) {
			t.Errorf("at %d×%d the step ends at %v, the file is named at %v, the text runs %v–%v and the first answer button starts at %v: want them in that order, the text wholly above the buttons",
				size.w, size.h, stepBottom, whatTop, diffTop, diffBottom, first)
		}
		if !strings.Contains(b.Text(sel+" .shows > pre.diff"), "export PATH=$HOME/.local/share/tools/bin0:$PATH") {
			t.Errorf("at %d×%d the write's first line is not in its text", size.w, size.h)
		}
		// What the write puts is read in place: scrolled within, by
		// keyboard too, when it is taller than its part of the screen.
		if b.Eval(`(() => { const e = document.querySelector("` + sel + ` .shows > pre.diff"); return e.scrollHeight > e.clientHeight + 1 && e.tabIndex !== 0 })()`) {
			t.Errorf("at %d×%d the write's text scrolls but takes no focus", size.w, size.h)
		}
		b.Screenshot(fmt.Sprintf("phone-write-%d.png", size.w))
		b.Axe(fmt.Sprintf("/ with a write card at %d px", size.w))
	}
	b.Clean()
}
