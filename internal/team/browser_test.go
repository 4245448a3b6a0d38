package team

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/go-webauthn/webauthn/protocol"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/web/browsertest"
)

// passkeyPage makes and uses a passkey the way the hub's page does: the
// browser's own WebAuthn, nothing of the key ever leaving the
// authenticator.
const passkeyPage = `<!doctype html><title>passkey</title><script>
document.documentElement.dataset.page = "ready";
const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const unb64 = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), c => c.charCodeAt(0));
async function enrol(challenge) {
  const c = await navigator.credentials.create({publicKey: {
    challenge: unb64(challenge), rp: {id: location.hostname, name: 'sayso hub'},
    user: {id: new TextEncoder().encode('ada'), name: 'ada', displayName: 'ada'},
    pubKeyCredParams: [{type: 'public-key', alg: -7}],
    authenticatorSelection: {residentKey: 'required', userVerification: 'required'},
  }});
  return JSON.stringify({id: c.id, rawId: b64(c.rawId), type: c.type, response: {
    clientDataJSON: b64(c.response.clientDataJSON), attestationObject: b64(c.response.attestationObject)}});
}
async function answer(challenge, id) {
  const c = await navigator.credentials.get({publicKey: {
    challenge: unb64(challenge), rpId: location.hostname, userVerification: 'required',
    allowCredentials: [{type: 'public-key', id: unb64(id)}],
  }});
  return JSON.stringify({id: c.id, rawId: b64(c.rawId), type: c.type, response: {
    authenticatorData: b64(c.response.authenticatorData), clientDataJSON: b64(c.response.clientDataJSON),
    signature: b64(c.response.signature), userHandle: b64(c.response.userHandle)}});
}
</script>`

// TestPasskeyInChromium: a person enrols a passkey in real Chromium (its
// DevTools virtual authenticator) and answers a card through the hub; the
// node takes that yes, and no other card or verdict with it.
func TestPasskeyInChromium(t *testing.T) {
	b := browsertest.New(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, passkeyPage)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	origin := "http://localhost:" + port // a secure context: WebAuthn works on it

	b.Authenticator()
	b.Open("the passkey page", origin+"/")
	call := func(expr string) []byte {
		t.Helper()
		s, err := chromedp.Run(b.Ctx(), chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return []byte(s)
	}
	b64 := base64.RawURLEncoding.EncodeToString

	// Enrolment: the node pins the key the authenticator made.
	enrolChallenge := passkey.Challenge([]byte("enrol ada on ada-laptop"), card.Deny) // any 32 bytes
	created, err := protocol.ParseCredentialCreationResponseBytes(call(fmt.Sprintf("enrol(%q)", b64(enrolChallenge))))
	if err != nil {
		t.Fatalf("parse the enrolment: %v", err)
	}
	if created.Response.CollectedClientData.Challenge != b64(enrolChallenge) || created.Response.CollectedClientData.Origin != origin {
		t.Fatalf("enrolment for challenge %q at %q", created.Response.CollectedClientData.Challenge, created.Response.CollectedClientData.Origin)
	}
	att := created.Response.AttestationObject.AuthData.AttData
	key := passkey.Key{Person: "ada", CredentialID: att.CredentialID, PublicKey: att.CredentialPublicKey}
	taker := &Taker{Pins: passkey.Pins{RPID: "localhost", Origin: origin, Keys: []passkey.Key{key}}}

	// A card waits on the node; the person allows it at the hub's page.
	ctx := context.Background()
	h, err := hub.Open(ctx, hubtest.Database(t).Serve)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ada, _ := h.AddPerson(ctx, "ada")
	node, _ := h.AddNode(ctx, "ada-laptop", ada, false, make([]byte, 32))
	post := func(id string) Waiting {
		w := Waiting{ID: id, Person: "ada", Body: []byte(`{"card":"` + id + `","step":"git push origin main"}`)}
		if err := h.PostCard(ctx, node, id, w.Body); err != nil {
			t.Fatal(err)
		}
		return w
	}
	sign := func(w Waiting, a card.Answer) []byte {
		return call(fmt.Sprintf("answer(%q, %q)", b64(passkey.Challenge(w.Body, a)), b64(key.CredentialID)))
	}
	take := func(w Waiting, verdict string, assertion []byte) Say {
		if err := h.AddAnswer(ctx, w.ID, verdict, assertion); err != nil {
			t.Fatal(err)
		}
		as, err := h.Answers(ctx, w.ID)
		if err != nil {
			t.Fatal(err)
		}
		return taker.Take(w, as)
	}
	c1, c2, c3 := post("c1"), post("c2"), post("c3")
	yes := sign(c1, card.AllowOnce)
	if s := take(c1, "allow-once", yes); !s.Taken || s.Answer != card.AllowOnce {
		t.Fatalf("the person's yes from Chromium: took %q, refused %+v", s.Answer, s.Refused)
	}
	if s := take(c2, "allow-once", yes); s.Taken {
		t.Fatalf("c1's yes on c2 was taken: %q", s.Answer)
	}
	if s := take(c3, "always", sign(c3, card.AllowOnce)); s.Taken {
		t.Fatalf("an allow once taken as always: %q", s.Answer)
	}
	if s := take(c3, "always", sign(c3, card.AlwaysAllow)); !s.Taken || s.Answer != card.AlwaysAllow {
		t.Fatalf("the person's always from Chromium: took %q, refused %+v", s.Answer, s.Refused)
	}
}
