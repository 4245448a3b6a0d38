package team

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"sync"
	"time"

	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/store"
)

// Enroller pins the person's passkeys in the node's team state, from the
// node's own page only (web.Enroller): nothing the hub sends adds a key.
type Enroller struct {
	Config string    // the config folder: team.json
	DB     *store.DB // the node's ledger: a row for each key pinned; nil writes none

	mu sync.Mutex
}

// Enrolling is the person the node answers to at its hub, and the
// relying party their passkeys are made for (State.RP).
func (e *Enroller) Enrolling() (person, rpID string, err error) {
	s, joined, err := ReadState(e.Config)
	switch {
	case !joined:
		return "", "", fmt.Errorf("%w: this node is in no team: sayso team join first", passkey.ErrNotEnrolled)
	case err != nil:
		return "", "", err
	case s.Person == "":
		return "", "", fmt.Errorf("%w: this node joined with no hub to register with: it has no person to pin passkeys for", passkey.ErrNotEnrolled)
	}
	return s.Person, s.RP(), nil
}

// Pin keeps k among the node's pinned passkeys. The node's pins hold one
// relying party (State.RP): the one of the first passkey pinned. Answers
// are taken from a page of it on the hub's port (PageOrigin).
func (e *Enroller) Pin(ctx context.Context, rpID string, k passkey.Key) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	unlock, err := lockState(e.Config)
	if err != nil {
		return err
	}
	defer unlock()
	s, joined, err := ReadState(e.Config)
	if !joined {
		return fmt.Errorf("%w: this node is in no team", passkey.ErrNotEnrolled)
	}
	if err != nil {
		return err
	}
	if s.Person == "" || k.Person != s.Person {
		return fmt.Errorf("%w: the passkey is %q's, the node answers to %q", passkey.ErrNotEnrolled, k.Person, s.Person)
	}
	if rp := s.RP(); rp != rpID {
		return fmt.Errorf("%w: the node's passkeys are for %s, not %s", passkey.ErrNotEnrolled, rp, rpID)
	}
	origin, err := PageOrigin(s.Hub, rpID)
	if err != nil {
		return fmt.Errorf("%w: %v", passkey.ErrNotEnrolled, err)
	}
	for _, held := range s.Pins.Keys {
		if bytes.Equal(held.CredentialID, k.CredentialID) {
			return fmt.Errorf("%w: this passkey is pinned already", passkey.ErrNotEnrolled)
		}
	}
	s.Pins.RPID, s.Pins.Origin = rpID, origin
	if k.Pinned.IsZero() {
		k.Pinned = time.Now().UTC()
	}
	s.Pins.Keys = append(s.Pins.Keys, k)
	if err := WriteState(e.Config, s); err != nil {
		return err
	}
	if e.DB != nil {
		// The key is pinned: a row that fails to be written is logged,
		// not a pin undone.
		if err := e.DB.RecordPasskey(ctx, store.KindPasskeyPinned, store.PasskeyChange{Person: k.Person, ID: KeyID(k), RP: rpID}); err != nil {
			slog.Error("record the pinned passkey in the ledger", "err", err)
		}
	}
	return nil
}

// PageOrigin is the origin of the page where the person answers the
// node's cards at its hub: the hub's port at rpID, the passkey's relying
// party, over TLS. A passkey signs only on a page of its own relying
// party, so the hub's page is opened there: at the hub's name, or at
// localhost through a tunnel to the hub.
func PageOrigin(hub, rpID string) (string, error) {
	u, err := url.Parse(hub)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return "", errors.New("the node's hub is not an https URL: no page answers its cards")
	}
	port := u.Port()
	if port == "" {
		port = "443"
	}
	if port == "443" {
		return "https://" + rpID, nil
	}
	return "https://" + net.JoinHostPort(rpID, port), nil
}
