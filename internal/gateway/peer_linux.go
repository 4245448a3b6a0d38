package gateway

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"
)

// Peer is the process at the other end of a unix socket connection, as the
// kernel names it (SO_PEERCRED): nothing the caller writes can change it.
type Peer struct {
	PID int32
	UID uint32
}

// peerOf reads the kernel's credentials of the process that connected.
func peerOf(c net.Conn) (Peer, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Peer{}, errors.New("not a unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", err)
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", err)
	}
	if cerr != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", cerr)
	}
	if cred.Pid <= 0 {
		return Peer{}, errors.New("peer credentials: no process")
	}
	return Peer{PID: cred.Pid, UID: cred.Uid}, nil
}

// proc is the peer's folder in /proc.
func (p Peer) proc(name string) string {
	return "/proc/" + strconv.Itoa(int(p.PID)) + "/" + name
}

// sameUser reports why the peer is not this process's user in this
// process's user namespace, or "" when it is. A walled step runs in a user
// namespace of its own: even reaching the socket, it is refused here.
func (p Peer) sameUser() string {
	if p.UID != uint32(os.Getuid()) {
		return fmt.Sprintf("the caller runs as uid %d, not %d", p.UID, os.Getuid())
	}
	mine, err := os.Readlink("/proc/self/ns/user")
	if err != nil {
		return "cannot read this process's user namespace: " + err.Error()
	}
	theirs, err := os.Readlink(p.proc("ns/user"))
	if err != nil {
		return "cannot read the caller's user namespace: " + err.Error()
	}
	if mine != theirs {
		return "the caller runs in another user namespace (" + theirs + ")"
	}
	return ""
}

// soPeerPidfd is SO_PEERPIDFD (Linux 6.5): a pidfd of the process that
// connected, which names that process and no later one with its pid.
const soPeerPidfd = 77

// sysPidfdSendSignal is pidfd_send_signal(2), the same number on every
// architecture.
const sysPidfdSendSignal = 424

// peerPidfd returns a pidfd of the process that connected, or -1 when the
// kernel has none to give.
func peerPidfd(c net.Conn) int {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return -1
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	_ = raw.Control(func(s uintptr) {
		if v, err := syscall.GetsockoptInt(int(s), syscall.SOL_SOCKET, soPeerPidfd); err == nil {
			fd = v
		}
	})
	return fd
}

// alive reports whether the process pidfd names still runs: then its pid
// has not been handed to another process.
func alive(pidfd int) bool {
	_, _, errno := syscall.Syscall6(sysPidfdSendSignal, uintptr(pidfd), 0, 0, 0, 0, 0)
	return errno == 0
}
