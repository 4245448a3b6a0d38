package hubserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hubserver"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/web/browsertest"
)

// TestPageSignsRuleForAllMachines: the person has two machines, each
// with a passkey enrolled on its own page. On the hub's page, in real
// Chromium with its virtual authenticator, they answer a card of the
// laptop with "always": the laptop keeps the rule, and it decides there
// only until the person signs it on the same page, with their passkeys;
// then the build machine takes it and lets the same step through.
// Judged by what the agent's client reads from each machine's hook.
func TestPageSignsRuleForAllMachines(t *testing.T) {
	ctx := context.Background()
	dsn := hubtest.Database(t).Serve
	root := t.TempDir()
	hubDir := filepath.Join(root, "hub")
	out, _ := background(t, "hub", "--db", dsn, "--addr", "127.0.0.1:0", "--dir", hubDir)
	m := waitOutput(t, out, regexp.MustCompile(`hub ready on (https://[0-9.]+:([0-9]+))/ \(certificate (sha256:[0-9a-f]{64})\)`))
	base, port, fp := m[1], m[2], m[3]
	_, orgPub, _ := sayso(t, ctx, "policy", "keygen", filepath.Join(root, "org.key"))
	policyDir := filepath.Join(root, "policy")
	os.MkdirAll(policyDir, 0o700)
	writeFile(t, filepath.Join(policyDir, "org.toml"), "mode_cap = \"auto\"\n")
	code, signed, stderr := sayso(t, ctx, "policy", "sign", "--key", filepath.Join(root, "org.key"), "--org", "acme", "--seq", "1", policyDir)
	if code != 0 {
		t.Fatalf("policy sign: %s", stderr)
	}
	writeFile(t, filepath.Join(root, "bundle.json"), signed)
	if code, _, stderr := sayso(t, ctx, "hub", "publish", "--db", dsn, filepath.Join(root, "bundle.json")); code != 0 {
		t.Fatalf("hub publish: %s", stderr)
	}
	project := filepath.Join(root, "proj")
	os.MkdirAll(filepath.Join(project, ".git"), 0o700)

	b := browsertest.New(t, browsertest.TrustKey(spkiOf(t, filepath.Join(hubDir, hubserver.CertFile))))
	b.Authenticator()

	// Two machines of ada's: each joins, runs sayso serve, and pins a
	// passkey made on its own page.
	machine := func(name string) string {
		t.Helper()
		_, token, _ := sayso(t, ctx, "hub", "token", "--db", dsn, "--dir", hubDir, "--person", "ada")
		node := filepath.Join(root, name)
		for _, d := range []string{filepath.Join(node, "config"), filepath.Join(node, "state")} {
			os.MkdirAll(d, 0o700)
		}
		if code, stdout, stderr := sayso(t, ctx, at(node, "team", "join", base, "--token", strings.TrimSpace(token), "--fingerprint", fp,
			"--org-key", strings.TrimSpace(orgPub), "--name", name)...); code != 0 {
			t.Fatalf("team join %s: %s %s", name, stdout, stderr)
		}
		serveOut, _ := background(t, at(node, "serve", "--addr", "127.0.0.1:0", "--card-timeout", testenv.Hang.String())...)
		waitOutput(t, serveOut, regexp.MustCompile(`sayso: ready`))
		code, enrolOut, stderr := sayso(t, ctx, at(node, "team", "enrol")...)
		link := regexp.MustCompile(`open (http://localhost:[0-9]+/enrol\?token=\S+)`).FindStringSubmatch(enrolOut)
		if code != 0 || link == nil {
			t.Fatalf("team enrol %s: %d %s %s", name, code, enrolOut, stderr)
		}
		b.Open("the enrolment link of "+name, link[1])
		b.Do("make and pin a passkey", chromedp.Click(chromedp.CSS("#enrol")))
		b.WaitFor("the passkey pinned", `document.documentElement.dataset.enrol === "pinned"`)
		return node
	}
	laptop, build := machine("ada-laptop"), machine("ada-build")
	for _, node := range []string{laptop, build} {
		waitFor(t, "the machine to take the org bundle", func() bool {
			return team.Load(filepath.Join(node, "config"), time.Now()).Org != nil
		})
	}
	rules := func(node string) []store.Rule {
		db, err := store.Open(ctx, filepath.Join(node, "state", store.FileName))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rs, err := db.Rules(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}

	h, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	code, login, stderr := sayso(t, ctx, "hub", "login", "--db", dsn, "--person", "ada", "--url", "https://localhost:"+port)
	if code != 0 {
		t.Fatalf("hub login: %d %s %s", code, login, stderr)
	}
	b.Open("the hub's page", strings.TrimSpace(login))

	// "Always" on the laptop's card, at the hub's page.
	const step = "mytool sync"
	done := claudeHook(laptop, root, project, step)
	c := openCard(t, ctx, h, step)
	sel := fmt.Sprintf(`li[data-card=%q]`, c.ID)
	b.WaitFor("the card on the hub's page", fmt.Sprintf(`!!document.querySelector(%q)`, sel+` button[data-answer="always"]`))
	b.Do("always allow", chromedp.Click(chromedp.CSS(sel+` button[data-answer="always"]`)))
	if d := answer(t, done); d != "allow" {
		db, _ := store.Open(ctx, filepath.Join(laptop, "state", store.FileName))
		es, _ := db.Log(ctx, store.LogFilter{})
		for _, e := range es {
			t.Logf("%s %s", e.Kind, e.Summary)
		}
		t.Logf("page: %s", b.String(`document.body.innerText`))
		t.Fatalf("always at the hub's page: the laptop's client reads %q, want allow", d)
	}
	if rs := rules(laptop); len(rs) != 1 || rs[0].Pattern != step {
		t.Fatalf("the laptop's rules after always: %+v", rs)
	}

	// The rule waits on the page for the person's signature; until then
	// the build machine asks.
	b.WaitFor("the rule offered for signing", `[...document.querySelectorAll("li[data-change]")].some((li) => li.textContent.includes("mytool sync"))`)
	if rs := rules(build); len(rs) != 0 {
		t.Fatalf("a rule not signed reached the build machine: %+v", rs)
	}
	done = claudeHook(build, root, project, step)
	c = openCard(t, ctx, h, step)
	b.WaitFor("the build machine's card on the hub's page", fmt.Sprintf(`!!document.querySelector(%q)`, fmt.Sprintf(`li[data-card=%q]`, c.ID)))
	b.Do("deny it", chromedp.Click(chromedp.CSS(fmt.Sprintf(`li[data-card=%q] button[data-answer="deny"]`, c.ID))))
	if d := answer(t, done); d == "allow" {
		t.Fatal("the build machine let the step through before the person signed the rule")
	}

	// Signed with the person's passkeys: the build machine takes it. The
	// denied card leaves the page first, and the list moves up under the
	// pointer: the press waits for it, as a person's eye would.
	b.WaitFor("the denied card gone from the hub's page", fmt.Sprintf(`!document.querySelector(%q)`, fmt.Sprintf(`li[data-card=%q]`, c.ID)))
	b.Do("sign the rule", chromedp.Click(chromedp.CSS(`li[data-change] button[data-sign]`)))
	b.WaitFor("the rule signed", `["signed", "failed"].includes(document.querySelector("li[data-change]").dataset.sent)`)
	if got := b.String(`document.querySelector("li[data-change]").dataset.sent + " " + document.querySelector("li[data-change]").textContent`); !strings.HasPrefix(got, "signed") {
		t.Fatalf("the rule was not signed: %s", got)
	}
	waitFor(t, "the build machine to take the signed rule", func() bool {
		rs := rules(build)
		return len(rs) == 1 && rs[0].Pattern == step
	})
	if d := answer(t, claudeHook(build, root, project, step)); d != "allow" {
		t.Fatalf("the signed rule on the build machine: the client reads %q, want allow", d)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	testenv.Wait(t, what, func() (bool, string) { return ok(), "not yet" })
}
