//go:build !linux

package wall

import (
	"errors"
	"fmt"
	"io"
)

// ExitSetup is the launcher's status when the wall could not be set up
// and the command did not run.
const ExitSetup = 126

var errNoWall = errors.New("the wall is built for Linux only on this system")

// Probe says why this system cannot apply the wall.
func Probe() error { return errNoWall }

// Check says why this system cannot apply the wall.
func Check(launcher string) error { return errNoWall }

// Main refuses to run anything: there is no wall here.
func Main(args []string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "sayso-wall: error: %v\n", errNoWall)
	return ExitSetup
}

// SeenFile is the name of the record of the launcher's last real run.
const SeenFile = "wall-seen.json"

// Verified says why this system cannot apply the wall.
func Verified(launcher, record string, fresh bool) error { return errNoWall }
