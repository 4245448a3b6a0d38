package hubapi

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Headers of a signed request.
const (
	HeaderNode      = "Sayso-Node"
	HeaderTime      = "Sayso-Time"
	HeaderNonce     = "Sayso-Nonce"
	HeaderSignature = "Sayso-Signature"
)

// Skew is how far a signed request's time may be from the hub's clock; a
// nonce is remembered that long on each side of it.
const Skew = 2 * time.Minute

// message is what a node signs: the node, the request (method and URI),
// the time, a nonce and the body's SHA-256. A signature over one request
// is no signature over another.
func message(node int64, method, uri string, at int64, nonce string, body []byte) []byte {
	sum := sha256.Sum256(body)
	return fmt.Appendf(nil, "sayso node request v1\n%d\n%s\n%s\n%d\n%s\n%s", node, method, uri, at, nonce, hex.EncodeToString(sum[:]))
}

// Sign sets the headers that sign r, whose body is body, as node with key.
func Sign(r *http.Request, node int64, key ed25519.PrivateKey, body []byte, now time.Time) {
	var n [16]byte
	_, _ = rand.Read(n[:])
	nonce := hex.EncodeToString(n[:])
	at := now.Unix()
	r.Header.Set(HeaderNode, strconv.FormatInt(node, 10))
	r.Header.Set(HeaderTime, strconv.FormatInt(at, 10))
	r.Header.Set(HeaderNonce, nonce)
	r.Header.Set(HeaderSignature, base64.StdEncoding.EncodeToString(ed25519.Sign(key, message(node, r.Method, r.URL.RequestURI(), at, nonce, body))))
}

// Signed is what a signed request claims: the node, and the nonce the
// hub must see once.
type Signed struct {
	Node  int64
	Nonce string
	At    time.Time
}

// ErrUnsigned is returned for a request that does not prove its node.
var ErrUnsigned = errors.New("the request is not signed by a node of this hub")

// Claim reads a request's signing headers, not yet checked.
func Claim(r *http.Request) (Signed, error) {
	node, err := strconv.ParseInt(r.Header.Get(HeaderNode), 10, 64)
	if err != nil || node <= 0 {
		return Signed{}, fmt.Errorf("%w: no node named", ErrUnsigned)
	}
	at, err := strconv.ParseInt(r.Header.Get(HeaderTime), 10, 64)
	if err != nil {
		return Signed{}, fmt.Errorf("%w: no time", ErrUnsigned)
	}
	nonce := r.Header.Get(HeaderNonce)
	if len(nonce) != 32 {
		return Signed{}, fmt.Errorf("%w: no nonce", ErrUnsigned)
	}
	return Signed{Node: node, Nonce: nonce, At: time.Unix(at, 0)}, nil
}

// Check verifies that r, with body, was signed by key as s claims, within
// Skew of now. It does not know nonces: the hub remembers them.
func Check(r *http.Request, s Signed, key ed25519.PublicKey, body []byte, now time.Time) error {
	sig, err := base64.StdEncoding.DecodeString(r.Header.Get(HeaderSignature))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return fmt.Errorf("%w: no signature", ErrUnsigned)
	}
	if len(key) != ed25519.PublicKeySize || !ed25519.Verify(key, message(s.Node, r.Method, r.URL.RequestURI(), s.At.Unix(), s.Nonce, body), sig) {
		return fmt.Errorf("%w: the signature is not node %d's", ErrUnsigned, s.Node)
	}
	if d := now.Sub(s.At); d > Skew || d < -Skew {
		return fmt.Errorf("%w: signed at %s, more than %s from the hub's clock", ErrUnsigned, s.At.UTC().Format(time.RFC3339), Skew)
	}
	return nil
}
