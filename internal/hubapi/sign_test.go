package hubapi

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestSignCheck: a signature covers the node, the method, the URI, the
// time, the nonce and the body: change any and the hub's check fails.
func TestSignCheck(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	other, _, _ := ed25519.GenerateKey(nil)
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"id":"c1","body":"e30="}`)
	signed := func() *http.Request {
		r, _ := http.NewRequest("POST", "https://hub.example:7475/v1/node/cards?x=1", bytes.NewReader(body))
		Sign(r, 7, priv, body, now)
		return r
	}
	check := func(r *http.Request, key ed25519.PublicKey, body []byte, at time.Time) error {
		c, err := Claim(r)
		if err != nil {
			return err
		}
		return Check(r, c, key, body, at)
	}
	if err := check(signed(), pub, body, now.Add(time.Minute)); err != nil {
		t.Fatalf("the node's own request: %v", err)
	}
	for _, c := range []struct {
		name  string
		alter func(r *http.Request) (ed25519.PublicKey, []byte, time.Time)
	}{
		{"another key", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) { return other, body, now }},
		{"another body", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) { return pub, []byte(`{"id":"c2"}`), now }},
		{"another node", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			r.Header.Set(HeaderNode, "8")
			return pub, body, now
		}},
		{"another method", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			r.Method = "GET"
			return pub, body, now
		}},
		{"another path", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			r.URL.Path = PathLedger
			return pub, body, now
		}},
		{"another query", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			r.URL.RawQuery = "x=2"
			return pub, body, now
		}},
		{"another time", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			r.Header.Set(HeaderTime, strconv.FormatInt(now.Unix()+1, 10))
			return pub, body, now
		}},
		{"another nonce", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			r.Header.Set(HeaderNonce, "00000000000000000000000000000000")
			return pub, body, now
		}},
		{"no signature", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			r.Header.Del(HeaderSignature)
			return pub, body, now
		}},
		{"no node", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			r.Header.Del(HeaderNode)
			return pub, body, now
		}},
		{"checked three minutes later", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			return pub, body, now.Add(3 * time.Minute)
		}},
		{"checked three minutes earlier", func(r *http.Request) (ed25519.PublicKey, []byte, time.Time) {
			return pub, body, now.Add(-3 * time.Minute)
		}},
	} {
		r := signed()
		key, b, at := c.alter(r)
		if err := check(r, key, b, at); !errors.Is(err, ErrUnsigned) {
			t.Errorf("%s: %v, want ErrUnsigned", c.name, err)
		}
	}
}

// TestFingerprint: only a fingerprint as the hub prints it is taken.
func TestFingerprint(t *testing.T) {
	fp := Fingerprint([]byte("a certificate"))
	if got, err := ParseFingerprint(" " + fp + "\n"); err != nil || got != fp {
		t.Fatalf("ParseFingerprint(%q) = %q, %v", fp, got, err)
	}
	for _, bad := range []string{"", fp[7:], "sha1:" + fp[7:], fp[:len(fp)-2], fp + "00", "sha256:" + string(bytes.Repeat([]byte("zz"), 32))} {
		if _, err := ParseFingerprint(bad); err == nil {
			t.Errorf("ParseFingerprint(%q) took it", bad)
		}
	}
}
