package team

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/sayso-dev/sayso/internal/passkey"
)

// CountersFile holds, in the config folder, the highest signature counter
// the node saw of each pinned passkey.
const CountersFile = "passkey_counters.json"

// ErrCounter is returned for an assertion whose signature counter does
// not grow past the highest the node saw of its passkey: as WebAuthn
// says, a sign that the authenticator was cloned, and its copy signs.
var ErrCounter = errors.New("the passkey's signature counter did not grow")

// Counters keeps the highest signature counter the node saw of each
// passkey.
type Counters interface {
	// Advance takes u's counter when it grows past the highest seen
	// (and past the one at registration), and keeps it; it refuses one
	// that does not (ErrCounter). An authenticator that keeps no counter
	// signs zero throughout, and zero after zero is taken.
	Advance(u passkey.Use) error
}

// advance is the rule of Counters over the highest count seen.
func advance(seen uint32, u passkey.Use) error {
	last := max(seen, u.Floor)
	if u.Count == 0 && last == 0 {
		return nil
	}
	if u.Count <= last {
		return fmt.Errorf("%w: it signed with counter %d, and this node saw %d", ErrCounter, u.Count, last)
	}
	return nil
}

// memCounters are counters for as long as the process runs.
type memCounters struct {
	mu   sync.Mutex
	seen map[string]uint32
}

func (m *memCounters) Advance(u passkey.Use) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := string(u.Credential)
	if err := advance(m.seen[k], u); err != nil {
		return err
	}
	if m.seen == nil {
		m.seen = map[string]uint32{}
	}
	m.seen[k] = u.Count
	return nil
}

// FileCounters keeps the counters in the config folder, where no step
// reaches, so that they outlive sayso serve. A file that cannot be read
// or written takes no count: no yes is taken.
type FileCounters struct {
	Config string

	mu sync.Mutex
}

func (f *FileCounters) Advance(u passkey.Use) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	path := filepath.Join(f.Config, CountersFile)
	seen := map[string]uint32{}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("read the passkeys' counters: %w", err)
	default:
		if err := json.Unmarshal(b, &seen); err != nil {
			return fmt.Errorf("read the passkeys' counters: %w", err)
		}
	}
	k := base64.RawURLEncoding.EncodeToString(u.Credential)
	if err := advance(seen[k], u); err != nil {
		return err
	}
	seen[k] = u.Count
	if b, err = json.Marshal(seen); err != nil {
		return err
	}
	if err := writeFile(path, b); err != nil {
		return fmt.Errorf("keep the passkeys' counters: %w", err)
	}
	return nil
}
