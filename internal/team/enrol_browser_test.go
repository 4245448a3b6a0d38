package team

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/hubserver"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/web"
	"github.com/sayso-dev/sayso/internal/web/browsertest"
)

// trustedTLS serves h over TLS on 127.0.0.1 with a certificate of its
// own for localhost, and returns its port and the option that has
// Chromium trust that certificate.
func trustedTLS(t *testing.T, h http.Handler) (string, hubserver.Cert, chromedp.ExecAllocatorOption) {
	t.Helper()
	cert, err := hubserver.OwnCert(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(cert.TLS.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	spki := sha256.Sum256(leaf.RawSubjectPublicKeyInfo)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, TLSConfig: &tls.Config{MinVersion: tls.VersionTLS13, Certificates: []tls.Certificate{cert.TLS}}}
	go srv.ServeTLS(ln, "", "")
	t.Cleanup(func() { srv.Close() })
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), cert, browsertest.TrustKey(base64.StdEncoding.EncodeToString(spki[:]))
}

// virtualAuthenticator adds a fresh authenticator to the browser, the
// person present and verified, and returns its id.
func virtualAuthenticator(b *browsertest.Browser) webauthn.AuthenticatorID { return b.Authenticator() }

// TestEnrolInChromium: the person pins a passkey on the node through the
// node's own page, in real Chromium with its virtual authenticator; a
// yes that passkey signs over a card's bytes at the hub's page is taken,
// one signed by another authenticator is not, and the enrolment link
// works once.
func TestEnrolInChromium(t *testing.T) {
	// The hub's page, over TLS on its port: here a page that signs.
	hubPort, _, trust := trustedTLS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, passkeyPage)
	}))
	b := browsertest.New(t, trust)

	config := t.TempDir()
	orgPub, _, _ := ed25519.GenerateKey(nil)
	if err := WriteState(config, State{Hub: "https://127.0.0.1:" + hubPort, OrgKey: orgPub, Node: 1, Person: "ada", HubPin: "sha256:00"}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	page, err := web.New(web.NewMemory(nil), web.Options{Addr: ln.Addr().String(), Enroller: &Enroller{Config: config}})
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: page}
	go srv.Serve(ln)
	defer srv.Close()

	first := virtualAuthenticator(b)
	link := page.EnrolURL()
	if !strings.HasPrefix(link, "http://localhost:") {
		t.Fatalf("the enrolment link is not at localhost: %s", link)
	}
	b.Open("the enrolment link", link)
	b.Do("make and pin a passkey", chromedp.Click(chromedp.CSS("#enrol")))
	b.WaitFor("the passkey pinned", `["pinned", "refused"].includes(document.documentElement.dataset.enrol)`)
	if got := b.String(`document.documentElement.dataset.enrol + ": " + document.getElementById("status").textContent`); !strings.HasPrefix(got, "pinned") {
		t.Fatalf("enrolment: %s", got)
	}
	st, _, err := ReadState(config)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Pins.Keys) != 1 || st.Pins.Keys[0].Person != "ada" || st.Pins.RPID != "localhost" || st.Pins.Origin != "https://localhost:"+hubPort {
		t.Fatalf("pinned: %+v", st.Pins)
	}
	key := st.Pins.Keys[0]

	// The link works once.
	b.Do("open the enrolment link again", chromedp.Navigate(link))
	if got := b.Text("body"); !strings.Contains(got, "already used") {
		t.Fatalf("a second use of the enrolment link: %q", got)
	}

	// The person answers at the hub's page with the pinned passkey.
	b.Open("the hub's page", "https://localhost:"+hubPort+"/")
	call := func(expr string) []byte {
		t.Helper()
		s, err := chromedp.Run(b.Ctx(), chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return []byte(s)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	taker := &Taker{Pins: st.Pins}
	post := func(id string) Waiting {
		return Waiting{ID: id, Person: "ada", Body: []byte(`{"card":"` + id + `","step":"git push origin main"}`)}
	}
	take := func(w Waiting, assertion []byte) Say {
		return taker.Take(w, []hubapi.Answer{{ID: 1, Card: w.ID, Verdict: "allow-once", Assertion: assertion}})
	}
	c1 := post("c1")
	yes := call(fmt.Sprintf("answer(%q, %q)", b64(passkey.Challenge(c1.Body, card.AllowOnce)), b64(key.CredentialID)))
	if s := take(c1, yes); !s.Taken || s.Answer != card.AllowOnce {
		t.Fatalf("the enrolled passkey's yes: took %q, refused %+v", s.Answer, s.Refused)
	}

	// Another authenticator, with a passkey of its own for the same
	// person and relying party, never enrolled on the node.
	b.Do("remove the enrolled authenticator", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, webauthn.RemoveVirtualAuthenticator, webauthn.RemoveVirtualAuthenticatorParams{AuthenticatorID: first})
		return err
	}))
	virtualAuthenticator(b)
	other := call(fmt.Sprintf("enrol(%q)", b64(passkey.EnrolChallenge([]byte("not through the node's page")))))
	otherKey, err := passkey.Register("ada", other, passkey.EnrolChallenge([]byte("not through the node's page")), "localhost", "https://localhost:"+hubPort)
	if err != nil {
		t.Fatal(err)
	}
	c2 := post("c2")
	forged := call(fmt.Sprintf("answer(%q, %q)", b64(passkey.Challenge(c2.Body, card.AllowOnce)), b64(otherKey.CredentialID)))
	if s := take(c2, forged); s.Taken || len(s.Refused) != 1 || !strings.Contains(s.Refused[0].Why, "no passkey of ada this node pinned") {
		t.Fatalf("a yes by an authenticator never enrolled: took %q, refused %+v", s.Answer, s.Refused)
	}
	if s := take(c1, yes); s.Taken {
		t.Fatalf("the enrolled passkey's yes taken twice: %q", s.Answer)
	}
}
