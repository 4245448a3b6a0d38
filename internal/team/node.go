package team

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/atomicfile"
	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/policy"
)

// Files in sayso's config folder (a protected path: no step reaches it).
const (
	StateFile  = "team.json"   // the node's standing: hub, pinned org key, pinned passkeys
	BundleFile = "bundle.json" // the newest org bundle the node took
	KeyFile    = "node.key"    // the node's own ed25519 key: it signs every request to the hub
)

// State is what a node pins when it joins a team.
type State struct {
	Hub    string            `json:"hub"`
	OrgKey ed25519.PublicKey `json:"org_key"`
	// Org is the org's name, pinned with its key: at join (--org), or
	// by the first bundle the node takes. A bundle the key signed for
	// another name is refused.
	Org string `json:"org,omitempty"`
	CI  bool   `json:"ci"`
	// Seq and Sum name the bundle the node holds: an older one, or
	// another under the same number, is a replay.
	Seq  uint64       `json:"bundle_seq"`
	Sum  [32]byte     `json:"bundle_sum"`
	Pins passkey.Pins `json:"passkeys"`
	// Node, Person and HubPin are the node's registration at the hub:
	// its number there, the person it answers to (whose passkeys say
	// yes), and the fingerprint of the hub's certificate, the only one
	// it speaks TLS to. A node that joined with no hub to register
	// with has none: its bundles come as files and its cards stay local.
	Node   int64  `json:"node,omitempty"`
	Person string `json:"person,omitempty"`
	HubPin string `json:"hub_fingerprint,omitempty"`
	// PageName is the name the hub's page is opened at (team join
	// --page-name), when it is not the host of Hub.
	PageName string `json:"page_name,omitempty"`
}

// RP is the relying party of the node's passkeys: the name of the hub's
// page, where the person signs. The one of the keys already pinned; else
// PageName; else the hub's host when it is a name, so that the page works
// from any device that reaches it; else (an address, or localhost)
// localhost, where the page is reached through a tunnel.
func (s State) RP() string {
	if s.Pins.RPID != "" {
		return s.Pins.RPID
	}
	if s.PageName != "" {
		return s.PageName
	}
	u, err := url.Parse(s.Hub)
	if err != nil {
		return "localhost"
	}
	host := u.Hostname()
	if host == "" || net.ParseIP(host) != nil || host == "localhost" {
		return "localhost"
	}
	return strings.ToLower(host)
}

// Registered reports whether the node registered with its hub: then the
// relay runs beside sayso serve.
func (s State) Registered() bool { return s.Node > 0 && s.HubPin != "" }

// WriteNodeKey keeps the node's key, 0600, in the config folder.
func WriteNodeKey(config string, key ed25519.PrivateKey) error {
	return writeFile(filepath.Join(config, KeyFile), []byte(base64.StdEncoding.EncodeToString(key.Seed())+"\n"))
}

// ReadNodeKey reads the node's key.
func ReadNodeKey(config string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(filepath.Join(config, KeyFile))
	if err != nil {
		return nil, fmt.Errorf("read the node's key: %w", err)
	}
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, errors.New("read the node's key: not an ed25519 key")
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// ReadState reads the node's team state; ok is false when it is in no team.
func ReadState(config string) (State, bool, error) {
	var s State
	b, err := os.ReadFile(filepath.Join(config, StateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return s, false, nil
	}
	if err != nil {
		return s, true, fmt.Errorf("read team state: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, true, fmt.Errorf("read team state: %w", err)
	}
	if len(s.OrgKey) != ed25519.PublicKeySize {
		return s, true, errors.New("read team state: no org key pinned")
	}
	return s, true, nil
}

// WriteState writes the node's team state, atomically, 0600.
func WriteState(config string, s State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(config, StateFile), b)
}

func writeFile(path string, b []byte) error {
	return atomicfile.WriteFile(path, b, 0o600)
}

// Load is the node's standing for the decision at now: not in a team, in
// one with a valid bundle, or in one without (then no auto), fail closed
// on anything it cannot read.
func Load(config string, now time.Time) policy.Team {
	return load(config, now)
}

// Current is Load for a node whose store says whether it joined a team
// (chained, or an error reading it): a node that joined and whose team
// files are gone stays in team mode with no valid bundle. Removing a
// folder does not lift the org's narrowing; sayso team leave does.
func Current(config string, now time.Time, chained bool, err error) policy.Team {
	t := load(config, now)
	if !t.Joined && (chained || err != nil) {
		why := "this machine joined a team and its team files in " + config + " are gone: join again, or end team mode with sayso team leave"
		if err != nil {
			why = "read whether this machine is in a team: " + err.Error()
		}
		return policy.Team{Joined: true, Why: why}
	}
	return t
}

func load(config string, now time.Time) policy.Team {
	s, joined, err := ReadState(config)
	if !joined {
		return policy.Team{}
	}
	if err != nil {
		return policy.Team{Joined: true, Why: err.Error()}
	}
	t := policy.Team{Joined: true, CI: s.CI}
	b, err := os.ReadFile(filepath.Join(config, BundleFile))
	if err != nil {
		t.Why = "no org bundle taken yet"
		if !errors.Is(err, fs.ErrNotExist) {
			t.Why = "read org bundle: " + err.Error()
		}
		return t
	}
	var signed bundle.Signed
	if err := json.Unmarshal(b, &signed); err != nil {
		t.Why = "read org bundle: " + err.Error()
		return t
	}
	o, _, err := bundle.Open(signed, s.pin(), now)
	if err != nil {
		t.Why = err.Error()
		return t
	}
	t.Org = o
	return t
}

// Take installs a signed bundle on the node once it opens against the
// pinned org key and is no older than the one held; the pin moves to it.
func Take(config string, signed bundle.Signed, now time.Time) (bundle.Body, error) {
	s, joined, err := ReadState(config)
	if !joined {
		return bundle.Body{}, errors.New("this node is in no team: sayso team join first")
	}
	if err != nil {
		return bundle.Body{}, err
	}
	if s.Org == "" && s.Seq > 0 {
		// A node that took bundles before it pinned the org's name
		// pins the name of the one it holds.
		s.Org = heldOrg(config, s.Sum)
	}
	_, body, err := bundle.Open(signed, s.pin(), now)
	if err != nil {
		return body, err
	}
	raw, err := json.Marshal(signed)
	if err != nil {
		return body, err
	}
	if err := writeFile(filepath.Join(config, BundleFile), raw); err != nil {
		return body, fmt.Errorf("keep org bundle: %w", err)
	}
	s.Org, s.Seq, s.Sum = body.Org, body.Seq, signed.Sum()
	return body, WriteState(config, s)
}

// pin is what a bundle must meet to be taken: the org's key and name,
// and no older than the one held.
func (s State) pin() bundle.Pin {
	return bundle.Pin{Key: s.OrgKey, Org: s.Org, Seq: s.Seq, Sum: s.Sum}
}

// heldOrg is the org's name in the bundle the node holds, when it is the
// one pinned by sum; "" otherwise.
func heldOrg(config string, sum [32]byte) string {
	raw, err := os.ReadFile(filepath.Join(config, BundleFile))
	if err != nil {
		return ""
	}
	var signed bundle.Signed
	var body bundle.Body
	if json.Unmarshal(raw, &signed) != nil || signed.Sum() != sum || json.Unmarshal(signed.Body, &body) != nil {
		return ""
	}
	return body.Org
}
