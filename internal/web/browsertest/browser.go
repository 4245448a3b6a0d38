// Package browsertest drives Debian's Chromium headless from Go tests with
// chromedp, over the DevTools protocol: no driver binary, no test runner of
// its own. It fails a test on a CSP violation or an uncaught exception the
// page reports, and checks pages with axe-core.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
	"github.com/sayso-dev/sayso/internal/testenv"
)

const chromiumPath = "/usr/bin/chromium"

// Browser is one headless Chromium tab and what it reported.
type Browser struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string // CSP violations and uncaught exceptions
}

// New starts a headless Chromium; extra are more of its flags (a test
// that trusts its own server's certificate names it by its key:
// TrustKey).
func New(t *testing.T, extra ...chromedp.ExecAllocatorOption) *Browser {
	t.Helper()
	// LookPath, not Stat: a file there that cannot be run is as missing.
	if _, err := exec.LookPath(chromiumPath); err != nil {
		testenv.Missing(t, "browser tests need Debian's chromium at %s (%v): run .ci/install-browser", chromiumPath, err)
	}
	// A home of its own: chromium writes crash reports and settings
	// there, not into the home of whoever runs the tests.
	home := t.TempDir()
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
		chromedp.Env("HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache")),
	}
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	// A bound on a browser that hangs, not a speed target: the test of
	// every page loads 36 of them, each checked and drawn, on a machine
	// that may be running the other tests beside it; and it is longer
	// than any one wait on the page (testenv.Hang) several times over.
	ctx, cancelTime := context.WithTimeout(ctx, 3*testenv.Hang)
	b := &Browser{t: t, ctx: ctx}
	t.Cleanup(func() {
		cancelTime()
		cancelTab()
		cancelAlloc()
	})
	// chromium is there: a start that fails is this browser failing,
	// not a missing one.
	if err := chromedp.Listen(ctx, b.listen); err != nil {
		t.Fatalf("start %s: %v", chromiumPath, err)
	}
	return b
}

// TrustKey has Chromium trust a server's certificate by the SHA-256 of
// its public key (SubjectPublicKeyInfo, base64): a self-signed one too,
// as valid, so that a page over it is a secure context where WebAuthn
// works. No other certificate error is let through.
func TrustKey(spkiSHA256 string) chromedp.ExecAllocatorOption {
	return chromedp.Flag("ignore-certificate-errors-spki-list", spkiSHA256)
}

// Authenticator adds a fresh virtual authenticator to the browser (the
// DevTools protocol's WebAuthn domain): a platform one that keeps
// passkeys, with the person present and verified. It returns its id.
func (b *Browser) Authenticator() webauthn.AuthenticatorID {
	b.t.Helper()
	var id webauthn.AuthenticatorID
	b.Do("add a virtual authenticator", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return err
		}
		r, err := cdp.Call(ctx, tg, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{Options: &webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Transport: webauthn.AuthenticatorTransportInternal,
			HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true,
		}})
		if err == nil {
			id = r.AuthenticatorID
		}
		return err
	}))
	return id
}

func (b *Browser) listen(ev any) {
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

func (b *Browser) Do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *Browser) Text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func (b *Browser) Eval(expr string) bool {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		b.t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

// waitLimit bounds WaitFor: a condition that holds at all holds well
// within it, however busy the machine; only a page that hangs reaches it.
const waitLimit = testenv.Hang

// WaitFor polls a JavaScript condition until it holds, across the
// navigations a form post makes.
func (b *Browser) WaitFor(what, expr string) {
	b.t.Helper()
	start := time.Now()
	deadline := start.Add(waitLimit)
	var last error
	for time.Now().Before(deadline) && b.ctx.Err() == nil {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(25 * time.Millisecond)
	}
	where, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`location.href + " :: " + document.body.innerText.slice(0, 400)`))
	b.mu.Lock()
	problems := strings.Join(b.problems, "; ")
	b.mu.Unlock()
	b.t.Fatalf("wait for %s: not within %s (%v); problems: %s; page %s", what, time.Since(start).Round(time.Millisecond), last, problems, where)
}

// PageTime waits for d to pass on the page's own clock: for a timer the
// page is given now to fire. Every timer the page set to fire sooner has
// fired before it, however slow the machine: what those would do, they
// have begun. A check that something did not happen waits on it.
func (b *Browser) PageTime(what string, d time.Duration) {
	b.t.Helper()
	expr := fmt.Sprintf(`new Promise((done) => setTimeout(() => done(true), %d))`, d.Milliseconds())
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr, chromedp.EvalAwaitPromise)); err != nil {
		b.t.Fatalf("%s: wait %v on the page's clock: %v", what, d, err)
	}
}

// ready holds once the page's script has drawn the page: a navigation
// gets the shell, and the script fetches the page with the tab's key.
const ready = `document.readyState === "complete" && document.documentElement.dataset.page === "ready"`

// Open navigates to url and waits for the page to be drawn.
func (b *Browser) Open(what, url string) {
	b.t.Helper()
	b.Do(what, chromedp.Navigate(url))
	b.WaitFor(what, ready)
}

// Submit runs steps that post a form, and waits until the page shows
// cond. The page changes in place, and holds a lasting change five
// seconds for an undo before it sends it.
func (b *Browser) Submit(what, cond string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	b.Do(what, steps...)
	b.WaitFor(what, ready+` && !document.documentElement.dataset.pending && !document.documentElement.dataset.busy && (`+cond+`)`)
}

// Content is the text of sel, hidden parts included.
func (b *Browser) Content(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.querySelector(`+"`"+sel+"`"+`).textContent`))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// Screenshot saves a full-page PNG as a test artifact.
func (b *Browser) Screenshot(name string) {
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

// artifacts is where screenshots go: $SAYSO_ARTIFACTS/<test> when it is
// set, else the test's artifact directory (under go test's -outputdir
// with -artifacts, a temporary one without).
func artifacts(t *testing.T) string {
	if dir := os.Getenv("SAYSO_ARTIFACTS"); dir != "" {
		dir = filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_"))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.ArtifactDir()
}

// Dark makes the page see a system in dark mode, or in light mode.
func (b *Browser) Dark(on bool) {
	b.t.Helper()
	v := "light"
	if on {
		v = "dark"
	}
	b.Do("prefers-color-scheme: "+v, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}},
		})
		return err
	}))
}

// BeforeScripts runs src in every document the tab opens from now on,
// before the page's own script: a test's spies.
func (b *Browser) BeforeScripts(src string) {
	b.t.Helper()
	b.Do("add a script", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return err
	}))
}

// Number evaluates a JavaScript expression to a number.
func (b *Browser) Number(expr string) float64 {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](expr))
	if err != nil {
		b.t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

// String evaluates a JavaScript expression to a string.
func (b *Browser) String(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

type violation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// Axe runs axe-core on the page and fails on serious or critical
// violations. Without axe-core installed the test is missing it: it
// skips on a developer's machine and fails in CI.
func (b *Browser) Axe(page string) {
	b.t.Helper()
	dir := os.Getenv("SAYSO_NPM_CACHE")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "sayso-npm")
	}
	src, err := os.ReadFile(filepath.Join(dir, "node_modules", "axe-core", "axe.min.js"))
	if errors.Is(err, fs.ErrNotExist) {
		testenv.Missing(b.t, "axe-core is missing (%v): run .ci/install-browser, or set SAYSO_NPM_CACHE to the folder it installed into", err)
	}
	if err != nil {
		b.t.Fatalf("read axe-core: %v", err)
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

func (b *Browser) Clean() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Error(p)
	}
	b.problems = nil
}

// Ctx is the tab's context, for chromedp actions of the caller's own.
func (b *Browser) Ctx() context.Context { return b.ctx }
