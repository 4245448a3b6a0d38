package cli

import (
	"net"
	"strconv"
	"testing"

	"github.com/sayso-dev/sayso/internal/place"
)

// TestPagePort: the page is served by default on the port no wall
// forwards (place.PagePort).
func TestPagePort(t *testing.T) {
	_, port, err := net.SplitHostPort(DefaultAddr)
	if err != nil || port != strconv.Itoa(place.PagePort) {
		t.Errorf("DefaultAddr %s, want the port place.PagePort %d", DefaultAddr, place.PagePort)
	}
}
