package policy

import "github.com/sayso-dev/sayso/internal/risk"

// Wall says whether a shell step the mode lets through runs inside sayso's
// wall (DESIGN §13): the hook rewrites it to run under the launcher, which
// enforces what was decided. The zero value is off — no wall, no auto: in
// auto and autopilot a shell step that does more than read then asks.
type Wall struct {
	On  bool
	Why string // why the wall cannot be applied, when it is off; when it is partial, why
	// Partial says the step runs in a client's own sandbox, where only
	// Landlock of the wall can be stacked (a client's read-only and
	// workspace-write): its writes are held to the scope, its signals
	// and abstract sockets to itself, but nothing is hidden (what the
	// client's sandbox leaves readable, credentials included, stays
	// readable), nothing in the project is kept read-only but what the
	// client keeps, and the network is the client's. So a mode lets
	// through only what sayso reads whole: reading, and writes it read
	// on the command line; a step that runs code sayso does not read
	// (the project's, an interpreter's, a package's) asks, as where
	// there is no wall.
	Partial bool
}

// leans reports whether the step's findings of the classes of relies on
// what a partial wall lacks: anything but reading and the writes and
// deletions sayso read on its command line.
func (w Wall) leans(a risk.Assessment, of risk.Set) bool {
	if !w.Partial {
		return false
	}
	for _, f := range a.Findings {
		if f.Class == risk.Read || !of.Has(f.Class) {
			continue
		}
		switch f.Reason.Kind {
		case risk.WritesPath, risk.DeletesPath:
			if f.Class == risk.LocalWrite {
				continue
			}
		}
		return true
	}
	return false
}

// Reach is how far a step that goes through may write once walled. The
// decision sets it; the hook turns it into the launcher's profile.
type Reach uint8

const (
	// ReachNone: nothing to wrap — not a shell step, or denied.
	ReachNone Reach = iota
	// ReachProject: the mode let the step through: it writes only in the
	// project, the temporary folder and the build caches.
	ReachProject
	// ReachWide: the person's say-so (their answer, a lease, a kept rule,
	// an allow entry, the reviewer finding their words) or autopilot: it
	// writes what ReachProject writes and the places the decision read
	// it writing (and the policy's approved_writes), never sayso's own
	// folders and binaries or the clients' settings.
	ReachWide
)

var reachNames = [...]string{"none", "project", "wide"}

func (r Reach) String() string {
	if int(r) < len(reachNames) {
		return reachNames[r]
	}
	return "none"
}

// MarshalText implements encoding.TextMarshaler.
func (r Reach) MarshalText() ([]byte, error) { return []byte(r.String()), nil }
