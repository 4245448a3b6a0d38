package passkey

import (
	"crypto/sha256"
	"fmt"
)

// ChangeChallenge is what the person's passkey signs to make a change to
// their rules or environment note on every node of theirs: exactly the
// change's bytes. Its words set it apart from an answer's challenge, so a
// yes to a card is never a change, nor a change a yes.
func ChangeChallenge(change []byte) []byte {
	c := sha256.Sum256(change)
	h := sha256.New()
	h.Write([]byte("sayso change\x00"))
	h.Write(c[:])
	return h.Sum(nil)
}

// VerifyChange checks that assertion (the browser's PublicKeyCredential,
// as JSON) is person's passkey, pinned here, signing exactly change, with
// the person present and verified. Its signature counter is not held to
// the highest seen: a node reads the person's signed changes again after
// a restart, and a change's version, not its counter, keeps an older one
// from coming back.
func (p Pins) VerifyChange(person string, change, assertion []byte) error {
	if len(change) == 0 {
		return fmt.Errorf("%w: an empty change", ErrNotThePerson)
	}
	_, err := p.verify(person, ChangeChallenge(change), assertion)
	return err
}
