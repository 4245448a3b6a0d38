package gateway

import (
	"net"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// The kernel hands over a pidfd of the peer, and alive tells a running
// process from one that ended.
func TestPeerPidfd(t *testing.T) {
	a, b, err := socketPair()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	defer b.Close()
	fd := peerPidfd(a)
	if fd <= 0 {
		testenv.Missing(t, "the kernel gives no pidfd of a socket's peer (SO_PEERPIDFD, kernel %s)", kernel())
	}
	defer syscall.Close(fd)
	if !alive(fd) {
		t.Error("this process is not alive by its pidfd")
	}
	cmd := exec.Command("/bin/true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const sysPidfdOpen = 434
	pfd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(cmd.Process.Pid), 0, 0)
	if errno != 0 {
		t.Fatalf("pidfd_open: %v", errno)
	}
	defer syscall.Close(int(pfd))
	_ = cmd.Wait()
	if alive(int(pfd)) {
		t.Error("an ended process is alive by its pidfd")
	}
}

func socketPair() (net.Conn, net.Conn, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, nil, err
	}
	fa, fb := os.NewFile(uintptr(fds[0]), "a"), os.NewFile(uintptr(fds[1]), "b")
	defer fa.Close()
	defer fb.Close()
	a, err := net.FileConn(fa)
	if err != nil {
		return nil, nil, err
	}
	b, err := net.FileConn(fb)
	if err != nil {
		a.Close()
		return nil, nil, err
	}
	return a, b, nil
}

func kernel() string {
	var u syscall.Utsname
	_ = syscall.Uname(&u)
	b := make([]byte, 0, len(u.Release))
	for _, c := range u.Release {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b)
}
