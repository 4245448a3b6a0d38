package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/web/browsertest"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// browser is one headless Chromium tab and what it reported.
type browser = browsertest.Browser

func newBrowser(t *testing.T) *browser { return browsertest.New(t) }

// armed is JavaScript for when the Allow button sel, one that asks to be
// confirmed, is armed: the server refused its first press and gave the
// confirm, and the page asks for the second.
func armed(sel string) string {
	return `!!(document.querySelector("` + sel + `") || {dataset: {}}).dataset.armed && !document.documentElement.dataset.busy`
}

// arm presses the Allow button sel, one that asks to be confirmed, and
// waits until the page asks for the confirm.
func arm(b *browser, what, sel string) {
	b.Do(what, chromedp.Click(chromedp.CSS(sel)))
	b.WaitFor(what+": the server's refusal, with a confirm", armed(sel))
}

// confirmDue waits until the page takes a press of the armed button sel
// as its confirm: 600 ms after it armed (the page's CONFIRM_AFTER_MS,
// past the server's ConfirmAfter). Time by design: a second press
// sooner is the same stray press.
func confirmDue(b *browser, sel string) {
	b.WaitFor("the confirm of "+sel+" to be due", armed(sel)+` && Date.now() - Number(document.querySelector("`+sel+`").dataset.armed) >= 600`)
}

func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	start := time.Now()
	f := newFixture(t, time.Now)
	f.mem.AddSession(Session{ID: "s1", Agent: "claude", Mode: policy.ModeAuto, Tasks: []Task{{ID: "s1-task", Agent: "claude", Mode: policy.ModeAuto}}})
	f.mem.AddSession(Session{ID: "s2", Agent: "codex", Mode: policy.ModeAsk, Held: true, HeldWhy: "stopped by the person"})
	f.mem.SetSettings(Settings{Looked: []policy.Look{{Path: "/home/p/.config/sayso/policy.toml", Whose: "person", Exists: true}}})

	// The login link lands on the cards page, and the event stream opens.
	b.Open("log in", f.srv.LoginURL())
	b.WaitFor("the event stream", `document.documentElement.dataset.live === "on"`)
	if !b.Eval(`location.pathname === "/" && !location.search`) {
		t.Error("the login link did not land on / without its token")
	}

	// A card appears live, without a reload, when a step asks.
	b.Eval(`window.notReloaded = true`)
	added := time.Now()
	push := f.mem.AddCard(card.Card{
		Session: "s1", Agent: "claude", Tool: "Bash", Step: "git push origin feature/login", Cwd: "/home/p/proj",
		Mode: policy.ModeAuto, Classes: []string{"remote-write"}, Reason: "remote-write is a ceiling: no mode lets it through by itself",
		Offer:   []rule.Rule{{Tool: "Bash", Unit: rule.UnitCommand, Pattern: "git push origin feature/*", Cwd: "/home/p/proj"}},
		Expires: time.Now().Add(10 * time.Minute),
	})
	sel := "#card-" + push.ID
	b.WaitFor("the card, live", `document.querySelector("`+sel+`") !== null`)
	t.Logf("a new card showed on the page %v after the backend added it (polled every 25ms)", time.Since(added).Round(time.Millisecond))
	if !b.Eval(`window.notReloaded === true`) {
		t.Error("the page reloaded to show the card")
	}
	for _, want := range []string{"git push origin feature/login", "ceiling", "left", "Why sayso asks", "It never allows"} {
		if !strings.Contains(strings.ToLower(b.Text(sel)), strings.ToLower(want)) {
			t.Errorf("card does not show %q", want)
		}
	}
	force := f.mem.AddCard(card.Card{
		Session: "s1", Agent: "claude", Tool: "Bash", Step: "git push --force origin main", Cwd: "/home/p/proj",
		Mode: policy.ModeAuto, Classes: []string{"force-remote"}, Reason: "force-remote is severe: it rewrites what others see",
		NoOffer: "force-remote is severe: no \"always\" is ever offered for it",
		Expires: time.Now().Add(10 * time.Minute),
	})
	fsel := "#card-" + force.ID
	b.WaitFor("the severe card, live", `document.querySelector("`+fsel+`") !== null`)

	// A severe card offers no "always", and says why.
	openCard(b, fsel)
	if b.Eval(`document.querySelector("` + fsel + ` button[value=always]") !== null`) {
		t.Error("the severe card offers Always allow")
	}
	if got := b.Text(fsel + " .no-offer"); !strings.Contains(got, "No “Always allow” here") || !strings.Contains(got, "severe") || strings.Contains(got, `"`) {
		t.Errorf("severe card says %q", got)
	}
	openCard(b, sel)
	b.Do("open why sayso asks", chromedp.Click(chromedp.CSS(sel+" details.why summary")))
	b.Do("open the autopilot list", chromedp.Click(chromedp.CSS(sel+" details.autopilot summary")))
	b.Screenshot("cards.png")
	b.Axe("/")

	// Cards survive a reload: they are drawn from the backend.
	b.Do("reload", chromedp.Reload())
	b.WaitFor("the page drawn", `document.documentElement.dataset.page === "ready"`)
	b.WaitFor("cards after reload", `document.querySelectorAll("article.card").length === 2`)

	// Narrow window: nothing runs off the side.
	b.Do("narrow", chromedp.EmulateViewport(360, 800))
	if !b.Eval(`document.documentElement.scrollWidth <= window.innerWidth`) {
		t.Error("the cards page scrolls sideways at 360 px")
	}
	b.Screenshot("cards-narrow.png")
	b.Do("wide", chromedp.EmulateViewport(1100, 900))

	// The person presses Always allow git push origin feature/*.
	always := sel + " button[value=always]"
	if got := b.Text(always + " code"); got != "git push origin feature/*" {
		t.Errorf("button says %q", got)
	}
	pressed := time.Now()
	arm(b, "press Always allow", always)
	confirmDue(b, always)
	b.Submit("confirm Always allow", `document.querySelector("`+sel+`") === null && document.querySelector("`+fsel+`") !== null`,
		chromedp.Click(chromedp.CSS(always)))
	t.Logf("press to the next page drawn: %v", time.Since(pressed).Round(time.Millisecond))
	rules, _ := f.mem.Rules(context.Background())
	if len(rules) != 1 || rules[0].Rule != (rule.Rule{Tool: "Bash", Unit: rule.UnitCommand, Pattern: "git push origin feature/*", Cwd: "/home/p/proj", CreatedAt: rules[0].CreatedAt}) {
		t.Fatalf("rules kept = %+v, want exactly git push origin feature/* in /home/p/proj", rules)
	}
	if c, _ := f.mem.Card(context.Background(), push.ID); !c.Answered || c.Answer != card.AlwaysAllow {
		t.Errorf("card %s: answered %v with %v", push.ID, c.Answered, c.Answer)
	}

	// By keyboard alone: focus Deny on the severe card and press Enter.
	b.Submit("deny by keyboard", `document.querySelector("`+fsel+`") === null && document.querySelector("#cards") !== null`,
		chromedp.Focus(chromedp.CSS(fsel+" button[value=deny]")), chromedp.KeyEvent(kb.Enter))
	if c, _ := f.mem.Card(context.Background(), force.ID); !c.Answered || c.Answer != card.Deny {
		t.Errorf("severe card: answered %v with %v, want deny", c.Answered, c.Answer)
	}
	if rules, _ := f.mem.Rules(context.Background()); len(rules) != 1 {
		t.Errorf("rules after deny: %+v", rules)
	}

	// The note is saved exactly as typed and survives a reload.
	typed := "prod is the fly.io app «shop», region fra\n  remotes: origin → github.com/me/shop\n    buckets: s3://shop-backups — never public\n日本語のメモ ✓\n\ntrailing spaces   "
	b.Open("note page", f.base+"/note")
	b.Do("type the note", chromedp.Click(chromedp.ID("note")), chromedp.SendKeys(chromedp.ID("note"), typed))
	if got, want := b.Text("#note-count [data-count]"), fmt.Sprint(utf8.RuneCountInString(typed)); got != want {
		t.Errorf("counter shows %s, want %s", got, want)
	}
	value, _ := chromedp.Run(b.Ctx(), chromedp.Value(chromedp.ID("note")))
	if value != typed {
		t.Fatalf("the text field holds %q, want %q (typing failed)", value, typed)
	}
	b.Submit("save the note", `location.search === "?saved=1" && document.querySelector(".flash") !== null`,
		chromedp.Click(chromedp.CSS("form.note button[type=submit]")))
	if got, _ := f.mem.Note(context.Background()); got != typed {
		t.Errorf("note kept %q, want %q", got, typed)
	}
	b.Open("reload the note", f.base+"/note")
	if got, _ := chromedp.Run(b.Ctx(), chromedp.Value(chromedp.ID("note"))); got != typed {
		t.Errorf("after reload the note reads %q, want %q", got, typed)
	}
	b.Axe("/note")

	// Ctrl-K finds a rule.
	b.Do("Ctrl-K", chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.WaitFor("the finder", `document.getElementById("finder").open && document.activeElement.id === "finder-q"`)
	b.Do("search", chromedp.SendKeys(chromedp.ID("finder-q"), "feature"))
	b.WaitFor("a result", `[...document.querySelectorAll("#finder-results a")].some(a => a.textContent.includes("git push origin feature/*"))`)
	b.Do("close the finder", chromedp.KeyEvent(kb.Escape))

	// Forgetting a rule removes it.
	b.Open("rules page", f.base+"/rules")
	rid := "#rule-" + rules[0].ID
	b.Submit("forget", `location.pathname === "/rules" && document.querySelector("`+rid+`") === null`,
		chromedp.Click(chromedp.CSS(rid+" button")))
	if rules, _ := f.mem.Rules(context.Background()); len(rules) != 0 {
		t.Errorf("rules after forget: %+v", rules)
	}
	b.Axe("/rules")

	// Sessions: the mode switch shows the autopilot list; release works.
	b.Open("sessions page", f.base+"/sessions")
	if !strings.Contains(b.Content("main"), "Autopilot never releases") {
		t.Error("the sessions page does not show the autopilot list")
	}
	if strings.Contains(b.Content("#session-s1"), "owner words") {
		t.Error("a task's words are shown")
	}
	b.Submit("set autopilot", `location.pathname === "/sessions" && document.querySelector("#session-s1 input[value=autopilot]").checked`,
		chromedp.Click(chromedp.CSS(`#session-s1 input[value=autopilot]`)), chromedp.Click(chromedp.CSS(`#session-s1 form.mode button`)))
	if ss, _ := f.mem.Sessions(context.Background()); ss[0].Mode != policy.ModeAutopilot {
		t.Errorf("mode of s1 = %v, want autopilot", ss[0].Mode)
	}
	b.Axe("/sessions")

	// Settings, the ledger and leases pass the accessibility check too.
	b.Open("settings page", f.base+"/settings")
	if !strings.Contains(b.Text("#autopilot"), "git push, gh pr create") {
		t.Error("the settings page does not show what autopilot never releases")
	}
	b.Screenshot("settings.png")
	b.Axe("/settings")
	b.Open("ledger page", f.base+"/ledger?text=always")
	if !strings.Contains(b.Text("ul.ledger"), "always: git push origin feature/login") {
		t.Error("the ledger search does not find the answer")
	}
	b.Axe("/ledger")
	b.Open("leases page", f.base+"/leases")
	b.Axe("/leases")

	// Another tab of the same browser holds the cookie but no key: it
	// shows no card and says how to get in.
	f.mem.AddCard(card.Card{Session: "s1", Agent: "claude", Tool: "Bash", Step: "git push origin feature/other-tab", Cwd: "/home/p/proj",
		Mode: policy.ModeAuto, Classes: []string{"remote-write"}, Expires: time.Now().Add(10 * time.Minute)})
	other, cancel := chromedp.NewContext(b.Ctx())
	defer cancel()
	if _, err := chromedp.Run(other, chromedp.Navigate(f.base+"/")); err != nil {
		t.Fatalf("open another tab: %v", err)
	}
	testenv.Wait(t, "the other tab to draw its page", func() (bool, string) {
		ready, err := chromedp.Run(other, chromedp.Evaluate[bool](`document.documentElement.dataset.page === "ready"`))
		if err != nil {
			return false, err.Error()
		}
		where, _ := chromedp.Run(other, chromedp.Evaluate[string](`location.href + " :: " + document.documentElement.dataset.page + " :: " + document.body.innerText.slice(0, 200)`))
		return ready, where
	})
	body, _ := chromedp.Run(other, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if !strings.Contains(body, "holds no key") || strings.Contains(body, "feature/other-tab") || strings.Contains(body, `name="csrf"`) {
		t.Errorf("a tab without a key shows %q", body)
	}

	b.Clean()
	t.Logf("browser flow took %v", time.Since(start).Round(time.Millisecond))
}
