// Package passkey checks, on a node, that a yes came from the person: a
// WebAuthn assertion by one of the passkeys the node pinned when the
// person enrolled it, whose challenge is the hash of exactly the card and
// the answer. The hub routes answers but holds no key that makes one:
// without the person's authenticator nothing verifies, so the hub can deny
// but never approve.
package passkey

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/go-webauthn/webauthn/protocol"

	"github.com/sayso-dev/sayso/internal/card"
)

// Key is one passkey a node pinned when its person enrolled it.
type Key struct {
	Person       string `json:"person"`
	CredentialID []byte `json:"credential_id"`
	PublicKey    []byte `json:"public_key"` // COSE, as the authenticator gave it at registration
	// SignCount is the authenticator's signature counter at
	// registration: every assertion must count past it, unless the
	// authenticator keeps no counter (zero throughout).
	SignCount uint32 `json:"sign_count,omitempty"`
	// Pinned is when the node pinned the key.
	Pinned time.Time `json:"pinned,omitzero"`
}

// Use is what a verified assertion tells of its passkey: which one, its
// signature counter, and the counter it had at registration.
type Use struct {
	Credential []byte
	Count      uint32
	Floor      uint32
}

// Pins are the passkeys a node trusts, and the hub's WebAuthn identity:
// its relying party ID and the origin of its page.
type Pins struct {
	RPID   string `json:"rp_id"`
	Origin string `json:"origin"`
	Keys   []Key  `json:"keys"`
}

// EnrolHost is the name of a node's own page where a passkey for its
// hub's own name is made: a loopback name browsers resolve themselves
// (never through DNS), which, unlike localhost, a hub can list among its
// related origins (https://NAME/.well-known/webauthn).
const EnrolHost = "sayso.localhost"

// VerdictConfirm is the hub's word for the second confirmation of a
// severe, ceiling or never step's yes, over the node's challenge
// (ConfirmChallenge). Every other verdict is a card.Answer in its text
// form; only a deny needs no signature.
const VerdictConfirm = "confirm"

// signedWords are the words a passkey signs for each answer the hub's
// page gives: the bytes of the signature's domain, frozen as they were
// first signed, so that a yes made by any sayso's page verifies. They are
// not the answers' text (card.Answer is); the hub's page script keeps the
// same three.
var signedWords = map[card.Answer]string{card.AllowOnce: "allow", card.AlwaysAllow: "always", card.Deny: "deny"}

// ErrNotThePerson is returned for an assertion that does not prove the
// card's person said this answer to this card.
var ErrNotThePerson = errors.New("not the person's own say-so")

// Challenge is what the person's passkey signs to give answer a to card:
// the card's bytes and the answer, so that a yes to one card is no yes
// to another, and an "allow once" is never an "always". An answer the
// hub's page does not give (deny-hold) has no challenge: nil.
func Challenge(card []byte, a card.Answer) []byte {
	word, ok := signedWords[a]
	if !ok {
		return nil
	}
	c := sha256.Sum256(card)
	h := sha256.New()
	h.Write([]byte("sayso answer\x00"))
	h.Write([]byte(word))
	h.Write([]byte{0})
	h.Write(c[:])
	return h.Sum(nil)
}

// ConfirmChallenge is what the person's passkey signs to confirm a yes to
// card a second time: the card's bytes and the node's own challenge for
// it (random, given only once the node took the first yes), so that the
// confirmation is made after the node asked for it, and for that card.
func ConfirmChallenge(card, nodeChallenge []byte) []byte {
	c := sha256.Sum256(card)
	h := sha256.New()
	h.Write([]byte("sayso confirm\x00"))
	h.Write(c[:])
	h.Write(nodeChallenge)
	return h.Sum(nil)
}

// VerifyConfirm checks that assertion is person's passkey, pinned here,
// confirming a yes to exactly card over the node's challenge.
func (p Pins) VerifyConfirm(person string, card, nodeChallenge, assertion []byte) (Use, error) {
	if len(nodeChallenge) == 0 {
		return Use{}, fmt.Errorf("%w: this node asked for no confirmation", ErrNotThePerson)
	}
	return p.verify(person, ConfirmChallenge(card, nodeChallenge), assertion)
}

func sha256Sum(parts ...[]byte) [sha256.Size]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// Verify checks that assertion (the browser's PublicKeyCredential, as
// JSON) is person's passkey, pinned here, giving answer a to exactly card,
// with the person present and verified. Whether its signature counter
// grew is the caller's to check, against the highest it saw (Use).
func (p Pins) Verify(person string, card []byte, a card.Answer, assertion []byte) (Use, error) {
	challenge := Challenge(card, a)
	if challenge == nil {
		return Use{}, fmt.Errorf("%w: no answer the hub's page gives: %v", ErrNotThePerson, a)
	}
	if len(assertion) == 0 {
		return Use{}, fmt.Errorf("%w: the answer carries no signature", ErrNotThePerson)
	}
	return p.verify(person, challenge, assertion)
}

// verify checks that assertion is person's passkey, pinned here, over
// challenge, with the person present and verified, and says which
// passkey signed with which count.
func (p Pins) verify(person string, challenge, assertion []byte) (Use, error) {
	if len(assertion) == 0 {
		return Use{}, fmt.Errorf("%w: no signature", ErrNotThePerson)
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(assertion)
	if err != nil {
		return Use{}, fmt.Errorf("%w: %v", ErrNotThePerson, err)
	}
	var key *Key
	for i := range p.Keys {
		if p.Keys[i].Person == person && bytes.Equal(p.Keys[i].CredentialID, parsed.RawID) {
			key = &p.Keys[i]
		}
	}
	if key == nil {
		return Use{}, fmt.Errorf("%w: signed by no passkey of %s this node pinned", ErrNotThePerson, person)
	}
	err = parsed.Verify(base64.RawURLEncoding.EncodeToString(challenge), p.RPID, "", []string{p.Origin}, nil, nil, protocol.TopOriginImplicitVerificationMode,
		false, true, true, key.PublicKey, protocol.SignaturePolicy{})
	if err != nil {
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return Use{}, fmt.Errorf("%w: %s: %s", ErrNotThePerson, pe.Details, pe.DevInfo)
		}
		return Use{}, fmt.Errorf("%w: %v", ErrNotThePerson, err)
	}
	return Use{Credential: key.CredentialID, Count: parsed.Response.AuthenticatorData.Counter, Floor: key.SignCount}, nil
}

// Signed is the digest of what the authenticator signed in assertion: its
// credential, its authenticator data and its client data. It is the same
// for every spelling of one assertion — other JSON around it, other base64,
// the signature's other ECDSA form — so a node that takes a yes once by
// it takes no copy of that yes the hub re-spells. An authenticator that
// keeps no counter signs the same bytes for the same card and verdict
// each time: a second yes to the same card's bytes is then refused too.
// Verify reads the assertion first; one that does not parse (which
// Verify refuses) is digested whole.
func Signed(assertion []byte) [32]byte {
	h := sha256.New()
	parsed, err := protocol.ParseCredentialRequestResponseBytes(assertion)
	if err != nil {
		h.Write([]byte("sayso unparsed assertion\x00"))
		h.Write(assertion)
	} else {
		h.Write([]byte("sayso assertion\x00"))
		for _, part := range [][]byte{parsed.RawID, parsed.Raw.AssertionResponse.AuthenticatorData, parsed.Raw.AssertionResponse.ClientDataJSON} {
			h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(part))))
			h.Write(part)
		}
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}
