package team

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/sayso-dev/sayso/internal/passkey"
)

// lockFile, in the config folder, is held while team.json's pins are
// read and written again: a passkey removed by one process is not put
// back by another pinning one at the same moment.
const lockFile = ".team.lock"

// lockState takes the lock on the node's team state until unlock.
func lockState(config string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(config, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock team state: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock team state: %w", err)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// KeyID is how a pinned passkey is named to the person: its credential
// id, base64url.
func KeyID(k passkey.Key) string { return base64.RawURLEncoding.EncodeToString(k.CredentialID) }

// ErrNoSuchKey is returned for an id that names no pinned passkey, or
// more than one.
var ErrNoSuchKey = errors.New("no single pinned passkey has that id")

// Unpin removes the pinned passkey whose id (KeyID) is id or starts with
// it (at least 8 characters, naming one key only). From the relay's next
// turn no yes it signs is taken. Removing only narrows what the node
// takes from the hub: a card is still answered on the node's own page.
func Unpin(config, id string) (passkey.Key, error) {
	id = strings.TrimSpace(id)
	if len(id) < 8 {
		return passkey.Key{}, fmt.Errorf("%w: give at least 8 characters of it", ErrNoSuchKey)
	}
	unlock, err := lockState(config)
	if err != nil {
		return passkey.Key{}, err
	}
	defer unlock()
	s, joined, err := ReadState(config)
	if !joined {
		return passkey.Key{}, errors.New("this machine is in no team")
	}
	if err != nil {
		return passkey.Key{}, err
	}
	var found []passkey.Key
	var kept []passkey.Key
	for _, k := range s.Pins.Keys {
		if strings.HasPrefix(KeyID(k), id) {
			found = append(found, k)
			continue
		}
		kept = append(kept, k)
	}
	if len(found) != 1 {
		return passkey.Key{}, fmt.Errorf("%w: %q names %d", ErrNoSuchKey, id, len(found))
	}
	s.Pins.Keys = kept
	if err := WriteState(config, s); err != nil {
		return passkey.Key{}, err
	}
	return found[0], nil
}
