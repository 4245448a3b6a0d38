// Package unixsock listens on and dials the unix sockets sayso makes — sayso
// serve's for the hooks, each session wall's holder's — at paths of any
// length. A socket's address holds at most 107 bytes of path (sun_path),
// and a long home folder makes sayso's state folder longer than that: a
// longer path is reached through /proc/self/fd/N/NAME, where N is a
// descriptor of the socket's folder, whose name is short whatever the
// folder's. It never changes where a socket is: only the name it is
// reached by.
package unixsock
