package gateway_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser test drives Debian's Chromium with chromedp against the real
// gateway: a hook run as Claude Code runs it blocks on the socket, its card
// shows on the page, and the person's press is what the hook returns.

const chromiumPath = "/usr/bin/chromium"

type browser struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string // CSP violations and uncaught exceptions
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("SKIP browser test: %s is absent; run .ci/install-browser to install Debian's chromium", chromiumPath)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 90*time.Second)
	b := &browser{t: t, ctx: ctx}
	t.Cleanup(func() {
		cancelTime()
		cancelTab()
		cancelAlloc()
	})
	if err := chromedp.Listen(ctx, b.listen); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return b
}

func (b *browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *log.EventEntryAdded:
		if strings.Contains(ev.Entry.Text, "Content Security Policy") {
			b.problems = append(b.problems, "CSP: "+ev.Entry.Text)
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		b.problems = append(b.problems, "exception: "+text)
	}
}

func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func (b *browser) eval(expr string) bool {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		b.t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds, across the
// navigations a form post makes.
func (b *browser) waitFor(what, expr string) {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(25 * time.Millisecond)
	}
	where, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`location.href + " :: " + document.body.innerText.slice(0, 400)`))
	b.t.Fatalf("wait for %s: not within 10s (%v); page %s", what, last, where)
}

// submit runs steps that post a form and waits for the page they lead to,
// where cond holds.
func (b *browser) submit(what, cond string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	b.eval(`(window.__before = true)`)
	b.do(what, steps...)
	b.waitFor(what, `!window.__before && document.readyState === "complete" && (`+cond+`)`)
}

// screenshot saves a full-page PNG to $SAYSO_ARTIFACTS.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := os.Getenv("SAYSO_ARTIFACTS")
	if dir == "" {
		dir = b.t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("artifact: %s", path)
}

type violation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axe runs axe-core on the page and fails on serious or critical
// violations.
func (b *browser) axe(page string) {
	b.t.Helper()
	dir := os.Getenv("SAYSO_NPM_CACHE")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "sayso-npm")
	}
	src, err := os.ReadFile(filepath.Join(dir, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		b.t.Fatalf("axe-core is missing (%v): run .ci/install-browser", err)
	}
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[*runtime.RemoteObject](string(src))); err != nil {
		b.t.Fatalf("inject axe-core: %v", err)
	}
	vs, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]violation](`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact || "", help: v.help, nodes: v.nodes.map(n => n.target.join(" "))})))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("run axe-core: %v", err)
	}
	for _, v := range vs {
		msg := fmt.Sprintf("axe on %s: %s (%s): %s at %v", page, v.ID, v.Impact, v.Help, v.Nodes)
		if v.Impact == "serious" || v.Impact == "critical" {
			b.t.Error(msg)
		} else {
			b.t.Log(msg)
		}
	}
}

func (b *browser) clean() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Error(p)
	}
	b.problems = nil
}

// login opens a fresh login link and waits for the live cards page.
func (b *browser) login(f *gw) {
	b.t.Helper()
	b.do("log in", chromedp.Navigate(f.g.Page.LoginURL()))
	b.waitFor("the event stream", `document.documentElement.dataset.live === "on"`)
}

// showCard waits for a hook's card to show on the page without a reload.
func (b *browser) showCard(p pending) string {
	b.t.Helper()
	sel := "#card-" + p.card.ID
	b.waitFor("the card for "+p.card.Step, `document.querySelector("`+sel+`") !== null`)
	return sel
}

func TestBrowserFlow(t *testing.T) {
	b := newBrowser(t)
	start := time.Now()
	f := startGateway(t, 40*time.Second)
	b.login(f)
	b.eval(`window.notReloaded = true`)

	// The agent's hook blocks on a push; its card appears live.
	push := f.block("s-flow", "git push origin feature/login")
	sel := b.showCard(push)
	if !b.eval(`window.notReloaded === true`) {
		t.Error("the page reloaded to show the card")
	}
	for _, want := range []string{"git push origin feature/login", "remote-write", "What autopilot releases"} {
		if !strings.Contains(b.text(sel), want) {
			t.Errorf("the card does not show %q", want)
		}
	}
	b.screenshot("gateway-card.png")
	b.axe("/ with a card")

	// The person presses Always allow git push origin feature/*: the hook
	// returns allow.
	always := sel + " button[value=always]"
	if got := b.text(always); got != "Always allow git push origin feature/*" {
		t.Fatalf("the button says %q", got)
	}
	b.submit("press Always allow", `document.querySelector("`+sel+`") === null`, chromedp.Click(chromedp.CSS(always)))
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
	msel := b.showCard(main)
	b.submit("deny main", `document.querySelector("`+msel+`") === null`, chromedp.Click(chromedp.CSS(msel+" button[value=deny]")))
	if got := main.result(t); got != "deny" {
		t.Errorf("git push origin main: %q after Deny, want deny", got)
	}

	// A severe step's card offers no "always" and says why.
	force := f.block("s-flow", "git push --force origin x")
	fsel := b.showCard(force)
	if b.eval(`document.querySelector("` + fsel + ` button[value=always]") !== null`) {
		t.Error("the severe card offers Always allow")
	}
	if got := b.text(fsel + " .no-offer"); !strings.Contains(got, "No “always” for this step") || !strings.Contains(got, "severe") {
		t.Errorf("the severe card says %q", got)
	}
	b.screenshot("gateway-card-severe.png")
	b.axe("/ with a severe card")
	b.submit("deny the severe step", `document.querySelector("`+fsel+`") === null`, chromedp.Click(chromedp.CSS(fsel+" button[value=deny]")))
	if got := force.result(t); got != "deny" {
		t.Errorf("git push --force: %q, want deny", got)
	}
	if rs := f.rules(); len(rs) != 1 {
		t.Errorf("rules after the severe card: %q", rs)
	}

	// The note is saved as typed, and survives a restart of the gateway.
	typed := "prod is the fly.io app «shop», region fra\n  remotes: origin → github.com/me/shop\n日本語のメモ ✓\n\ntrailing spaces   "
	b.do("note page", chromedp.Navigate(f.base+"/note"))
	b.do("type the note", chromedp.Click(chromedp.ID("note")), chromedp.SendKeys(chromedp.ID("note"), typed))
	b.submit("save the note", `location.search === "?saved=1"`, chromedp.Click(chromedp.CSS("form.note button[type=submit]")))
	f.stop()
	f.start()
	if got, err := f.db.Note(context.Background()); err != nil || got != typed {
		t.Errorf("after a restart the store's note is %q (%v), want %q", got, err, typed)
	}
	b.login(f) // the restart forgot every session: the person logs in again
	b.do("note page after restart", chromedp.Navigate(f.base+"/note"))
	if got, _ := chromedp.Run(b.ctx, chromedp.Value(chromedp.ID("note"))); got != typed {
		t.Errorf("after a restart the page's note reads %q, want %q", got, typed)
	}

	// Forgetting the rule on the rules page makes the next push ask again.
	if got := f.hook("s-flow", "git push origin feature/y"); got != "allow" {
		t.Errorf("before forgetting, feature/y: %q, want allow", got)
	}
	kept, _ := f.db.Rules(context.Background())
	b.do("rules page", chromedp.Navigate(f.base+"/rules"))
	rid := fmt.Sprintf("#rule-%d", kept[0].ID)
	b.axe("/rules")
	b.submit("forget", `location.pathname === "/rules" && document.querySelector("`+rid+`") === null`, chromedp.Click(chromedp.CSS(rid+" button")))
	if rs := f.rules(); len(rs) != 0 {
		t.Errorf("rules after forget: %q", rs)
	}
	b.do("cards page", chromedp.Navigate(f.base+"/"))
	b.waitFor("the event stream", `document.documentElement.dataset.live === "on"`)
	again := f.block("s-flow", "git push origin feature/x")
	asel := b.showCard(again)
	b.submit("allow once", `document.querySelector("`+asel+`") === null`, chromedp.Click(chromedp.CSS(asel+" button[value=allow-once]")))
	if got := again.result(t); got != "allow" {
		t.Errorf("feature/x after forgetting: %q after Allow once, want allow", got)
	}
	if rs := f.rules(); len(rs) != 0 {
		t.Errorf("Allow once kept a rule: %q", rs)
	}

	// The settings page, screenshot and accessibility.
	b.do("settings page", chromedp.Navigate(f.base+"/settings"))
	if !strings.Contains(b.text("#autopilot"), "git push") {
		t.Error("the settings page does not show what autopilot never releases")
	}
	b.screenshot("gateway-settings.png")
	b.axe("/settings")

	b.clean()
	t.Logf("browser flow against the real gateway took %v", time.Since(start).Round(time.Millisecond))
}
