package passkey

import (
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
)

// ErrNotEnrolled is returned for a registration a node does not pin.
var ErrNotEnrolled = errors.New("passkey not enrolled")

// EnrolChallenge is what the node's page hands the authenticator to make
// a passkey: nonce, the node's own random, under a label no answer's
// challenge shares, so that a registration is never an answer.
func EnrolChallenge(nonce []byte) []byte {
	h := sha256Sum([]byte("sayso enrol\x00"), nonce)
	return h[:]
}

// Register checks that creation (the browser's PublicKeyCredential from
// navigator.credentials.create, as JSON) was made for challenge by an
// authenticator on a page at origin of relying party rpID, with the
// person present and verified, and returns the key to pin for person.
func Register(person string, creation, challenge []byte, rpID, origin string) (Key, error) {
	if person == "" {
		return Key{}, fmt.Errorf("%w: no person to enrol", ErrNotEnrolled)
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(creation)
	if err != nil {
		return Key{}, fmt.Errorf("%w: %v", ErrNotEnrolled, err)
	}
	params := []protocol.CredentialParameter{
		{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgES256},
		{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgEdDSA},
		{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgRS256},
	}
	_, err = parsed.Verify(base64.RawURLEncoding.EncodeToString(challenge), rpID, []string{origin}, nil, nil,
		protocol.TopOriginImplicitVerificationMode, false, true, true, nil, params, protocol.AttestationPolicy{}, protocol.SignaturePolicy{})
	if err != nil {
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return Key{}, fmt.Errorf("%w: %s: %s", ErrNotEnrolled, pe.Details, pe.DevInfo)
		}
		return Key{}, fmt.Errorf("%w: %v", ErrNotEnrolled, err)
	}
	att := parsed.Response.AttestationObject.AuthData.AttData
	if len(att.CredentialID) == 0 || len(att.CredentialPublicKey) == 0 {
		return Key{}, fmt.Errorf("%w: the authenticator gave no credential", ErrNotEnrolled)
	}
	return Key{Person: person, CredentialID: att.CredentialID, PublicKey: att.CredentialPublicKey,
		SignCount: parsed.Response.AttestationObject.AuthData.Counter}, nil
}
