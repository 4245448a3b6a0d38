package bundle

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// File is the name of the org's policy file in its repository.
const File = "org.toml"

// Why a bundle is refused. Each error wraps one of these.
var (
	ErrWidens    = errors.New("the org's policy can only narrow")
	ErrUnsigned  = errors.New("the bundle is not signed")
	ErrSignature = errors.New("the bundle's signature is not the org key's")
	ErrExpired   = errors.New("the bundle has expired")
	ErrReplayed  = errors.New("the bundle is older than the one this node holds")
	ErrMalformed = errors.New("the bundle is malformed")
	ErrOrg       = errors.New("the bundle is for another org than the one this node pinned")
)

// refused are keys a file may not hold, with why: each would let a step
// through or speak for a person.
var refused = map[string]string{
	"allow":             "an allow entry would approve steps",
	"autonomy":          "an autonomy row can approve tools",
	"reviewer":          "it would name a reviewer, who can let ceilings through",
	"answers":           "it would answer cards for people",
	"rules":             "it would keep rules for people",
	"leases":            "it would grant leases for people",
	"auto_without_wall": "it would let auto run without the wall",
	"default_mode":      "a mode is the person's to set; the org caps it with mode_cap",
	"show_each_time":    "it is the person's own setting",
	"agents":            "it is the person's own setting",
	"classes":           "the org puts its own tools in classes under [tools]",
}

// entry is a [[deny]] or [[ask]] entry of the file.
type entry struct {
	Tool    string `toml:"tool"`
	Command string `toml:"command"`
	Class   string `toml:"class"`
}

// file is the org's policy file, read strictly: a key it does not name is
// an error.
type file struct {
	Deny           []entry           `toml:"deny"`
	Ask            []entry           `toml:"ask"`
	ModeCap        string            `toml:"mode_cap"`
	ProtectedPaths []string          `toml:"protected_paths"`
	SecretPaths    []string          `toml:"secret_paths"`
	TrustedHosts   *[]string         `toml:"trusted_hosts"`
	Tools          map[string]string `toml:"tools"`
}

// Parse reads the org's policy file. Anything that would widen — an allow
// entry, an autonomy row, a reviewer, an answer — refuses it whole with
// ErrWidens; so does a key it does not know.
func Parse(name string, data []byte) (*policy.Org, error) {
	var loose map[string]any
	if err := toml.Unmarshal(data, &loose); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var why []string
	for k := range loose {
		if r, ok := refused[k]; ok {
			why = append(why, fmt.Sprintf("%s: %q is refused: %s", name, k, r))
		}
	}
	if len(why) > 0 {
		sort.Strings(why)
		return nil, fmt.Errorf("%w: %s", ErrWidens, strings.Join(why, "; "))
	}
	var f file
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMalformed, name, err)
	}
	o := &policy.Org{ModeCap: policy.ModeAutopilot, ProtectedPaths: append(append([]string{}, f.ProtectedPaths...), f.SecretPaths...)}
	if f.ModeCap != "" {
		m, err := policy.ParseMode(f.ModeCap)
		if err != nil {
			return nil, fmt.Errorf("%s: mode_cap: %w", name, err)
		}
		o.ModeCap = m
	}
	for _, p := range o.ProtectedPaths {
		if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~/") {
			return nil, fmt.Errorf("%s: path %q: want an absolute path or one under ~/", name, p)
		}
	}
	if f.TrustedHosts != nil {
		o.TrustedHosts = append([]string{}, *f.TrustedHosts...)
	}
	for i, e := range f.Deny {
		pe, err := policy.OrgEntry(policy.Deny, e.Tool, e.Command, e.Class, policy.Source{File: fmt.Sprintf("%s [[deny]] %d", name, i+1)})
		if err != nil {
			return nil, err
		}
		o.Entries = append(o.Entries, pe)
	}
	for i, e := range f.Ask {
		pe, err := policy.OrgEntry(policy.Ask, e.Tool, e.Command, e.Class, policy.Source{File: fmt.Sprintf("%s [[ask]] %d", name, i+1)})
		if err != nil {
			return nil, err
		}
		o.Entries = append(o.Entries, pe)
	}
	tools := make([]string, 0, len(f.Tools))
	for t := range f.Tools {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	for _, t := range tools {
		c, err := risk.ParseClass(f.Tools[t])
		if err != nil {
			return nil, fmt.Errorf("%s: tools.%s: %w", name, t, err)
		}
		if risk.Safe(risk.Of(c)) {
			return nil, fmt.Errorf("%w: %s: tools.%s = %q: an org tool goes only into a class that asks", ErrWidens, name, t, c)
		}
		o.Tools = append(o.Tools, policy.ClassPattern{Pattern: t, Class: c, Source: policy.Source{File: name + " [tools]"}})
	}
	return o, nil
}

// Body is what the org key signs.
type Body struct {
	Org     string    `json:"org"`
	Seq     uint64    `json:"seq"`
	Issued  time.Time `json:"issued"`
	Expires time.Time `json:"expires"`
	Policy  string    `json:"policy"` // the org's policy file, as reviewed
}

// Signed is a bundle as it travels and is kept: the exact bytes signed and
// the signature over them.
type Signed struct {
	Body      []byte `json:"body"`
	Signature []byte `json:"signature"`
}

// Sum is the SHA-256 of a bundle's body: what a node pins beside its
// sequence number.
func (s Signed) Sum() [32]byte { return sha256.Sum256(s.Body) }

// Sign checks the policy and signs a bundle with the org's key.
func Sign(key ed25519.PrivateKey, b Body) (Signed, error) {
	if b.Seq == 0 {
		return Signed{}, fmt.Errorf("%w: sequence numbers start at 1", ErrMalformed)
	}
	if !b.Expires.After(b.Issued) {
		return Signed{}, fmt.Errorf("%w: it expires before it is issued", ErrMalformed)
	}
	if _, err := Parse(File, []byte(b.Policy)); err != nil {
		return Signed{}, err
	}
	body, err := json.Marshal(b)
	if err != nil {
		return Signed{}, err
	}
	return Signed{Body: body, Signature: ed25519.Sign(key, body)}, nil
}

// Pin is what a node holds of the org: the org key and name it pinned at
// join and the newest bundle it took. One key may sign for more than one
// org (a staging org beside the real one): a bundle signed by the pinned
// key for another org's name is not the pinned org's. An empty Org takes
// any name: the node pins the name of the first bundle it takes.
type Pin struct {
	Key ed25519.PublicKey
	Org string
	Seq uint64
	Sum [32]byte
}

// Open verifies a bundle against the node's pin at time now and returns
// what it gives the node. A bundle with the pinned sequence number must be
// the pinned one; an older one is a replay.
func Open(s Signed, pin Pin, now time.Time) (*policy.Org, Body, error) {
	var b Body
	if len(pin.Key) != ed25519.PublicKeySize {
		return nil, b, fmt.Errorf("%w: this node has pinned no org key", ErrSignature)
	}
	if len(s.Signature) == 0 {
		return nil, b, ErrUnsigned
	}
	if !ed25519.Verify(pin.Key, s.Body, s.Signature) {
		return nil, b, ErrSignature
	}
	dec := json.NewDecoder(bytes.NewReader(s.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, b, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	switch {
	case b.Seq == 0:
		return nil, b, fmt.Errorf("%w: no sequence number", ErrMalformed)
	case pin.Org != "" && b.Org != pin.Org:
		return nil, b, fmt.Errorf("%w: bundle #%d is %q's, this node pinned %q", ErrOrg, b.Seq, b.Org, pin.Org)
	case b.Seq < pin.Seq:
		return nil, b, fmt.Errorf("%w: bundle #%d, this node holds #%d", ErrReplayed, b.Seq, pin.Seq)
	case b.Seq == pin.Seq && s.Sum() != pin.Sum:
		return nil, b, fmt.Errorf("%w: a different bundle under the number #%d this node holds", ErrReplayed, b.Seq)
	case !now.Before(b.Expires):
		return nil, b, fmt.Errorf("%w: bundle #%d expired at %s", ErrExpired, b.Seq, b.Expires.UTC().Format(time.RFC3339))
	}
	o, err := Parse(fmt.Sprintf("org bundle %s #%d", b.Org, b.Seq), []byte(b.Policy))
	if err != nil {
		return nil, b, err
	}
	o.Name, o.Seq = b.Org, b.Seq
	return o, b, nil
}
