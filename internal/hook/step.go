package hook

import "github.com/sayso-dev/sayso/internal/client"

// Step is the step the client's adapter read, which the wall wraps.
type Step = client.Step

// KindShell is a shell step's kind.
const KindShell = client.KindShell
