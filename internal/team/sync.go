package team

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/store"
)

// ChangeBody is a change to the person's rules or environment note, as a
// node offers it for the person to sign on the hub's page: the bytes the
// person's passkey signs over, and every node of theirs checks, against
// its own pins, before it takes the change. Exactly one of Rule and Note.
type ChangeBody struct {
	Person string `json:"person"`
	Node   int64  `json:"node"` // the node that offered it
	// Version orders the changes of one rule, or of the note: a node
	// takes one only when newer than the last it took of the same.
	Version int64     `json:"version"`
	Rule    *RuleBody `json:"rule,omitempty"`
	Keep    bool      `json:"keep,omitempty"` // the rule kept; false: forgotten
	Note    *string   `json:"note,omitempty"` // the environment note, as typed
}

// RuleBody is an "always allow" rule in a change.
type RuleBody struct {
	Tool    string `json:"tool"`
	Unit    string `json:"unit"`
	Pattern string `json:"pattern"`
	Cwd     string `json:"cwd"`
}

// subjectNote is the subject of the note's changes; a rule's is
// rulePrefix and the rule's fields.
const (
	subjectNote = "note"
	rulePrefix  = "rule "
)

func (r RuleBody) subject() string {
	b, _ := json.Marshal([]string{r.Tool, r.Unit, r.Pattern, r.Cwd})
	return rulePrefix + string(b)
}

func ruleOfSubject(s string) (RuleBody, bool) {
	var f []string
	if !strings.HasPrefix(s, rulePrefix) || json.Unmarshal([]byte(s[len(rulePrefix):]), &f) != nil || len(f) != 4 {
		return RuleBody{}, false
	}
	return RuleBody{Tool: f[0], Unit: f[1], Pattern: f[2], Cwd: f[3]}, true
}

// state is the digest of what a change sets: a rule kept or forgotten,
// or the note's text.
func (c ChangeBody) state() []byte {
	var s [32]byte
	switch {
	case c.Note != nil:
		s = sha256.Sum256([]byte("note\x00" + *c.Note))
	case c.Keep:
		s = sha256.Sum256([]byte("rule kept"))
	default:
		s = sha256.Sum256([]byte("rule forgotten"))
	}
	return s[:]
}

func (c ChangeBody) subject() string {
	if c.Note != nil {
		return subjectNote
	}
	return c.Rule.subject()
}

// Syncer is what a node asks of its hub for the person's changes.
type Syncer interface {
	OfferChange(ctx context.Context, body []byte) error
	SignedChanges(ctx context.Context, after int64) ([]hubapi.Change, error)
	PostPasskeys(ctx context.Context, keys []hubapi.Passkey) error
}

// sync tells the hub the passkeys the node pins (the page asks for a
// signature by each), offers the changes of this node's rules and note
// the person has not signed, and takes the changes the person signed.
func (r *Relay) sync(ctx context.Context) error {
	var keys []hubapi.Passkey
	for _, k := range r.taker.Pins.Keys {
		if k.Person == r.State.Person {
			keys = append(keys, hubapi.Passkey{CredentialID: k.CredentialID, PublicKey: k.PublicKey})
		}
	}
	// The whole set, each time it changes, none too: a passkey removed
	// here is no longer one the page asks for, once no other machine of
	// the person's pins it.
	if told, _ := json.Marshal(keys); !bytes.Equal(told, r.told) {
		if err := r.Hub.PostPasskeys(ctx, keys); err != nil {
			return fmt.Errorf("tell the hub the pinned passkeys: %w", err)
		}
		r.told = told
	}
	if err := r.offer(ctx); err != nil {
		return err
	}
	if len(keys) == 0 {
		// No passkey pinned yet: nothing could be taken. The changes
		// are read from the first once the person enrols one.
		return nil
	}
	return r.takeChanges(ctx)
}

// offer offers each rule and the note whose state here is not the one
// the person signed for all their machines, once while it waits: a rule
// kept on this node (before it joined, or since), a signed rule
// forgotten here, the note set here. Until the person signs it at the
// hub, such a rule decides on this node only.
func (r *Relay) offer(ctx context.Context) error {
	held, err := r.DB.SyncedAll(ctx)
	if err != nil {
		return err
	}
	kept, err := r.DB.Rules(ctx)
	if err != nil {
		return err
	}
	note, err := r.DB.Note(ctx)
	if err != nil {
		return err
	}
	want := map[string]ChangeBody{subjectNote: {Note: &note}}
	for _, k := range kept {
		rb := RuleBody{Tool: k.Tool, Unit: k.Unit, Pattern: k.Pattern, Cwd: k.Cwd}
		want[rb.subject()] = ChangeBody{Rule: &rb, Keep: true}
	}
	for s := range held {
		if _, ok := want[s]; ok {
			continue
		}
		if rb, ok := ruleOfSubject(s); ok {
			want[s] = ChangeBody{Rule: &rb}
		}
	}
	for s, c := range want {
		h := held[s]
		now := c.state()
		// A change of this machine's waits for the person: it stands
		// until they sign it, and a newer state here is offered in turn
		// (back to the signed one too, or their signature of the older
		// offer would undo what was done here since).
		waiting := h.Offered > h.Version
		switch {
		case waiting && bytes.Equal(now, h.OfferedState):
			continue // offered, and waiting for the person
		case !waiting && (bytes.Equal(now, h.State) || len(h.State) == 0 && bytes.Equal(now, fresh(s))):
			continue // as the person signed it, or as a fresh node holds it
		}
		c.Person, c.Node = r.State.Person, r.State.Node
		c.Version = max(r.now().UnixNano(), h.Version+1, h.Offered+1)
		body, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if err := r.Hub.OfferChange(ctx, body); err != nil {
			return fmt.Errorf("offer a change: %w", err)
		}
		if err := r.DB.Offer(ctx, s, c.Version, now); err != nil {
			return err
		}
	}
	return nil
}

// fresh is the state of a subject no change ever set: no rule, an empty
// note.
func fresh(subject string) []byte {
	if subject == subjectNote {
		empty := ""
		return ChangeBody{Note: &empty}.state()
	}
	return ChangeBody{Rule: &RuleBody{}}.state()
}

// takeChanges reads the changes the person signed since the last turn
// and takes each the node can: the person's own passkey, pinned here,
// over exactly its bytes, for this node's person, newer than what the
// node holds. Each one refused leaves a change-refused row.
func (r *Relay) takeChanges(ctx context.Context) error {
	cs, err := r.Hub.SignedChanges(ctx, r.synced)
	if err != nil {
		return fmt.Errorf("read the signed changes: %w", err)
	}
	// A change carries a signature by each passkey the person's nodes
	// pinned: it is taken by the first this node verifies, and refused
	// only when none is.
	for i := 0; i < len(cs); {
		j := i + 1
		for j < len(cs) && cs[j].ID == cs[i].ID {
			j++
		}
		var errs []error
		taken := ""
		for _, c := range cs[i:j] {
			r.synced = max(r.synced, c.Signature)
			what, err := TakeChange(ctx, r.DB, r.State.Person, r.taker.Pins, c, r.now())
			if err == nil {
				taken, errs = what, nil
				break
			}
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			why := make([]string, len(errs))
			for k, e := range errs {
				why[k] = e.Error()
			}
			err := errors.New(strings.Join(why, "; "))
			slog.Warn("refused a change the hub relayed", "change", cs[i].ID, "err", err)
			if err := r.DB.RecordChangeRefused(ctx, cs[i].ID, "the hub relayed a change this node did not take: "+err.Error()); err != nil {
				slog.Error("record a refused change", "change", cs[i].ID, "err", err)
			}
		} else {
			slog.Info("took a change the person signed", "change", cs[i].ID, "what", taken)
		}
		i = j
	}
	return nil
}

// MaxChangeAhead is how far past the node's clock a change's version may
// be: the clocks of the person's machines, apart.
const MaxChangeAhead = 24 * time.Hour

// ErrChange is returned for a signed change the node does not take.
var ErrChange = errors.New("not a change this node takes")

// TakeChange takes one change the hub relayed into the node's store, when
// it is person's, signed by a passkey in pins over exactly its bytes, and
// newer than the one the node holds of the same rule or note. It returns
// what it took, in words.
func TakeChange(ctx context.Context, db *store.DB, person string, pins passkey.Pins, c hubapi.Change, now time.Time) (string, error) {
	if err := pins.VerifyChange(person, c.Body, c.Assertion); err != nil {
		return "", err
	}
	var b ChangeBody
	dec := json.NewDecoder(bytes.NewReader(c.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil || dec.More() {
		return "", fmt.Errorf("%w: its bytes do not read as a change", ErrChange)
	}
	// Only the very bytes a machine writes: what the person's page shows
	// of other bytes (a key twice, in another case) may not be what this
	// node reads of them.
	if canon, err := json.Marshal(b); err != nil || !bytes.Equal(canon, c.Body) {
		return "", fmt.Errorf("%w: its bytes are not a change as a machine writes it", ErrChange)
	}
	switch {
	case b.Person != person:
		return "", fmt.Errorf("%w: a change of %q, and this node is %q's", ErrChange, b.Person, person)
	case (b.Rule == nil) == (b.Note == nil), b.Note != nil && b.Keep:
		return "", fmt.Errorf("%w: it changes neither one rule nor the note", ErrChange)
	case b.Version <= 0:
		return "", fmt.Errorf("%w: no version", ErrChange)
	case b.Version > now.Add(MaxChangeAhead).UnixNano():
		// Its bytes were not the node's: a node numbers a change by its
		// clock. Taken, it would make every later change of the same
		// rule or note older, and so a kept rule one no forget removes.
		return "", fmt.Errorf("%w: its version is from past %s, further ahead than any machine's clock", ErrChange, now.Add(MaxChangeAhead).UTC().Format(time.RFC3339))
	}
	sc := store.SignedChange{Subject: b.subject(), Version: b.Version, State: b.state(), Keep: b.Keep, Note: b.Note}
	what := "the environment note"
	if b.Rule != nil {
		u, err := rule.ParseUnit(b.Rule.Unit)
		if err == nil && b.Keep {
			err = rule.Validate(rule.Rule{Tool: b.Rule.Tool, Unit: u, Pattern: b.Rule.Pattern, Cwd: b.Rule.Cwd})
		}
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrChange, err)
		}
		sc.Rule = &store.Rule{Tool: b.Rule.Tool, Unit: b.Rule.Unit, Pattern: b.Rule.Pattern, Cwd: b.Rule.Cwd}
		what = "the rule " + b.Rule.Pattern + " in " + b.Rule.Cwd + " kept"
		if !b.Keep {
			what = "the rule " + b.Rule.Pattern + " in " + b.Rule.Cwd + " forgotten"
		}
	}
	if err := db.TakeChange(ctx, sc); err != nil {
		return "", err
	}
	return what, nil
}
