// Command sayso-wall runs one shell command inside sayso's wall: the
// launcher the hook rewrites an allowed step to run under. It can only
// narrow what the command may do; see docs/wall.md.
package main

import (
	"os"

	"github.com/sayso-dev/sayso/internal/wall"
)

func main() {
	os.Exit(wall.Main(os.Args[1:], os.Stderr))
}
