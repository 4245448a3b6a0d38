package hubserver_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hubserver"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/web/browsertest"
)

// hubName is the hub's own name in TestPageAtHubsName: the browser
// resolves it to the hub's loopback port (its port 443, where WebAuthn
// fetches the related origins, too).
const hubName = "hub.sayso.test"

// freePort is a loopback port nothing listens on as it returns.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// TestPageAtHubsName: a hub with a name of its own. The person enrols a
// passkey on their node's own page, which makes it for the hub's name
// (the hub lists the node's page as a related origin), then answers a
// card on the hub's page at that name — not at localhost through a
// tunnel, so from any device that reaches the hub — in real Chromium
// with its virtual authenticator. Judged by what the agent's client
// reads from the hook. A node page on a port the hub does not list
// makes no passkey for its name.
func TestPageAtHubsName(t *testing.T) {
	ctx := context.Background()
	hdb := hubtest.Database(t)
	dsn := hdb.Serve
	root := t.TempDir()
	hubDir := filepath.Join(root, "hub")
	nodePort, unlisted := freePort(t), freePort(t)
	out, _ := background(t, "hub", "--db", dsn, "--addr", "127.0.0.1:0", "--dir", hubDir, "--name", hubName, "--node-page-port", nodePort)
	m := waitOutput(t, out, regexp.MustCompile(`hub ready on (https://[0-9.]+:([0-9]+))/ \(certificate (sha256:[0-9a-f]{64})\)`))
	base, port, fp := m[1], m[2], m[3]
	_, orgPub, _ := sayso(t, ctx, "policy", "keygen", filepath.Join(root, "org.key"))

	// Two machines of ada's: the laptop's page on the port the hub
	// lists, the desktop's on another.
	join := func(name, pagePort string) (node, config, project string) {
		t.Helper()
		_, token, _ := sayso(t, ctx, "hub", "token", "--db", dsn, "--dir", hubDir, "--person", "ada")
		node = filepath.Join(root, name)
		config, project = filepath.Join(node, "config"), filepath.Join(root, name+"-proj")
		for _, d := range []string{config, filepath.Join(node, "state"), filepath.Join(project, ".git")} {
			os.MkdirAll(d, 0o700)
		}
		// The node reaches the hub at its address; the person's
		// browser opens the page at its name.
		if code, stdout, stderr := sayso(t, ctx, at(node, "team", "join", base, "--token", strings.TrimSpace(token), "--fingerprint", fp,
			"--org-key", strings.TrimSpace(orgPub), "--name", name, "--page-name", hubName)...); code != 0 {
			t.Fatalf("team join: %s %s", stdout, stderr)
		}
		serveOut, _ := background(t, at(node, "serve", "--addr", "127.0.0.1:"+pagePort, "--card-timeout", testenv.Hang.String())...)
		waitOutput(t, serveOut, regexp.MustCompile(`sayso: ready`))
		return node, config, project
	}
	laptop, laptopConfig, laptopProject := join("ada-laptop", nodePort)
	desktop, desktopConfig, _ := join("ada-desktop", unlisted)

	b := browsertest.New(t, browsertest.TrustKey(spkiOf(t, filepath.Join(hubDir, hubserver.CertFile))),
		chromedp.Flag("host-resolver-rules", fmt.Sprintf("MAP %s:443 127.0.0.1:%s, MAP %s 127.0.0.1", hubName, port, hubName)))
	b.Authenticator()
	enrol := func(node, pagePort string) string {
		t.Helper()
		code, enrolOut, stderr := sayso(t, ctx, at(node, "team", "enrol")...)
		link := regexp.MustCompile(`open (http://sayso\.localhost:` + pagePort + `/enrol\?token=\S+)`).FindStringSubmatch(enrolOut)
		if code != 0 || link == nil {
			t.Fatalf("team enrol: %d %s %s", code, enrolOut, stderr)
		}
		b.Open("the enrolment link", link[1])
		b.Do("make and pin a passkey", chromedp.Click(chromedp.CSS("#enrol")))
		b.WaitFor("the enrolment's end", `["pinned", "refused"].includes(document.documentElement.dataset.enrol)`)
		return b.String(`document.documentElement.dataset.enrol + ": " + document.getElementById("status").textContent`)
	}

	// The desktop's page is not listed: the browser makes no passkey
	// for the hub's name there, and the page says what to do.
	if got := enrol(desktop, unlisted); !strings.HasPrefix(got, "refused") || !strings.Contains(got, "--node-page-port "+unlisted) {
		t.Fatalf("enrolment on a page the hub does not list: %s", got)
	}
	if st, _, err := team.ReadState(desktopConfig); err != nil || len(st.Pins.Keys) != 0 {
		t.Fatalf("the desktop's pins after a refused enrolment: %+v (%v)", st.Pins, err)
	}

	// The laptop's is: the passkey is the hub name's.
	if got := enrol(laptop, nodePort); !strings.HasPrefix(got, "pinned") {
		t.Fatalf("enrolment: %s", got)
	}
	if st, _, err := team.ReadState(laptopConfig); err != nil || len(st.Pins.Keys) != 1 || st.Pins.RPID != hubName || st.Pins.Origin != "https://"+hubName+":"+port {
		t.Fatalf("the laptop's pins after enrolment: %+v (%v)", st.Pins, err)
	}

	// The hub's page at its name.
	code, login, stderr := sayso(t, ctx, "hub", "login", "--db", dsn, "--person", "ada", "--url", "https://"+hubName+":"+port)
	if code != 0 || !strings.HasPrefix(login, "https://"+hubName+":"+port+"/login?token=") {
		t.Fatalf("hub login: %d %s %s", code, login, stderr)
	}
	b.Open("the hub's page at its name", strings.TrimSpace(login))

	h, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	done := claudeHook(laptop, root, laptopProject, "curl https://example.com/from-anywhere")
	c := openCard(t, ctx, h, "curl https://example.com/from-anywhere")
	sel := fmt.Sprintf(`li[data-card=%q]`, c.ID)
	b.WaitFor("the card on the hub's page", fmt.Sprintf(`(document.querySelector(%q) || {}).textContent?.includes("curl https://example.com/from-anywhere")`, sel))
	b.Do("allow", chromedp.Click(chromedp.CSS(sel+` button[data-answer="allow-once"]`)))
	b.WaitFor("the answer sent", fmt.Sprintf(`((el) => !el || ["allow-once", "failed"].includes(el.dataset.sent))(document.querySelector(%q))`, sel))
	if d := answer(t, done); d != "allow" {
		t.Fatalf("the person's yes at the hub's page under its name: the client reads %q, want allow", d)
	}

	// The person removes the passkey on the laptop: the node's ledger
	// holds the pin and the removal.
	st, _, _ := team.ReadState(laptopConfig)
	id := team.KeyID(st.Pins.Keys[0])
	if code, stdout, stderr := sayso(t, ctx, at(laptop, "team", "passkeys", "remove", id)...); code != 0 || !strings.Contains(stdout, "removed passkey "+id) {
		t.Fatalf("team passkeys remove: %d %s %s", code, stdout, stderr)
	}
	db, err := store.Open(ctx, filepath.Join(laptop, "state", store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	es, err := db.Log(ctx, store.LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, e := range es {
		kinds[e.Kind] = e.Summary
	}
	if !strings.Contains(kinds[store.KindPasskeyPinned], id) || !strings.Contains(kinds[store.KindPasskeyRemoved], id) {
		t.Fatalf("the laptop's ledger on its passkey: pinned %q, removed %q", kinds[store.KindPasskeyPinned], kinds[store.KindPasskeyRemoved])
	}
}
