package gateway_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/web/browsertest"

	"github.com/chromedp/chromedp"
)

// browser is one headless Chromium tab and what it reported.
type browser = browsertest.Browser

func newBrowser(t *testing.T) *browser { return browsertest.New(t) }

// login opens a fresh login link and waits for the live cards page.
func login(b *browser, f *gw) {
	b.Open("log in", f.g.Page.LoginURL())
	b.WaitFor("the event stream", `document.documentElement.dataset.live === "on"`)
}

// showCard waits for a hook's card to show on the page without a reload.
func showCard(b *browser, p pending) string {
	sel := "#card-" + p.card.ID
	b.WaitFor("the card for "+p.card.Step, `document.querySelector("`+sel+`") !== null`)
	return sel
}

func TestBrowserFlow(t *testing.T) {
	b := newBrowser(t)
	start := time.Now()
	f := startGateway(t, 40*time.Second)
	login(b, f)
	b.Eval(`window.notReloaded = true`)

	// The agent's hook blocks on a push; its card appears live.
	push := f.block("s-flow", "git push origin feature/login")
	sel := showCard(b, push)
	if !b.Eval(`window.notReloaded === true`) {
		t.Error("the page reloaded to show the card")
	}
	for _, want := range []string{"git push origin feature/login", "remote-write", "ceiling", "Why sayso asks"} {
		if !strings.Contains(strings.ToLower(b.Text(sel)), strings.ToLower(want)) {
			t.Errorf("the card does not show %q", want)
		}
	}
	b.Screenshot("gateway-card.png")
	b.Axe("/ with a card")

	// The person presses Always allow git push origin feature/*: the hook
	// returns allow.
	always := sel + " button[value=always]"
	if got := b.Text(always + " code"); got != "git push origin feature/*" {
		t.Fatalf("the button says %q", got)
	}
	b.Submit("press Always allow, then confirm", `document.querySelector("`+sel+`") === null`,
		chromedp.Click(chromedp.CSS(always)), chromedp.Sleep(700*time.Millisecond), chromedp.Click(chromedp.CSS(always)))
	if got := push.result(t); got != "allow" {
		t.Fatalf("the hook returned %q after Always allow, want allow", got)
	}
	if rs := f.rules(); len(rs) != 1 || rs[0] != "git push origin feature/*" {
		t.Fatalf("rules = %q, want exactly git push origin feature/*", rs)
	}

	// The next push of feature/other passes with no card; main still asks.
	if got := f.hook("s-flow", "git push origin feature/other"); got != "allow" {
		t.Errorf("git push origin feature/other: %q, want allow by the rule", got)
	}
	if cs := f.g.Cards.List(); len(cs) != 0 {
		t.Errorf("cards after feature/other: %+v", cs)
	}
	main := f.block("s-flow", "git push origin main")
	msel := showCard(b, main)
	b.Submit("deny main", `document.querySelector("`+msel+`") === null`, chromedp.Click(chromedp.CSS(msel+" button[value=deny]")))
	if got := main.result(t); got != "deny" {
		t.Errorf("git push origin main: %q after Deny, want deny", got)
	}

	// A severe step's card offers no "always" and says why.
	force := f.block("s-flow", "git push --force origin x")
	fsel := showCard(b, force)
	if b.Eval(`document.querySelector("` + fsel + ` button[value=always]") !== null`) {
		t.Error("the severe card offers Always allow")
	}
	if got := b.Text(fsel + " .no-offer"); !strings.Contains(got, "No “Always allow” here") || !strings.Contains(got, "severe") {
		t.Errorf("the severe card says %q", got)
	}
	b.Screenshot("gateway-card-severe.png")
	b.Axe("/ with a severe card")
	b.Submit("deny the severe step", `document.querySelector("`+fsel+`") === null`, chromedp.Click(chromedp.CSS(fsel+" button[value=deny]")))
	if got := force.result(t); got != "deny" {
		t.Errorf("git push --force: %q, want deny", got)
	}
	if rs := f.rules(); len(rs) != 1 {
		t.Errorf("rules after the severe card: %q", rs)
	}

	// The note is saved as typed, and survives a restart of the gateway.
	typed := "prod is the fly.io app «shop», region fra\n  remotes: origin → github.com/me/shop\n日本語のメモ ✓\n\ntrailing spaces   "
	b.Open("note page", f.base+"/note")
	b.Do("type the note", chromedp.Click(chromedp.ID("note")), chromedp.SendKeys(chromedp.ID("note"), typed))
	b.Submit("save the note", `location.search === "?saved=1"`, chromedp.Click(chromedp.CSS("form.note button[type=submit]")))
	f.stop()
	f.start()
	if got, err := f.db.Note(context.Background()); err != nil || got != typed {
		t.Errorf("after a restart the store's note is %q (%v), want %q", got, err, typed)
	}
	b.Open("note page after restart", f.base+"/note") // the tab is still logged in
	if got, _ := chromedp.Run(b.Ctx(), chromedp.Value(chromedp.ID("note"))); got != typed {
		t.Errorf("after a restart the page's note reads %q, want %q", got, typed)
	}

	// Forgetting the rule on the rules page makes the next push ask again.
	if got := f.hook("s-flow", "git push origin feature/y"); got != "allow" {
		t.Errorf("before forgetting, feature/y: %q, want allow", got)
	}
	kept, _ := f.db.Rules(context.Background())
	b.Open("rules page", f.base+"/rules")
	rid := fmt.Sprintf("#rule-%d", kept[0].ID)
	b.Axe("/rules")
	b.Submit("forget", `location.pathname === "/rules" && document.querySelector("`+rid+`") === null`, chromedp.Click(chromedp.CSS(rid+" button")))
	if rs := f.rules(); len(rs) != 0 {
		t.Errorf("rules after forget: %q", rs)
	}
	b.Open("cards page", f.base+"/")
	b.WaitFor("the event stream", `document.documentElement.dataset.live === "on"`)
	again := f.block("s-flow", "git push origin feature/x")
	asel := showCard(b, again)
	once := asel + " button[value=allow-once]"
	b.Submit("allow once, then confirm", `document.querySelector("`+asel+`") === null`,
		chromedp.Click(chromedp.CSS(once)), chromedp.Sleep(700*time.Millisecond), chromedp.Click(chromedp.CSS(once)))
	if got := again.result(t); got != "allow" {
		t.Errorf("feature/x after forgetting: %q after Allow once, want allow", got)
	}
	if rs := f.rules(); len(rs) != 0 {
		t.Errorf("Allow once kept a rule: %q", rs)
	}

	// The settings page, screenshot and accessibility.
	b.Open("settings page", f.base+"/settings")
	if !strings.Contains(b.Text("#autopilot"), "git push") {
		t.Error("the settings page does not show what autopilot never releases")
	}
	b.Screenshot("gateway-settings.png")
	b.Axe("/settings")

	b.Clean()
	t.Logf("browser flow against the real gateway took %v", time.Since(start).Round(time.Millisecond))
}
