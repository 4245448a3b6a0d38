package unixsock

import (
	"fmt"
	"net"
	"runtime"

	"golang.org/x/sys/unix"
)

// short is a name of path a socket's address holds: path itself when it
// fits, else /proc/self/fd/N/NAME through a descriptor N of its folder,
// which done closes.
func short(path string) (name string, done func(), err error) {
	if len(path) <= MaxPath {
		return path, func() {}, nil
	}
	dir, base, err := base(path)
	if err != nil {
		return "", nil, err
	}
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", nil, fmt.Errorf("open the folder of the socket %s: %w", path, err)
	}
	if err := unix.Access(fmt.Sprintf("/proc/self/fd/%d", fd), unix.F_OK); err != nil {
		unix.Close(fd)
		return "", nil, fmt.Errorf("%w, and /proc cannot name its folder: %v", tooLong(path), err)
	}
	return fmt.Sprintf("/proc/self/fd/%d/%s", fd, base), func() { unix.Close(fd) }, nil
}

// canShorten says why a path longer than MaxPath cannot be reached
// through a descriptor of its folder: no /proc to name it by.
func canShorten(path string) error {
	if err := unix.Access("/proc/self/fd", unix.F_OK); err != nil {
		return fmt.Errorf("%w, and /proc cannot name its folder: %v", tooLong(path), err)
	}
	return nil
}

// keep closes done when ln is no longer reachable: after its Close,
// which removes the socket by its short name.
func keep(ln *net.UnixListener, done func()) {
	runtime.AddCleanup(ln, func(done func()) { done() }, done)
}
