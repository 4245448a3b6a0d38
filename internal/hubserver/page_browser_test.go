package hubserver_test

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
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
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/hubserver"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/web/browsertest"
)

// TestPageYesThroughHub: the person enrols a passkey on their node's own
// page, logs in to the hub's page with a link 'sayso hub login' printed,
// sees the card a hook on the node waits on, and allows it with the
// passkey, in real Chromium with its virtual authenticator, against the
// hub's TLS. Judged by what the agent's client reads from the hook: the
// person's yes lets the step through; a severe step only once confirmed
// by a second press over the node's own challenge; a card the hub edited
// before the person signed it, and a confirmation over another
// challenge, let nothing through.
func TestPageYesThroughHub(t *testing.T) {
	ctx := context.Background()
	hdb := hubtest.Database(t)
	dsn := hdb.Serve
	root := t.TempDir()
	hubDir := filepath.Join(root, "hub")
	out, stopHub := background(t, "hub", "--db", dsn, "--addr", "127.0.0.1:0", "--dir", hubDir)
	m := waitOutput(t, out, regexp.MustCompile(`hub ready on (https://[0-9.]+:([0-9]+))/ \(certificate (sha256:[0-9a-f]{64})\)`))
	base, port, fp := m[1], m[2], m[3]
	_, token, _ := sayso(t, ctx, "hub", "token", "--db", dsn, "--dir", hubDir, "--person", "ada")
	_, orgPub, _ := sayso(t, ctx, "policy", "keygen", filepath.Join(root, "org.key"))

	node := filepath.Join(root, "ada-laptop")
	config, state, project := filepath.Join(node, "config"), filepath.Join(node, "state"), filepath.Join(root, "proj")
	for _, d := range []string{config, state, filepath.Join(project, ".git")} {
		os.MkdirAll(d, 0o700)
	}
	if code, stdout, stderr := sayso(t, ctx, at(node, "team", "join", base, "--token", strings.TrimSpace(token), "--fingerprint", fp,
		"--org-key", strings.TrimSpace(orgPub), "--name", "ada-laptop")...); code != 0 {
		t.Fatalf("team join: %s %s", stdout, stderr)
	}
	serveOut, _ := background(t, at(node, "serve", "--addr", "127.0.0.1:0", "--card-timeout", testenv.Hang.String())...)
	waitOutput(t, serveOut, regexp.MustCompile(`sayso: ready`))

	b := browsertest.New(t, browsertest.TrustKey(spkiOf(t, filepath.Join(hubDir, hubserver.CertFile))))
	b.Authenticator()

	// Enrolment, on the node's own page.
	code, enrolOut, stderr := sayso(t, ctx, at(node, "team", "enrol")...)
	link := regexp.MustCompile(`open (http://localhost:[0-9]+/enrol\?token=\S+)`).FindStringSubmatch(enrolOut)
	if code != 0 || link == nil {
		t.Fatalf("team enrol: %d %s %s", code, enrolOut, stderr)
	}
	b.Open("the enrolment link", link[1])
	b.Do("make and pin a passkey", chromedp.Click(chromedp.CSS("#enrol")))
	b.WaitFor("the passkey pinned", `document.documentElement.dataset.enrol === "pinned"`)
	if st, _, err := team.ReadState(config); err != nil || len(st.Pins.Keys) != 1 || st.Pins.Origin != "https://localhost:"+port {
		t.Fatalf("the node's pins after enrolment: %+v (%v)", st.Pins, err)
	}

	// The hub's page, logged in with a one-time link.
	code, login, stderr := sayso(t, ctx, "hub", "login", "--db", dsn, "--person", "ada", "--url", "https://localhost:"+port)
	if code != 0 || !strings.HasPrefix(login, "https://localhost:"+port+"/login?token=") {
		t.Fatalf("hub login: %d %s %s", code, login, stderr)
	}
	b.Open("the hub's page", strings.TrimSpace(login))

	h, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	hook := func(command string) chan string { return claudeHook(node, root, project, command) }
	atHub := func(command string) hub.Card { t.Helper(); return openCard(t, ctx, h, command) }
	answered := func(done chan string) string { t.Helper(); return answer(t, done) }
	card := func(id string) string { return fmt.Sprintf(`li[data-card=%q]`, id) }
	press := func(c hub.Card, verdict, shows string) {
		t.Helper()
		b.WaitFor("the card on the hub's page", fmt.Sprintf(`(document.querySelector(%q) || {}).textContent?.includes(%q)`, card(c.ID), shows))
		if !b.Eval(fmt.Sprintf(`(() => { const b = document.querySelector(%q); if (!b) return false; b.click(); return true; })()`, card(c.ID)+fmt.Sprintf(` button[data-answer=%q]`, verdict))) {
			t.Fatalf("no %s button on the card: %s", verdict, b.String(fmt.Sprintf(`document.querySelector(%q).outerHTML`, card(c.ID))))
		}
		b.WaitFor("the answer sent", fmt.Sprintf(`((el) => !el || ["%s", "failed"].includes(el.dataset.sent))(document.querySelector(%q))`, verdict, card(c.ID)))
		// The card may be gone already: its machine took the answer and
		// closed it (what the hook then reads is judged after).
		if got := b.String(fmt.Sprintf(`((el) => el ? el.dataset.sent + " " + el.textContent : %q)(document.querySelector(%q))`, verdict+" (closed)", card(c.ID))); !strings.HasPrefix(got, verdict) {
			t.Fatalf("the answer was not sent: %s", got)
		}
	}
	ledger := func(kind, text, why string) bool {
		db, err := store.Open(ctx, filepath.Join(state, store.FileName))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		es, err := db.Log(ctx, store.LogFilter{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Kind == kind && strings.Contains(e.Summary, text) && strings.Contains(e.Summary, why) {
				return true
			}
		}
		return false
	}

	// The person's yes, from the hub's page: the step goes through.
	done := hook("curl https://example.com/a")
	press(atHub("curl https://example.com/a"), "allow-once", "curl https://example.com/a")
	if d := answered(done); d != "allow" {
		t.Fatalf("the person's yes at the hub's page: the client reads %q, want allow", d)
	}

	// A card the hub edits before the person reads it: the person allows
	// what the hub showed, which is not what the node asked.
	done = hook("curl https://example.com/edited")
	c := atHub("curl https://example.com/edited")
	if _, err := pgConn(t, hdb.Super).Exec(ctx, "UPDATE cards SET body = convert_to(replace(convert_from(body, 'UTF8'), 'curl https://example.com/edited', 'git status'), 'UTF8') WHERE id = $1", c.ID); err != nil {
		t.Fatal(err)
	}
	b.Do("reload the hub's page", chromedp.Reload())
	press(c, "allow-once", "git status")
	waitFor(t, "an answer-refused row for the edited card", func() bool {
		return ledger(store.KindAnswerRefused, "curl https://example.com/edited", "not the person")
	})
	denyAtHub(t, ctx, h, c)
	if d := answered(done); d != "deny" {
		t.Fatalf("a card the hub edited, then the person's deny: the client reads %q, want deny", d)
	}

	// A severe step (and a ceiling, which a push is) asks twice, as on
	// the node's own page: the person's first yes alone lets nothing
	// through; the node then asks the page for a confirmation with a
	// challenge of its own, and only the second press, signed over it,
	// lets the step through.
	done = hook("git push --force origin main")
	c = atHub("git push --force origin main")
	press(c, "allow-once", "git push --force origin main")
	b.WaitFor("the machine's ask for a confirmation", fmt.Sprintf(`!!document.querySelector(%q)`, card(c.ID)+` button[data-answer="confirm"]`))
	select {
	case d := <-done:
		t.Fatalf("a severe step was answered %q on its first yes alone", d)
	default:
	}
	press(c, "confirm", "git push --force origin main")
	if d := answered(done); d != "allow" {
		t.Fatalf("a severe step, allowed and confirmed at the hub's page: the client reads %q, want allow", d)
	}

	// A confirmation the person's passkey signed over another challenge
	// than the node's (a page that made its own) lets nothing through.
	done = hook("git push --force origin release")
	c = atHub("git push --force origin release")
	press(c, "allow-once", "git push --force origin release")
	b.WaitFor("the machine's ask for a confirmation", fmt.Sprintf(`!!document.querySelector(%q)`, card(c.ID)+` button[data-answer="confirm"]`))
	status, err := chromedp.Run(b.Ctx(), chromedp.Evaluate[string](fmt.Sprintf(`(async (id) => {
		const tab = sessionStorage.getItem("sayso-hub-tab");
		const own = crypto.getRandomValues(new Uint8Array(32));
		const c = await navigator.credentials.get({ publicKey: { challenge: own, rpId: location.hostname, userVerification: "required" } });
		const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
		const res = await fetch("/page/cards/" + id + "/answer", { method: "POST", headers: { "X-Sayso-Tab": tab, "Content-Type": "application/json" },
			body: JSON.stringify({ verdict: "confirm", assertion: { id: c.id, rawId: b64(c.rawId), type: c.type, response: {
				authenticatorData: b64(c.response.authenticatorData), clientDataJSON: b64(c.response.clientDataJSON),
				signature: b64(c.response.signature), userHandle: b64(c.response.userHandle) } } }) });
		return String(res.status);
	})(%q)`, c.ID), chromedp.EvalAwaitPromise))
	if err != nil || status != "204" {
		t.Fatalf("a confirmation over the page's own challenge, posted: %q %v", status, err)
	}
	waitFor(t, "an answer-refused row for the confirmation over another challenge", func() bool {
		return ledger(store.KindAnswerRefused, "git push --force origin release", "(confirm)")
	})
	denyAtHub(t, ctx, h, c)
	if d := answered(done); d != "deny" {
		t.Fatalf("a severe step confirmed over another challenge, then the person's deny: the client reads %q, want deny", d)
	}

	// Another machine of ada's, and one of bob's, each with a row of its
	// own at the hub.
	desktop := hubNode(t, h, "ada", "ada-desktop", `deny: npm publish --tag next <img id="pwn" src="/x">`, `{"decision":"deny","diagnostic":{"classes":["publish"]}}`)
	hubNode(t, h, "bob", "bob-laptop", "allow: cat bob-secret.txt", `{"decision":"allow"}`)
	waitFor(t, "the node to ship its row of curl https://example.com/a", func() bool {
		es, err := h.Search(ctx, desktop.Person, hub.Search{Words: []string{"curl https://example.com/a"}, Decision: "ask"})
		return err == nil && len(es) > 0
	})

	// The hub restarts: the browser's session lives on in the database.
	stopHub()
	out, _ = background(t, "hub", "--db", dsn, "--addr", "127.0.0.1:"+port, "--dir", hubDir)
	waitOutput(t, out, regexp.MustCompile(`hub ready on https://127\.0\.0\.1:`+port+`/`))
	b.Do("reload the hub's page", chromedp.Reload())

	// The ledger of all of ada's machines, searched at the hub's page.
	search := func(what string, fields map[string]string) {
		t.Helper()
		js := `document.documentElement.dataset.ledger = "";`
		for id, v := range fields {
			js += fmt.Sprintf(`document.getElementById(%q).value = %q;`, id, v)
		}
		b.Eval(js + `document.getElementById("ledger-search").requestSubmit(); true`)
		b.WaitFor(what, `document.documentElement.dataset.ledger === "ready"`)
	}
	rows := func() string {
		return b.String(`[...document.querySelectorAll("#ledger-rows tr")].map((r) => r.textContent).join("\n")`)
	}
	b.WaitFor("the ledger view after the restart", `document.documentElement.dataset.ledger === "ready" && document.querySelectorAll("#ledger-rows tr").length > 0`)
	if got := rows(); !strings.Contains(got, "ada-laptop:") || !strings.Contains(got, "curl https://example.com/a") || !strings.Contains(got, "ada-desktop:1") || strings.Contains(got, "bob") {
		t.Fatalf("the ledger of ada's machines at the hub's page:\n%s\n%s", got, b.String(`document.getElementById("ledger-status").textContent`))
	}
	b.Axe("the hub's page with its ledger view")
	search("a search by words", map[string]string{"ledger-text": "EXAMPLE.COM/a", "ledger-decision": "ask"})
	if got := rows(); !strings.Contains(got, "curl https://example.com/a") || strings.Contains(got, "edited") || strings.Contains(got, "ada-desktop") {
		t.Fatalf("the rows of example.com/a asked:\n%s", got)
	}
	search("a search by machine", map[string]string{"ledger-text": "", "ledger-decision": "", "ledger-node": "ada-desktop"})
	if got := rows(); got != b.String(`[...document.querySelectorAll("#ledger-rows tr")].filter((r) => r.dataset.node === "ada-desktop").map((r) => r.textContent).join("\n")`) || !strings.Contains(got, "npm publish") {
		t.Fatalf("the rows of ada-desktop:\n%s", got)
	}
	if !strings.Contains(rows(), `<img id="pwn"`) || b.Eval(`!!document.getElementById("pwn")`) {
		t.Fatal("a row's text was shown as markup")
	}
	search("a search for bob's row", map[string]string{"ledger-node": "", "ledger-text": "bob-secret"})
	if got := rows(); got != "" || !b.Eval(`document.getElementById("ledger-status").textContent.includes("No row")`) {
		t.Fatalf("ada's page searching for bob's row:\n%s", got)
	}
	search("a search by time", map[string]string{"ledger-text": "", "ledger-since": time.Now().Add(time.Hour).Format("2006-01-02T15:04")})
	if got := rows(); got != "" {
		t.Fatalf("the rows of the hour to come:\n%s", got)
	}

	// The page is still rung after the restart: a card reaches it, and
	// its deny reaches the node.
	done = hook("curl https://example.com/after-restart")
	press(atHub("curl https://example.com/after-restart"), "deny", "curl https://example.com/after-restart")
	if d := answered(done); d != "deny" {
		t.Fatalf("a deny from the page after the hub restarted: the client reads %q", d)
	}

	// The same ledger from the node's command line.
	code, teamLog, stderr := sayso(t, ctx, at(node, "log", "--team", "--text", "example.com/a", "--decision", "ask")...)
	if code != 0 || !regexp.MustCompile(`(?m)^ada-laptop:[0-9]+  .* decision .*curl https://example.com/a: ask`).MatchString(teamLog) || strings.Contains(teamLog, "bob") {
		t.Fatalf("log --team --text example.com/a: %d %s %s", code, teamLog, stderr)
	}
	code, teamLog, stderr = sayso(t, ctx, at(node, "log", "--team", "--node", "bob-laptop")...)
	if code != 0 || teamLog != "" {
		t.Fatalf("log --team --node bob-laptop on ada's machine: %d %q %s", code, teamLog, stderr)
	}

	// Logging out: the session's row goes, and the tab's key with it
	// opens nothing.
	tab := b.String(`sessionStorage.getItem("sayso-hub-tab")`)
	b.Do("log out", chromedp.Click(chromedp.CSS("#logout")))
	b.WaitFor("logged out", `document.documentElement.dataset.page === "out"`)
	status, err = chromedp.Run(b.Ctx(), chromedp.Evaluate[string](fmt.Sprintf(`(async () => String((await fetch("/page/ledger", { headers: { "X-Sayso-Tab": %q } })).status))()`, tab), chromedp.EvalAwaitPromise))
	if err != nil || status != "401" {
		t.Fatalf("the ledger after logging out: %q %v", status, err)
	}
}

// hubNode joins a node of person at the hub, as its API does, and chains
// one decision row to its ledger there.
func hubNode(t *testing.T, h *hub.Hub, person, name, summary, detail string) hub.Node {
	t.Helper()
	ctx := context.Background()
	token, err := h.MakeToken(ctx, person, false, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _ := ed25519.GenerateKey(nil)
	n, err := h.Join(ctx, token, name, pub)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(store.Entry{ID: 1, At: time.Now(), Kind: store.KindDecision, Session: "s1", Summary: summary, Detail: json.RawMessage(detail)})
	if err := h.Append(ctx, n.ID, []hubapi.Row{{Seq: 1, Body: body, Prev: hubapi.Genesis, Hash: hubapi.Chain(hubapi.Genesis, body)}}); err != nil {
		t.Fatal(err)
	}
	return n
}

// spkiOf is the base64 SHA-256 of the public key of the certificate in
// file, as Chromium's certificate pin takes it.
func spkiOf(t *testing.T, file string) string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	blk, _ := pem.Decode(raw)
	if blk == nil {
		t.Fatalf("%s holds no certificate", file)
	}
	c, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(c.RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(sum[:])
}
