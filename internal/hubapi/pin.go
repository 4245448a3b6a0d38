package hubapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Fingerprint names a certificate: "sha256:" and the hex SHA-256 of its
// DER bytes. The hub prints its own at start; a node pins it at join.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ParseFingerprint checks a fingerprint as the hub prints it.
func ParseFingerprint(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	h, ok := strings.CutPrefix(s, "sha256:")
	if b, err := hex.DecodeString(h); !ok || err != nil || len(b) != sha256.Size {
		return "", fmt.Errorf("%q is not a certificate fingerprint (sha256:64 hex digits, as sayso hub prints it)", s)
	}
	return s, nil
}

// ErrPin is returned when the hub's certificate is not the one pinned.
var ErrPin = errors.New("the hub's certificate is not the one this node pinned")

// PinnedTLS is a TLS configuration that speaks only to the certificate
// with fingerprint pin, whoever signed it: the node trusts the hub it
// joined, not a certificate authority.
func PinnedTLS(pin string) *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS13,
		// The chain is not what is checked: the leaf's fingerprint is.
		InsecureSkipVerify: true,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return ErrPin
			}
			got := Fingerprint(cs.PeerCertificates[0].Raw)
			if subtle.ConstantTimeCompare([]byte(got), []byte(pin)) != 1 {
				return fmt.Errorf("%w: it is %s, pinned %s", ErrPin, got, pin)
			}
			return nil
		},
	}
}
