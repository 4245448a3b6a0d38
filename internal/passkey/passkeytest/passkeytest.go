// Package passkeytest is a software authenticator for tests: an ES256
// passkey that makes assertions the way a browser hands them to a page.
// It is for tests only; real answers come from the person's own
// authenticator through the browser.
package passkeytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"

	"github.com/sayso-dev/sayso/internal/passkey"
)

// Authr is a software authenticator: one ES256 passkey of a person.
type Authr struct {
	person string
	id     []byte
	key    *ecdsa.PrivateKey
	count  uint32
	fixed  bool // the next assertion signs with count as it is
}

// Clone is a copy of the authenticator as it is now: the same passkey,
// its own counter from here on, as a cloned authenticator has.
func (a *Authr) Clone() *Authr {
	c := *a
	return &c
}

// SignNext makes the next assertion sign with counter n; the ones after
// count on from it. Zero is what an authenticator that keeps no counter
// signs.
func (a *Authr) SignNext(n uint32) { a.count, a.fixed = n, true }

// New makes a passkey for person.
func New(t testing.TB, person string) *Authr {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &Authr{person: person, id: id, key: k}
}

// Pinned is the key a node pins when the person enrols it.
func (a *Authr) Pinned(t testing.TB) passkey.Key {
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

// Assert signs challenge as the authenticator would for a page at origin
// of relying party rpID, the person present and verified.
func (a *Authr) Assert(t testing.TB, rpID, origin string, challenge []byte) []byte {
	t.Helper()
	if !a.fixed {
		a.count++
	}
	a.fixed = false
	rp := sha256.Sum256([]byte(rpID))
	auth := append(rp[:], 0x05) // user present, user verified
	auth = binary.BigEndian.AppendUint32(auth, a.count)
	client, _ := json.Marshal(map[string]any{
		"type": "webauthn.get", "challenge": base64.RawURLEncoding.EncodeToString(challenge), "origin": origin, "crossOrigin": false,
	})
	ch := sha256.Sum256(client)
	digest := sha256.Sum256(append(append([]byte(nil), auth...), ch[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	out, _ := json.Marshal(map[string]any{
		"id": b64(a.id), "rawId": b64(a.id), "type": "public-key",
		"response": map[string]string{
			"authenticatorData": b64(auth), "clientDataJSON": b64(client), "signature": b64(sig), "userHandle": b64([]byte(a.person)),
		},
	})
	return out
}
