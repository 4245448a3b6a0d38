package bundle

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/policy"
)

var now = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

const good = `
mode_cap = "auto"
protected_paths = ["/srv/keys"]
secret_paths = ["~/.config/acme/token"]
trusted_hosts = ["proxy.golang.org", "registry.npmjs.org"]

[tools]
"mcp__acme__deploy" = "deploy"

[[deny]]
command = "git push --force"

[[ask]]
class = "publish"
`

func keys(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return pub, priv
}

func body(seq uint64, text string) Body {
	return Body{Org: "acme", Seq: seq, Issued: now.Add(-time.Hour), Expires: now.Add(24 * time.Hour), Policy: text}
}

func TestOpen(t *testing.T) {
	pub, priv := keys(t)
	s, err := Sign(priv, body(3, good))
	if err != nil {
		t.Fatal(err)
	}
	o, b, err := Open(s, Pin{Key: pub, Seq: 2}, now)
	if err != nil {
		t.Fatal(err)
	}
	if b.Seq != 3 || o.Name != "acme" || o.ModeCap != policy.ModeAuto || len(o.Entries) != 2 || len(o.ProtectedPaths) != 2 || len(o.TrustedHosts) != 2 || len(o.Tools) != 1 {
		t.Fatalf("Open = %+v", o)
	}
	// The bundle the node holds opens again (a restart re-reads its cache).
	if _, _, err := Open(s, Pin{Key: pub, Seq: 3, Sum: s.Sum()}, now); err != nil {
		t.Fatalf("the pinned bundle again: %v", err)
	}
}

// TestRefused: a bundle that tries to widen, is unsigned, badly signed,
// edited, expired or replayed gives the node nothing.
func TestRefused(t *testing.T) {
	pub, priv := keys(t)
	_, other := keys(t)
	current, err := Sign(priv, body(5, good))
	if err != nil {
		t.Fatal(err)
	}
	older, err := Sign(priv, body(4, good))
	if err != nil {
		t.Fatal(err)
	}
	pin := Pin{Key: pub, Seq: 5, Sum: current.Sum()}
	// signRaw signs a body as an org key would, past Sign's own checks:
	// what a careless or hostile build step could produce.
	signRaw := func(key ed25519.PrivateKey, b Body) Signed {
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		return Signed{Body: raw, Signature: ed25519.Sign(key, raw)}
	}
	widen := map[string]string{
		"an allow entry":          "[[allow]]\ncommand = \"git push\"\n",
		"an autonomy row":         "[autonomy.claude]\n\"*\" = \"auto_approve\"\n",
		"a reviewer":              "[reviewer]\ncommand = \"yes\"\n",
		"an answer":               "[[answers]]\ncard = \"c1\"\nverdict = \"allow\"\n",
		"a rule":                  "[[rules]]\ncommand = \"git push origin main\"\n",
		"a safe class for a tool": "[tools]\n\"mcp__acme__deploy\" = \"read\"\n",
		"no wall":                 "auto_without_wall = true\n",
	}
	for what, text := range widen {
		if _, err := Sign(priv, body(6, text)); !errors.Is(err, ErrWidens) {
			t.Errorf("Sign with %s: %v, want ErrWidens", what, err)
		}
		if _, _, err := Open(signRaw(priv, body(6, text)), pin, now); !errors.Is(err, ErrWidens) {
			t.Errorf("Open with %s: %v, want ErrWidens", what, err)
		}
	}
	edited := signRaw(priv, body(6, good))
	edited.Body = []byte(strings.Replace(string(edited.Body), "git push --force", "git push --forc", 1))
	b := body(6, good)
	b.Expires = now
	expired := signRaw(priv, b)
	sameNumber := signRaw(priv, body(5, "mode_cap = \"autopilot\"\n"))
	for _, c := range []struct {
		what string
		s    Signed
		want error
	}{
		{"unsigned", Signed{Body: signRaw(priv, body(6, good)).Body}, ErrUnsigned},
		{"signed by another key", signRaw(other, body(6, good)), ErrSignature},
		{"edited after signing", edited, ErrSignature},
		{"expired", expired, ErrExpired},
		{"an older bundle replayed", older, ErrReplayed},
		{"another bundle under the held number", sameNumber, ErrReplayed},
	} {
		o, _, err := Open(c.s, pin, now)
		if !errors.Is(err, c.want) || o != nil {
			t.Errorf("%s: Open = %v, %v; want nothing and %v", c.what, o, err, c.want)
		}
	}
	if _, _, err := Open(current, Pin{Seq: 5, Sum: current.Sum()}, now); !errors.Is(err, ErrSignature) {
		t.Errorf("a node with no pinned key: %v, want ErrSignature", err)
	}
}

func TestParseUnknownKey(t *testing.T) {
	for _, text := range []string{"mode = \"autopilot\"\n", "[[deny]]\ncommand = \"x\"\neffect = \"allow\"\n", "mode_cap = \"full\"\n", "protected_paths = [\"relative\"]\n"} {
		if o, err := Parse(File, []byte(text)); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", text, o)
		}
	}
}
