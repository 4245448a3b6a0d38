package policy

// Wall says whether a shell step the mode lets through runs inside sayso's
// wall (DESIGN §13): the hook rewrites it to run under the launcher, which
// enforces what was decided. The zero value is off — no wall, no auto: in
// auto and autopilot a shell step that does more than read then asks.
type Wall struct {
	On  bool
	Why string // why the wall cannot be applied, when it is off
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
