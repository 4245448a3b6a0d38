package unixsock

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"time"
)

// MaxPath is the longest path a unix socket's address holds: sun_path's
// 108 bytes, less the NUL that ends it.
const MaxPath = 107

// Listen makes a unix socket ("unix" or "unixpacket") at path, which may
// be longer than MaxPath; the listener removes it when closed.
func Listen(network, path string) (*net.UnixListener, error) {
	name, done, err := short(path)
	if err != nil {
		return nil, err
	}
	// The folder's descriptor stays open while the listener lives: its
	// Close removes the socket by the name it was made under.
	ln, err := net.ListenUnix(network, &net.UnixAddr{Name: name, Net: network})
	if err != nil {
		done()
		return nil, named(err, network, path)
	}
	keep(ln, done)
	return ln, nil
}

// Dial connects to the unix socket ("unix" or "unixpacket") at path,
// which may be longer than MaxPath.
func Dial(network, path string, timeout time.Duration) (net.Conn, error) {
	name, done, err := short(path)
	if err != nil {
		return nil, err
	}
	defer done()
	c, err := net.DialTimeout(network, name, timeout)
	if err != nil {
		return nil, named(err, network, path)
	}
	return c, nil
}

// Name is a name of the unix socket at path, which may be longer than
// MaxPath, that a socket's address holds, for a caller that makes its
// own system calls; done must be called once it has been used (connect
// or bind).
func Name(path string) (name string, done func(), err error) {
	return short(path)
}

// Check says why a socket cannot be made at path here; nil when it can.
// Its folder need not be there yet.
func Check(path string) error {
	if len(path) <= MaxPath {
		return nil
	}
	if _, _, err := base(path); err != nil {
		return err
	}
	return canShorten(path)
}

// named is err with the socket's own path in place of the name it was
// reached by.
func named(err error, network, path string) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		oe.Addr = &net.UnixAddr{Name: path, Net: network}
		oe.Source = nil
	}
	return err
}

// tooLong is the error of a path no name can make short enough.
func tooLong(path string) error {
	return fmt.Errorf("the socket path %s is %d bytes long, more than a unix socket's address holds (%d)", path, len(path), MaxPath)
}

// base is the socket's name in its folder, when that is short enough to
// follow a folder's short name.
func base(path string) (dir, name string, err error) {
	dir, name = filepath.Split(path)
	if name == "" || len(name) > MaxPath-len("/proc/self/fd/2147483647/") {
		return "", "", tooLong(path)
	}
	return dir, name, nil
}
