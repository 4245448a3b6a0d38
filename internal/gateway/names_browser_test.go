package gateway_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Against the real store: a session keeps its name (agent · project ·
// started) after its cards are gone; Find finds its steps by the words
// of the command and by the project's name; once it ends it leaves the
// sessions page and the lease picker.
func TestBrowserSessionsAndFind(t *testing.T) {
	b := newBrowser(t)
	f := startGateway(t, 40*time.Second)
	login(b, f)
	project := filepath.Base(f.project)

	push := f.block("s-names", "git push origin feature/names")
	psel := showCard(b, push)
	b.Submit("deny the push", `document.querySelector("`+psel+`") === null`, chromedp.Click(chromedp.CSS(psel+" button[value=deny]")))
	if got := push.result(t); got != "deny" {
		t.Fatalf("the push: %q after Deny", got)
	}
	if got := f.hook("s-other", "ls"); got != "allow" {
		t.Fatalf("ls in another session: %q", got)
	}

	// No card waits: the sessions page still names the session by its
	// project.
	b.Open("sessions", f.base+"/sessions")
	if got := b.Text("#session-s-names h2"); !strings.HasPrefix(got, "claude · ") || !strings.Contains(got, project) || !strings.Contains(got, "started") {
		t.Errorf("with no card waiting the session is named %q; want claude · …%s · started …", got, project)
	}

	find := func(q string) string {
		t.Helper()
		b.Do("open the finder", chromedp.KeyEvent("k", chromedp.KeyModifiers(2)))
		b.WaitFor("the finder", `document.getElementById("finder").open`)
		b.Eval(`(document.getElementById("finder-q").value = "", true)`)
		b.Do("type "+q, chromedp.SendKeys(chromedp.ID("finder-q"), q))
		b.WaitFor("results for "+q, `document.getElementById("finder-results").dataset.q === "`+q+`"`)
		got := b.String(`[...document.querySelectorAll("#finder-results li")].map(l => l.textContent.replace(/\s+/g, " ").trim()).join("\n")`)
		b.Do("close the finder", chromedp.KeyEvent("\x1b"))
		return got
	}
	if got := find("push"); !strings.Contains(got, "git push origin feature/names") {
		t.Errorf("Find push: %q; want the ledger's push", got)
	}
	if got := find(project + " push"); !strings.Contains(got, "git push origin feature/names") {
		t.Errorf("Find %s push: %q; want the ledger's push", project, got)
	}

	// The session ends: hidden on the sessions page, not offered for a
	// lease.
	if err := f.db.EndSession(context.Background(), "s-names"); err != nil {
		t.Fatal(err)
	}
	b.Open("sessions", f.base+"/sessions")
	if b.Eval(`document.getElementById("session-s-names") !== null`) || !strings.Contains(b.Text("main"), "ended session") {
		t.Error("the ended session is listed by default")
	}
	b.Open("leases", f.base+"/leases")
	if got := b.String(`[...document.querySelectorAll("#lease-session option")].map(o => o.value).join(" ")`); strings.Contains(got, "s-names") || !strings.Contains(got, "s-other") {
		t.Errorf("the lease picker offers %q; want the live session only", got)
	}
	b.Clean()
}
