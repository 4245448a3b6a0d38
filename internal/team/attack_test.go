package team

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/store"
)

// forger is a software authenticator whose every signed field a test can
// set: an ES256 passkey of one person.
type forger struct {
	person string
	id     []byte
	key    *ecdsa.PrivateKey
}

func newForger(t *testing.T, person string) *forger {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &forger{person: person, id: id, key: k}
}

// pinned is the key a node pins when the person enrols it.
func (a *forger) pinned(t *testing.T) passkey.Key {
	t.Helper()
	pub, err := a.key.PublicKey.ECDH()
	if err != nil {
		t.Fatal(err)
	}
	raw := pub.Bytes() // 0x04 || X || Y
	cose, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{
		PublicKeyData: webauthncose.PublicKeyData{KeyType: int64(webauthncose.EllipticKey), Algorithm: int64(webauthncose.AlgES256)},
		Curve:         int64(webauthncose.P256), XCoord: raw[1:33], YCoord: raw[33:],
	})
	if err != nil {
		t.Fatal(err)
	}
	return passkey.Key{Person: a.person, CredentialID: a.id, PublicKey: cose}
}

// assert is the person's honest yes: present and verified, at the pinned
// hub, over challenge.
func (a *forger) assert(t *testing.T, rpID, origin string, challenge []byte) []byte {
	t.Helper()
	f := honest()
	f.rpID, f.origin = rpID, origin
	return a.sign(t, f, challenge)
}

// forged is what a hostile hub, or one between node and hub, makes of an
// assertion: each field of what the authenticator signs can be set.
type forged struct {
	rpID, origin, typ string
	flags             byte
	count             uint32
	crossOrigin       bool
	topOrigin         string
}

func honest() forged {
	return forged{rpID: rpID, origin: origin, typ: "webauthn.get", flags: 0x05, count: 1}
}

// sign makes an assertion by a's real key over what f says: the signature
// verifies, so only the node's checks of what was signed can refuse it.
func (a *forger) sign(t *testing.T, f forged, challenge []byte) []byte {
	t.Helper()
	rp := sha256.Sum256([]byte(f.rpID))
	auth := append(rp[:], f.flags)
	auth = binary.BigEndian.AppendUint32(auth, f.count)
	cd := map[string]any{"type": f.typ, "challenge": base64.RawURLEncoding.EncodeToString(challenge), "origin": f.origin, "crossOrigin": f.crossOrigin}
	if f.topOrigin != "" {
		cd["topOrigin"] = f.topOrigin
	}
	client, _ := json.Marshal(cd)
	ch := sha256.Sum256(client)
	digest := sha256.Sum256(append(append([]byte(nil), auth...), ch[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	return assertionJSON(a.id, auth, client, sig, a.person)
}

func assertionJSON(id, auth, client, sig []byte, person string) []byte {
	b64 := base64.RawURLEncoding.EncodeToString
	out, _ := json.Marshal(map[string]any{
		"id": b64(id), "rawId": b64(id), "type": "public-key",
		"response": map[string]string{
			"authenticatorData": b64(auth), "clientDataJSON": b64(client), "signature": b64(sig), "userHandle": b64([]byte(person)),
		},
	})
	return out
}

// TestAttackForgedAssertions: the person's real key signed each of these,
// but over something other than the person present and verified, at the
// pinned hub, answering this card: none lets the step through.
func TestAttackForgedAssertions(t *testing.T) {
	ada := newForger(t, "ada")
	taker := &Taker{Pins: passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{ada.pinned(t)}}}
	w := Waiting{ID: "c1", Person: "ada", Body: []byte(`{"card":"c1","node":"ada-laptop","step":"git push --force origin main"}`)}
	yes := passkey.Challenge(w.Body, card.AllowOnce)
	for _, c := range []struct {
		name string
		edit func(f *forged)
		why  string
	}{
		{"the person not present (UP off)", func(f *forged) { f.flags = 0x04 }, "presence"},
		{"the person not verified (UV off)", func(f *forged) { f.flags = 0x01 }, "verif"},
		{"neither flag", func(f *forged) { f.flags = 0 }, ""},
		{"another relying party", func(f *forged) { f.rpID = "evil.example" }, "RP Hash"},
		{"an origin the node did not pin", func(f *forged) { f.origin = "https://hub.example.evil.example" }, "origin"},
		{"the pinned origin over http", func(f *forged) { f.origin = "http://hub.example" }, "origin"},
		{"a registration, not an assertion", func(f *forged) { f.typ = "webauthn.create" }, ""},
		{"framed by another site", func(f *forged) { f.crossOrigin, f.topOrigin = true, "https://evil.example" }, ""},
	} {
		f := honest()
		c.edit(&f)
		s := taker.Take(w, []hubapi.Answer{{ID: 1, Card: w.ID, Verdict: "allow-once", Assertion: ada.sign(t, f, yes)}})
		if s.Taken || len(s.Refused) != 1 || !strings.Contains(fmt.Sprint(s.Refused), c.why) {
			t.Errorf("%s: took %q, refused %v; want nothing taken (%q)", c.name, s.Answer, s.Refused, c.why)
		}
	}
	// The same, honest, is taken: the refusals above are the edits'.
	if s := taker.Take(w, []hubapi.Answer{{ID: 2, Card: w.ID, Verdict: "allow-once", Assertion: ada.sign(t, honest(), yes)}}); !s.Taken || s.Answer != card.AllowOnce {
		t.Fatalf("the honest assertion: took %q, refused %v", s.Answer, s.Refused)
	}
}

// TestAttackVerdictMadeUp: a verdict the node does not know, or one in
// another case, is no yes; a deny in another case is no deny either, so
// nothing is taken.
func TestAttackVerdictMadeUp(t *testing.T) {
	ada := newForger(t, "ada")
	taker := &Taker{Pins: passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{ada.pinned(t)}}}
	w := Waiting{ID: "c1", Person: "ada", Body: []byte(`{"card":"c1","step":"git push --force"}`)}
	// signedOver is passkey.Challenge's hash over any word, as a forger
	// who controls the hub makes it.
	signedOver := func(word string) []byte {
		c := sha256.Sum256(w.Body)
		h := sha256.New()
		h.Write([]byte("sayso answer\x00" + word + "\x00"))
		h.Write(c[:])
		return h.Sum(nil)
	}
	// "allow" is the word a passkey signs for allow-once, but on the wire
	// it names no answer: the answer's text is allow-once. A deny-hold the
	// hub's page never gives.
	for _, v := range []string{"Allow", "ALWAYS", "allow ", "yes", "", "Deny", "allow", "deny-hold"} {
		a := ada.sign(t, honest(), signedOver(v))
		if s := taker.Take(w, []hubapi.Answer{{ID: 1, Card: w.ID, Verdict: v, Assertion: a}}); s.Taken {
			t.Errorf("verdict %q signed by the person: took %q", v, s.Answer)
		}
	}
}

// reencode gives the same assertion — the same signed bytes and the same
// signature — in other JSON: what a hub can do to any answer it carries.
func reencode(t *testing.T, assertion []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(assertion, &m); err != nil {
		t.Fatal(err)
	}
	m["clientExtensionResults"] = map[string]any{}
	out, err := json.MarshalIndent(m, " ", "\t")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// highS gives the same ECDSA signature as (r, n-s): it verifies as well,
// and is other bytes.
func highS(t *testing.T, assertion []byte) []byte {
	t.Helper()
	var m struct {
		ID       string            `json:"id"`
		Response map[string]string `json:"response"`
	}
	if err := json.Unmarshal(assertion, &m); err != nil {
		t.Fatal(err)
	}
	d := base64.RawURLEncoding.DecodeString
	id, _ := d(m.ID)
	auth, _ := d(m.Response["authenticatorData"])
	client, _ := d(m.Response["clientDataJSON"])
	sig, _ := d(m.Response["signature"])
	var rs struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(sig, &rs); err != nil {
		t.Fatal(err)
	}
	rs.S.Sub(elliptic.P256().Params().N, rs.S)
	high, err := asn1.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	return assertionJSON(id, auth, client, high, "ada")
}

// TestAttackReplayReencoded: a yes the node took once comes back from the
// hub in other bytes — other JSON, or the signature's other form — and is
// not taken again: a yes is taken once by what was signed, not by how
// the hub spells it.
func TestAttackReplayReencoded(t *testing.T) {
	ada := newForger(t, "ada")
	pins := passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{ada.pinned(t)}}
	w := Waiting{ID: "c1", Person: "ada", Body: []byte(`{"card":"c1","node":"ada-laptop","step":"git push --force origin main"}`)}
	yes := ada.assert(t, rpID, origin, passkey.Challenge(w.Body, card.AllowOnce))
	for _, c := range []struct {
		name  string
		again []byte
	}{
		{"other JSON", reencode(t, yes)},
		{"the signature's other form", highS(t, yes)},
	} {
		taker := &Taker{Pins: pins}
		if s := taker.Take(w, []hubapi.Answer{{ID: 1, Card: w.ID, Verdict: "allow-once", Assertion: yes}}); !s.Taken || s.Answer != card.AllowOnce {
			t.Fatalf("the person's yes: took %q, refused %v", s.Answer, s.Refused)
		}
		// The forms verify on their own: only the replay check stands
		// between them and a second step.
		if _, err := pins.Verify("ada", w.Body, card.AllowOnce, c.again); err != nil {
			t.Fatalf("%s does not verify: %v", c.name, err)
		}
		if s := taker.Take(w, []hubapi.Answer{{ID: 2, Card: w.ID, Verdict: "allow-once", Assertion: c.again}}); s.Taken {
			t.Errorf("the yes replayed in %s: taken again (%q)", c.name, s.Answer)
		}
	}
}

// TestAttackYesToEqualBytes: the hub hands the person's yes to one card
// to another card of the same step — on the same node after the first was
// answered, on a node restarted with a fresh Taker, or on the person's
// other node. The passkey signed the first card's bytes; the others are
// not those bytes, since a card's bytes name it, and a card whose bytes
// do not name it takes no yes at all.
func TestAttackYesToEqualBytes(t *testing.T) {
	ada := newForger(t, "ada")
	pins := passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{ada.pinned(t)}}
	body := func(id, node string) []byte {
		return []byte(`{"card":"` + id + `","node":"` + node + `","step":"git push --force origin main"}`)
	}
	first := Waiting{ID: "3f2a", Person: "ada", Body: body("3f2a", "ada-laptop")}
	yes := ada.assert(t, rpID, origin, passkey.Challenge(first.Body, card.AllowOnce))
	laptop := &Taker{Pins: pins}
	if s := laptop.Take(first, []hubapi.Answer{{ID: 1, Card: first.ID, Verdict: "allow-once", Assertion: yes}}); !s.Taken || s.Answer != card.AllowOnce {
		t.Fatalf("the person's yes: took %q, refused %v", s.Answer, s.Refused)
	}
	for _, c := range []struct {
		name  string
		taker *Taker
		w     Waiting
	}{
		{"the next card on the same node", laptop, Waiting{ID: "9c01", Person: "ada", Body: body("9c01", "ada-laptop")}},
		{"the next card after a restart", &Taker{Pins: pins}, Waiting{ID: "9c01", Person: "ada", Body: body("9c01", "ada-laptop")}},
		{"a card on the person's other node", &Taker{Pins: pins}, Waiting{ID: "77d0", Person: "ada", Body: body("77d0", "ada-build")}},
	} {
		if s := c.taker.Take(c.w, []hubapi.Answer{{ID: 2, Card: c.w.ID, Verdict: "allow-once", Assertion: yes}}); s.Taken {
			t.Errorf("%s: took %q", c.name, s.Answer)
		}
	}
	// Cards whose bytes do not name them: the bytes alone are signed, so
	// a yes to one would be a yes to every card of equal bytes. None is
	// taken, not even the person's own yes to exactly those bytes.
	same := []byte(`{"step":"git push --force origin main"}`)
	onLaptop, onBuild := Waiting{ID: "b1", Person: "ada", Body: same}, Waiting{ID: "b2", Person: "ada", Body: same}
	yesToB1 := ada.assert(t, rpID, origin, passkey.Challenge(same, card.AllowOnce))
	(&Taker{Pins: pins}).Take(onLaptop, []hubapi.Answer{{ID: 5, Card: onLaptop.ID, Verdict: "allow-once", Assertion: yesToB1}})
	if s := (&Taker{Pins: pins}).Take(onBuild, []hubapi.Answer{{ID: 6, Card: onBuild.ID, Verdict: "allow-once", Assertion: yesToB1}}); s.Taken {
		t.Errorf("the yes to card b1 taken for card b2 of equal bytes on another node: %q", s.Answer)
	}
	for _, w := range []Waiting{
		{ID: "a1", Person: "ada", Body: []byte(`{"node":"ada-laptop","step":"git push --force origin main"}`)},
		{ID: "a1", Person: "ada", Body: []byte(`{"card":"a2","step":"git push --force origin main"}`)},
		{ID: "a1", Person: "ada", Body: []byte(`git push --force origin main`)},
		{ID: "", Person: "ada", Body: []byte(`{"card":"","step":"git push --force origin main"}`)},
	} {
		own := ada.assert(t, rpID, origin, passkey.Challenge(w.Body, card.AllowOnce))
		if s := (&Taker{Pins: pins}).Take(w, []hubapi.Answer{{ID: 3, Card: w.ID, Verdict: "allow-once", Assertion: own}}); s.Taken ||
			!strings.Contains(fmt.Sprint(s.Refused), "do not name card") {
			t.Errorf("card %q with bytes %s: took %q, refused %v", w.ID, w.Body, s.Answer, s.Refused)
		}
	}
	// A deny still needs nothing: the hub may say no to any card.
	w := Waiting{ID: "a1", Person: "ada", Body: []byte(`git push --force origin main`)}
	if s := (&Taker{Pins: pins}).Take(w, []hubapi.Answer{{ID: 4, Card: w.ID, Verdict: "deny"}}); !s.Taken || s.Answer != card.Deny {
		t.Fatalf("a deny: took %q", s.Answer)
	}
}

// liar is a hub that says it holds what it does not: a head of its own
// making for the node's chain. It records what it is sent.
type liar struct {
	seq  int64
	hash []byte
	sent []hubapi.Row
}

func (l *liar) Head(context.Context, int64) (int64, []byte, error) { return l.seq, l.hash, nil }
func (l *liar) Append(_ context.Context, _ int64, rows []hubapi.Row) error {
	l.sent = append(l.sent, rows...)
	return nil
}

// TestAttackHubLiesAboutTheChain: the hub says the node's chain ends
// where it does not — at a row it made up in the node's name, at the
// node's own last row with another hash, far ahead, before the start. The
// node sends nothing, marks nothing shipped, and says the chain is not
// its own: no row is lost to a hub that claims to hold it.
func TestAttackHubLiesAboutTheChain(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SetChain(ctx, true); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := db.SetNote(ctx, fmt.Sprint("note ", i)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := db.Outbox(ctx, 10)
	if err != nil || len(out) != 3 {
		t.Fatalf("outbox: %d rows, %v", len(out), err)
	}
	last := out[2]
	forged := []byte(`{"kind":"answer","decision":"allow","by":"ada"}`)
	for _, c := range []struct {
		name string
		l    *liar
	}{
		{"a row made up after the node's last", &liar{seq: last.Seq + 1, hash: hubapi.Chain(last.Hash, forged)}},
		{"the node's last row with another hash", &liar{seq: last.Seq, hash: hubapi.Chain(out[1].Hash, forged)}},
		{"the node's first row with another hash", &liar{seq: out[0].Seq, hash: hubapi.Chain(hubapi.Genesis, forged)}},
		{"far ahead", &liar{seq: 1 << 40, hash: hubapi.Genesis}},
		{"before the start", &liar{seq: -5, hash: hubapi.Genesis}},
		{"a gap: the hub lost the node's rows", &liar{seq: out[0].Seq - 2, hash: hubapi.Genesis}},
	} {
		n, err := Ship(ctx, db, c.l, 1, 10)
		if !errors.Is(err, hubapi.ErrChain) || n != 0 || len(c.l.sent) != 0 {
			t.Errorf("%s: Ship = %d, %v, sent %d rows; want nothing sent and ErrChain", c.name, n, err, len(c.l.sent))
		}
		if still, _ := db.Outbox(ctx, 10); len(still) != 3 {
			t.Fatalf("%s: %d rows left in the outbox, want all 3: rows were marked shipped", c.name, len(still))
		}
	}
}
