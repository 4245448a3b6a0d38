package team

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/policy"
)

// TestNodeBundle: a node in a team holds no auto until it takes a valid
// bundle; an older one is refused and a swapped-in older file counts as
// none; an expired one ends auto again.
func TestNodeBundle(t *testing.T) {
	config := t.TempDir()
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	if got := Load(config, now); got.Joined {
		t.Fatalf("a node in no team: %+v", got)
	}
	pub, priv, _ := ed25519.GenerateKey(nil)
	if err := WriteState(config, State{Hub: "https://hub.example", OrgKey: pub}); err != nil {
		t.Fatal(err)
	}
	if got := Load(config, now); !got.Joined || got.Org != nil {
		t.Fatalf("joined without a bundle: %+v, want no org (no auto)", got)
	}
	sign := func(seq uint64) bundle.Signed {
		s, err := bundle.Sign(priv, bundle.Body{Org: "acme", Seq: seq, Issued: now.Add(-time.Hour), Expires: now.Add(time.Hour), Policy: "mode_cap = \"auto\"\n"})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	old, cur := sign(1), sign(2)
	if _, err := Take(config, cur, now); err != nil {
		t.Fatal(err)
	}
	if got := Load(config, now); got.Org == nil || got.Org.Seq != 2 || got.Org.ModeCap != policy.ModeAuto {
		t.Fatalf("after taking #2: %+v", got)
	}
	if _, err := Take(config, old, now); !errors.Is(err, bundle.ErrReplayed) {
		t.Fatalf("taking #1 after #2: %v, want ErrReplayed", err)
	}
	// The older bundle's file put in place by hand is no bundle at all.
	raw, _ := os.ReadFile(filepath.Join(config, BundleFile))
	if err := writeFile(filepath.Join(config, BundleFile), []byte(`{"body":"`+string(mustB64(old.Body))+`","signature":"`+string(mustB64(old.Signature))+`"}`)); err != nil {
		t.Fatal(err)
	}
	if got := Load(config, now); got.Org != nil {
		t.Fatalf("a replayed file: %+v, want no org", got)
	}
	os.WriteFile(filepath.Join(config, BundleFile), raw, 0o600)
	if got := Load(config, now.Add(2*time.Hour)); got.Org != nil {
		t.Fatalf("an expired bundle: %+v, want no org", got)
	}
	os.WriteFile(filepath.Join(config, StateFile), []byte("{broken"), 0o600)
	if got := Load(config, now); !got.Joined || got.Org != nil {
		t.Fatalf("a broken state file: %+v, want joined with no org", got)
	}
}

func mustB64(b []byte) []byte {
	out := make([]byte, base64.StdEncoding.EncodedLen(len(b)))
	base64.StdEncoding.Encode(out, b)
	return out
}

// TestCurrentFilesGone: a node whose store says it joined a team, and
// whose team files are gone (a folder removed or moved), stays in team
// mode with no org bundle (no auto); a store that cannot be read counts
// as joined; a node in no team is in none.
func TestCurrentFilesGone(t *testing.T) {
	config := t.TempDir()
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	if got := Current(config, now, false, nil); got.Joined {
		t.Fatalf("a node that never joined: %+v", got)
	}
	for name, c := range map[string]struct {
		chained bool
		err     error
	}{"files gone": {true, nil}, "store unread": {false, errors.New("database is locked")}} {
		got := Current(config, now, c.chained, c.err)
		if !got.Joined || got.Org != nil || got.Why == "" {
			t.Errorf("%s: %+v, want joined with no org bundle and why", name, got)
		}
	}
}

// TestOrgNamePinned: the org's key may sign for more than one org (a
// staging org beside the real one). A bundle the pinned key signed for
// another org's name is refused, newer or not, whether the name was
// pinned at join or by the first bundle taken; the node keeps deciding
// on its own org's bundle.
func TestOrgNamePinned(t *testing.T) {
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	pub, priv, _ := ed25519.GenerateKey(nil)
	sign := func(org string, seq uint64, policy string) bundle.Signed {
		s, err := bundle.Sign(priv, bundle.Body{Org: org, Seq: seq, Issued: now.Add(-time.Hour), Expires: now.Add(time.Hour), Policy: policy})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const acmePolicy = "mode_cap = \"auto\"\n[[deny]]\ncommand = \"git push --force\"\n"
	for name, pinned := range map[string]string{"pinned at join": "acme", "pinned by the first bundle": ""} {
		t.Run(name, func(t *testing.T) {
			config := t.TempDir()
			if err := WriteState(config, State{Hub: "https://hub.example", OrgKey: pub, Org: pinned}); err != nil {
				t.Fatal(err)
			}
			if pinned != "" {
				// Before any bundle: the other org's is refused first.
				if _, err := Take(config, sign("acme-staging", 1, "mode_cap = \"auto\"\n"), now); !errors.Is(err, bundle.ErrOrg) {
					t.Fatalf("the staging org's bundle, first: %v, want ErrOrg", err)
				}
			}
			if _, err := Take(config, sign("acme", 1, acmePolicy), now); err != nil {
				t.Fatal(err)
			}
			if _, err := Take(config, sign("acme-staging", 2, "mode_cap = \"auto\"\n"), now); !errors.Is(err, bundle.ErrOrg) {
				t.Fatalf("a newer bundle of the staging org: %v, want ErrOrg", err)
			}
			got := Load(config, now)
			if got.Org == nil || got.Org.Name != "acme" || got.Org.Seq != 1 || len(got.Org.Entries) != 1 {
				t.Fatalf("the node decides on %+v (%s); want acme's #1 with its deny", got.Org, got.Why)
			}
		})
	}
}

// TestStateRP: a node's passkeys are made for the name the hub's page is
// opened at: the one of the keys pinned, else --page-name, else the hub's
// host when it is a name; an address or localhost means localhost.
func TestStateRP(t *testing.T) {
	for _, c := range []struct {
		st   State
		want string
	}{
		{State{Hub: "https://127.0.0.1:7475"}, "localhost"},
		{State{Hub: "https://[::1]:7475"}, "localhost"},
		{State{Hub: "https://localhost:7475"}, "localhost"},
		{State{Hub: "https://Hub.Acme.Example:7475"}, "hub.acme.example"},
		{State{Hub: "https://10.0.0.5:7475", PageName: "hub.acme.example"}, "hub.acme.example"},
		{State{Hub: "https://hub.acme.example", Pins: passkey.Pins{RPID: "localhost"}}, "localhost"},
	} {
		if got := c.st.RP(); got != c.want {
			t.Errorf("%+v: RP %q, want %q", c.st, got, c.want)
		}
	}
}
