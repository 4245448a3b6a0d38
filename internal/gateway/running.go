package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sayso-dev/sayso/internal/atomicfile"
	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/unixsock"
)

// Running is what a running sayso serve says of itself in the state
// folder, for 'sayso status': where the person's page is and how long
// its cards wait.
type Running struct {
	PID     int       `json:"pid"`
	Page    string    `json:"page"` // http://127.0.0.1:PORT/
	Started time.Time `json:"started"`
	// CardTimeout is the gateway's Config.CardTimeout: the cap on a
	// card's wait (--card-timeout), 0 for none.
	CardTimeout time.Duration `json:"card_timeout"`
}

// CardWait is how long a card of this gateway waits for the person when
// its client waits wait for the hook: until CardMargin before the client
// gives up, no longer than CardTimeout. It is what Cards gives a card
// that arrives at once.
func (r Running) CardWait(wait time.Duration) time.Duration {
	life := wait - client.CardMargin
	if r.CardTimeout > 0 && r.CardTimeout < life {
		life = r.CardTimeout
	}
	return life
}

// runningFile is where sayso serve says it runs, in the state folder.
const runningFile = "serve.json"

// Announce writes r to the state folder, 0600, replaced atomically; the
// returned func removes it when the gateway stops.
func Announce(r Running) (func(), error) {
	dir, err := paths.StateDir()
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, runningFile)
	if err := atomicfile.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return nil, err
	}
	return func() { _ = os.Remove(path) }, nil
}

// Up says whether a gateway answers on the hooks' socket and, when it
// does, what it announced (a zero Running when it announced nothing).
func Up() (bool, Running, error) {
	socket, err := Socket()
	if err != nil {
		return false, Running{}, err
	}
	conn, err := unixsock.Dial("unix", socket, 500*time.Millisecond)
	if err != nil {
		return false, Running{}, nil
	}
	conn.Close()
	var r Running
	b, err := os.ReadFile(filepath.Join(filepath.Dir(socket), runningFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return true, Running{}, nil
	case err != nil:
		return true, Running{}, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return true, Running{}, fmt.Errorf("read %s: %w", runningFile, err)
	}
	return true, r, nil
}
