//go:build !linux

package unixsock

import "net"

// short is path when a socket's address holds it; this system has no
// /proc to name a long path's folder by.
func short(path string) (string, func(), error) {
	if len(path) <= MaxPath {
		return path, func() {}, nil
	}
	return "", nil, tooLong(path)
}

// canShorten says why a path longer than MaxPath cannot be reached here:
// there is no /proc to name its folder by.
func canShorten(path string) error { return tooLong(path) }

func keep(*net.UnixListener, func()) {}
