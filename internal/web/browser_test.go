package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/rule"
)

// The browser tests drive Debian's Chromium with chromedp, over the
// DevTools protocol from Go: no driver binary, no test runner of its own.

const chromiumPath = "/usr/bin/chromium"

// browser is one headless Chromium tab and what it reported.
type browser struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string // CSP violations and uncaught exceptions
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("SKIP browser tests: %s is absent; run .ci/install-browser to install Debian's chromium", chromiumPath)
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

// submit runs steps that post a form, and waits for the page they lead
// to, where cond holds.
func (b *browser) submit(what, cond string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	b.eval(`(window.__before = true)`)
	b.do(what, steps...)
	b.waitFor(what, `!window.__before && document.readyState === "complete" && (`+cond+`)`)
}

// content is the text of sel, hidden parts included.
func (b *browser) content(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.querySelector(`+"`"+sel+"`"+`).textContent`))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// screenshot saves a full-page PNG as a test artifact.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(artifacts(b.t), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("artifact: %s", path)
}

var artifactsOnce = sync.OnceValues(func() (string, error) {
	if dir := os.Getenv("SAYSO_ARTIFACTS"); dir != "" {
		return dir, os.MkdirAll(dir, 0o755)
	}
	return os.MkdirTemp("", "sayso-artifacts-")
})

func artifacts(t *testing.T) string {
	dir, err := artifactsOnce()
	if err != nil {
		t.Fatal(err)
	}
	return dir
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

func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	start := time.Now()
	f := newFixture(t, time.Now)
	f.mem.AddSession(Session{ID: "s1", Agent: "claude", Mode: policy.ModeAuto, Tasks: []Task{{ID: "s1-task", Agent: "claude", Mode: policy.ModeAuto}}})
	f.mem.AddSession(Session{ID: "s2", Agent: "codex", Mode: policy.ModeAsk, Held: true, HeldWhy: "stopped by the person"})
	f.mem.SetSettings(Settings{Files: []string{"/home/p/.config/sayso/policy.toml"}})

	// The login link lands on the cards page, and the event stream opens.
	b.do("log in", chromedp.Navigate(f.srv.LoginURL()))
	b.waitFor("the event stream", `document.documentElement.dataset.live === "on"`)
	if !b.eval(`location.pathname === "/" && !location.search`) {
		t.Error("the login link did not land on / without its token")
	}

	// A card appears live, without a reload, when a step asks.
	b.eval(`window.notReloaded = true`)
	added := time.Now()
	push := f.mem.AddCard(Card{
		Session: "s1", Agent: "claude", Tool: "Bash", Step: "git push origin feature/login", Cwd: "/home/p/proj",
		Mode: policy.ModeAuto, Classes: []string{"remote-write"}, Reason: "remote-write is a ceiling: no mode lets it through by itself",
		Offer:   []rule.Rule{{Tool: "Bash", Unit: rule.UnitCommand, Pattern: "git push origin feature/*", Cwd: "/home/p/proj"}},
		Expires: time.Now().Add(10 * time.Minute),
	})
	sel := "#card-" + push.ID
	b.waitFor("the card, live", `document.querySelector("`+sel+`") !== null`)
	t.Logf("a new card showed on the page %v after the backend added it (polled every 25ms)", time.Since(added).Round(time.Millisecond))
	if !b.eval(`window.notReloaded === true`) {
		t.Error("the page reloaded to show the card")
	}
	for _, want := range []string{"git push origin feature/login", "remote-write", "no mode lets it through", "expires in", "What autopilot releases"} {
		if !strings.Contains(b.text(sel), want) {
			t.Errorf("card does not show %q", want)
		}
	}
	force := f.mem.AddCard(Card{
		Session: "s1", Agent: "claude", Tool: "Bash", Step: "git push --force origin main", Cwd: "/home/p/proj",
		Mode: policy.ModeAuto, Classes: []string{"force-remote"}, Reason: "force-remote is severe: it rewrites what others see",
		NoOffer: "force-remote is severe: no \"always\" is ever offered for it",
		Expires: time.Now().Add(10 * time.Minute),
	})
	fsel := "#card-" + force.ID
	b.waitFor("the severe card, live", `document.querySelector("`+fsel+`") !== null`)

	// A severe card offers no "always", and says why.
	if b.eval(`document.querySelector("` + fsel + ` button[value=always]") !== null`) {
		t.Error("the severe card offers Always allow")
	}
	if got := b.text(fsel + " .no-offer"); !strings.Contains(got, "No “always” for this step") || !strings.Contains(got, "severe") {
		t.Errorf("severe card says %q", got)
	}
	b.do("open the autopilot list", chromedp.Click(chromedp.CSS(sel+" details.autopilot summary")))
	b.screenshot("cards.png")
	b.axe("/")

	// Cards survive a reload: they are drawn from the backend.
	b.do("reload", chromedp.Reload())
	b.waitFor("cards after reload", `document.querySelectorAll("article.card").length === 2`)

	// Narrow window: nothing runs off the side.
	b.do("narrow", chromedp.EmulateViewport(360, 800))
	if !b.eval(`document.documentElement.scrollWidth <= window.innerWidth`) {
		t.Error("the cards page scrolls sideways at 360 px")
	}
	b.screenshot("cards-narrow.png")
	b.do("wide", chromedp.EmulateViewport(1100, 900))

	// The person presses Always allow git push origin feature/*.
	always := sel + " button[value=always]"
	if got := b.text(always); got != "Always allow git push origin feature/*" {
		t.Errorf("button says %q", got)
	}
	pressed := time.Now()
	b.submit("press Always allow", `document.querySelector("`+sel+`") === null && document.querySelector("`+fsel+`") !== null`,
		chromedp.Click(chromedp.CSS(always)))
	t.Logf("press to the next page drawn: %v", time.Since(pressed).Round(time.Millisecond))
	rules, _ := f.mem.Rules(context.Background())
	if len(rules) != 1 || rules[0].Rule != (rule.Rule{Tool: "Bash", Unit: rule.UnitCommand, Pattern: "git push origin feature/*", Cwd: "/home/p/proj", CreatedAt: rules[0].CreatedAt}) {
		t.Fatalf("rules kept = %+v, want exactly git push origin feature/* in /home/p/proj", rules)
	}
	if c, _ := f.mem.Card(context.Background(), push.ID); !c.Answered || c.Answer != AlwaysAllow {
		t.Errorf("card %s: answered %v with %v", push.ID, c.Answered, c.Answer)
	}

	// By keyboard alone: focus Deny on the severe card and press Enter.
	b.submit("deny by keyboard", `document.querySelector("`+fsel+`") === null && document.querySelector("#cards") !== null`,
		chromedp.Focus(chromedp.CSS(fsel+" button[value=deny]")), chromedp.KeyEvent(kb.Enter))
	if c, _ := f.mem.Card(context.Background(), force.ID); !c.Answered || c.Answer != Deny {
		t.Errorf("severe card: answered %v with %v, want deny", c.Answered, c.Answer)
	}
	if rules, _ := f.mem.Rules(context.Background()); len(rules) != 1 {
		t.Errorf("rules after deny: %+v", rules)
	}

	// The note is saved exactly as typed and survives a reload.
	typed := "prod is the fly.io app «shop», region fra\n  remotes: origin → github.com/me/shop\n    buckets: s3://shop-backups — never public\n日本語のメモ ✓\n\ntrailing spaces   "
	b.do("note page", chromedp.Navigate(f.base+"/note"))
	b.do("type the note", chromedp.Click(chromedp.ID("note")), chromedp.SendKeys(chromedp.ID("note"), typed))
	if got, want := b.text("#note-count [data-count]"), fmt.Sprint(utf8.RuneCountInString(typed)); got != want {
		t.Errorf("counter shows %s, want %s", got, want)
	}
	value, _ := chromedp.Run(b.ctx, chromedp.Value(chromedp.ID("note")))
	if value != typed {
		t.Fatalf("the text field holds %q, want %q (typing failed)", value, typed)
	}
	b.submit("save the note", `location.search === "?saved=1" && document.querySelector(".flash") !== null`,
		chromedp.Click(chromedp.CSS("form.note button[type=submit]")))
	if got, _ := f.mem.Note(context.Background()); got != typed {
		t.Errorf("note kept %q, want %q", got, typed)
	}
	b.do("reload the note", chromedp.Navigate(f.base+"/note"))
	if got, _ := chromedp.Run(b.ctx, chromedp.Value(chromedp.ID("note"))); got != typed {
		t.Errorf("after reload the note reads %q, want %q", got, typed)
	}
	b.axe("/note")

	// Ctrl-K finds a rule.
	b.do("Ctrl-K", chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.waitFor("the finder", `document.getElementById("finder").open && document.activeElement.id === "finder-q"`)
	b.do("search", chromedp.SendKeys(chromedp.ID("finder-q"), "feature"))
	b.waitFor("a result", `[...document.querySelectorAll("#finder-results a")].some(a => a.textContent.includes("git push origin feature/*"))`)
	b.do("close the finder", chromedp.KeyEvent(kb.Escape))

	// Forgetting a rule removes it.
	b.do("rules page", chromedp.Navigate(f.base+"/rules"))
	rid := "#rule-" + rules[0].ID
	b.submit("forget", `location.pathname === "/rules" && document.querySelector("`+rid+`") === null`,
		chromedp.Click(chromedp.CSS(rid+" button")))
	if rules, _ := f.mem.Rules(context.Background()); len(rules) != 0 {
		t.Errorf("rules after forget: %+v", rules)
	}
	b.axe("/rules")

	// Sessions: the mode switch shows the autopilot list; release works.
	b.do("sessions page", chromedp.Navigate(f.base+"/sessions"))
	if !strings.Contains(b.content("main"), "Autopilot never releases") {
		t.Error("the sessions page does not show the autopilot list")
	}
	if strings.Contains(b.content("#session-s1"), "owner words") {
		t.Error("a task's words are shown")
	}
	b.submit("set autopilot", `location.pathname === "/sessions" && document.querySelector("#session-s1 input[value=autopilot]").checked`,
		chromedp.Click(chromedp.CSS(`#session-s1 input[value=autopilot]`)), chromedp.Click(chromedp.CSS(`#session-s1 form.mode button`)))
	if ss, _ := f.mem.Sessions(context.Background()); ss[0].Mode != policy.ModeAutopilot {
		t.Errorf("mode of s1 = %v, want autopilot", ss[0].Mode)
	}
	b.axe("/sessions")

	// Settings, the ledger and leases pass the accessibility check too.
	b.do("settings page", chromedp.Navigate(f.base+"/settings"))
	if !strings.Contains(b.text("#autopilot"), "git push, gh pr create") {
		t.Error("the settings page does not show what autopilot never releases")
	}
	b.screenshot("settings.png")
	b.axe("/settings")
	b.do("ledger page", chromedp.Navigate(f.base+"/ledger?text=always"))
	if !strings.Contains(b.text("table.ledger"), "always: git push origin feature/login") {
		t.Error("the ledger search does not find the answer")
	}
	b.axe("/ledger")
	b.do("leases page", chromedp.Navigate(f.base+"/leases"))
	b.axe("/leases")

	b.clean()
	t.Logf("browser flow took %v", time.Since(start).Round(time.Millisecond))
}
