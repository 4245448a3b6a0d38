package wall

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/unixsock"
)

// holdArg marks a session's holder: the process that keeps the session's
// wall (its network, the processes its steps leave running) between
// steps and serves the launchers of its steps on a socket.
const holdArg = "--sayso-wall-hold"

// endArg ends a session's holder: every process of the session's wall
// ends with it.
const endArg = "--end-session"

// idleFor is how long a session's holder stays with no step running and
// no process left in its wall.
const idleFor = 15 * time.Minute

// direct runs the second stage in new user and mount namespaces of its
// own, on the machine's network: a step granted a credential, whose
// known programs reach what the decision read.
func direct(bash string, args []string, files [4]int, hand func(), sigs <-chan os.Signal) (syscall.WaitStatus, error) {
	ns, err := namespaces()
	if err != nil {
		return 0, err
	}
	// A session of its own: the walled step has no controlling terminal,
	// so it cannot push keystrokes into the person's (TIOCSTI) even
	// through a terminal it inherited.
	attr := &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		Pdeathsig:  syscall.SIGKILL,
		Setsid:     true,
	}
	if err := mapIDs(attr, unix.CAP_SYS_ADMIN, unix.CAP_DAC_OVERRIDE); err != nil {
		return 0, err
	}
	own, err := ownDir()
	if err != nil {
		return 0, err
	}
	defer removeTree(own)
	argv := append([]string{LauncherName, insideArg, ns, bash}, withUpper(args, filepath.Join(own, "caches"))...)
	// What the step leaves running is this process's to end when the
	// step does: a wall on the machine's network has no PID namespace
	// whose end would take it along.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("keep what the step leaves running: %w", err)
	}
	defer endOrphans()
	// The parent-death signal follows the thread that started the child.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pid, err := syscall.ForkExec("/proc/self/exe", argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{uintptr(files[0]), uintptr(files[1]), uintptr(files[2]), uintptr(files[3])},
		Sys:   attr,
	})
	hand()
	if err != nil {
		return 0, fmt.Errorf("enter the wall's namespaces: %w", err)
	}
	ws, err := relayWait(pid, sigs)
	if err != nil {
		return 0, fmt.Errorf("wait for the wall: %w", err)
	}
	return ws, nil
}

// endOrphans ends every child this process (a subreaper) still has —
// what a step on the machine's network left running, handed here as its
// parents ended — and reaps them, until none is left.
func endOrphans() {
	deadline := time.Now().Add(5 * time.Second)
	for {
		kids := childPIDs()
		for _, k := range kids {
			syscall.Kill(k, syscall.SIGKILL)
		}
		var ws syscall.WaitStatus
		for {
			p, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if p <= 0 || err != nil {
				break
			}
		}
		if len(kids) == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// childPIDs are this process's children.
func childPIDs() []int {
	var out []int
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, t := range tasks {
		b, _ := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// alone runs the step in a wall of its own — its own network, whose
// only way out is the egress proxy — that ends, with every process the
// step started, when the step does.
func alone(a Args, args []string, files [4]int, hand func(), sigs <-chan os.Signal) (syscall.WaitStatus, error) {
	h, err := startHolder(os.Stderr, nil)
	if err != nil {
		return 0, err
	}
	defer h.close()
	cwd, err := os.Getwd()
	if err != nil {
		return 0, fmt.Errorf("find working folder: %w", err)
	}
	return h.run(stepOf(a, args, cwd), files, hand, sigs)
}

// stepOf is what the holder runs a launcher's step with: its arguments
// (the second stage reads the profile from them again), environment and
// folder, and from the profile its network.
func stepOf(a Args, args []string, cwd string) step {
	return step{Args: args, Env: os.Environ(), Dir: cwd, Hosts: a.Profile.Hosts, Scope: a.Profile.Scope,
		Ledger: a.Profile.Ledger, Session: a.Profile.SessionID, Command: a.Command}
}

// viaSession runs the step in its session's wall, through the session's
// holder, which it starts when there is none.
func viaSession(a Args, args []string, files [4]int, hand func(), sigs <-chan os.Signal) (syscall.WaitStatus, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return 0, fmt.Errorf("find working folder: %w", err)
	}
	m := msg{Op: "run", Argv: args, Env: os.Environ(), Dir: cwd}
	c, err := dialSession(a.Profile.Session, true)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if err := send(c, m, files[:]...); err != nil {
		return 0, fmt.Errorf("hand the step to its session's wall: %w", err)
	}
	hand()
	done := make(chan reply, 1)
	go func() {
		m, fds, err := receiveReply(c)
		closeAll(fds)
		if err != nil {
			m = msg{Err: "the session's wall ended while the step ran: " + err.Error()}
		}
		done <- reply{m: m}
	}()
	return awaitStatus(done, sigs, func(sig syscall.Signal) { send(c, msg{Op: "signal", Sig: int(sig)}) })
}

// dialSession connects to the session's holder at sock, starting it
// first when start is set and none answers.
func dialSession(sock string, start bool) (*rawConn, error) {
	dial := func() (*rawConn, error) { return dialRaw(sock) }
	if c, err := dial(); err == nil || !start {
		return c, err
	}
	dir := filepath.Dir(sock)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("make the sessions' folder: %w", err)
	}
	lock, err := os.OpenFile(sock+".lock", os.O_CREATE|os.O_RDWR|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock the session's wall: %w", err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return nil, fmt.Errorf("lock the session's wall: %w", err)
	}
	if c, err := dial(); err == nil {
		return c, nil
	}
	os.Remove(sock)
	log, err := os.OpenFile(sock+".log", os.O_CREATE|os.O_WRONLY|os.O_APPEND|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("start the session's wall: %w", err)
	}
	defer log.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	defer null.Close()
	pid, err := syscall.ForkExec("/proc/self/exe", []string{LauncherName, holdArg, sock}, &syscall.ProcAttr{
		Dir:   "/",
		Env:   os.Environ(),
		Files: []uintptr{null.Fd(), log.Fd(), log.Fd()},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return nil, fmt.Errorf("start the session's wall: %w", err)
	}
	// The holder is nobody's child once it is up: it reaps itself.
	go func() {
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := dial()
		if err == nil {
			return c, nil
		}
		var ws syscall.WaitStatus
		if p, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); p == pid || time.Now().After(deadline) {
			return nil, fmt.Errorf("the session's wall did not start (see %s)", sock+".log")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// rawConn is a launcher's socket to its session's holder, spoken with
// plain system calls: a launcher starts for every step, and the runtime's
// network poller it would otherwise set up costs more than the messages.
type rawConn struct{ fd int }

// dialRaw connects to the session's socket at sock.
func dialRaw(sock string) (*rawConn, error) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: "unixpacket", Err: err}
	}
	name, done, err := unixsock.Name(sock)
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	for {
		err = unix.Connect(fd, &unix.SockaddrUnix{Name: name})
		if err != unix.EINTR {
			break
		}
	}
	done()
	if err != nil {
		unix.Close(fd)
		return nil, &net.OpError{Op: "dial", Net: "unixpacket", Addr: &net.UnixAddr{Name: sock, Net: "unixpacket"}, Err: err}
	}
	return &rawConn{fd}, nil
}

func (c *rawConn) WriteMsgUnix(b, oob []byte, _ *net.UnixAddr) (int, int, error) {
	for {
		n, err := unix.SendmsgN(c.fd, b, oob, nil, 0)
		if err != unix.EINTR {
			return n, len(oob), err
		}
	}
}

func (c *rawConn) ReadMsgUnix(b, oob []byte) (int, int, int, *net.UnixAddr, error) {
	for {
		n, oobn, flags, _, err := unix.Recvmsg(c.fd, b, oob, unix.MSG_CMSG_CLOEXEC)
		if err != unix.EINTR {
			return n, oobn, flags, nil, err
		}
	}
}

func (c *rawConn) Close() error { return unix.Close(c.fd) }

// EndSession ends the holder of the session at sock, and every process
// of its wall; no holder is no error.
func EndSession(sock string) error {
	c, err := dialSession(sock, false)
	if err != nil {
		return nil
	}
	defer c.Close()
	if err := send(c, msg{Op: "end"}); err != nil {
		return err
	}
	receiveReply(c)
	return nil
}

// hold is a session's holder: it keeps the session's wall and runs each
// step a launcher hands it there, until it is ended or idle.
func hold(sock string, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "sayso-wall: session %s: %v\n", sock, err)
		return ExitSetup
	}
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	old := unix.Umask(0o077)
	ln, err := unixsock.Listen("unixpacket", sock)
	unix.Umask(old)
	if err != nil {
		return fail(err)
	}
	ln.SetUnlinkOnClose(true)
	defer ln.Close()
	s := &session{fwd: map[int]net.Listener{}, seen: time.Now()}
	h, err := startHolder(os.Stderr, s.ports)
	if err != nil {
		return fail(err)
	}
	s.h = h
	defer h.close()
	go func() {
		<-h.done
		ln.Close()
	}()
	for {
		ln.SetDeadline(time.Now().Add(time.Minute))
		c, err := ln.AcceptUnix()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				if s.idle() {
					return 0
				}
				continue
			}
			return 0
		}
		if !sameUser(c) {
			c.Close()
			continue
		}
		m, fds, err := receive(c)
		if err != nil {
			c.Close()
			continue
		}
		if m.Op == "end" {
			// Ended before it says so: every process of the wall, and
			// every port forwarded into it, is gone once EndSession
			// returns.
			closeAll(fds)
			h.close()
			s.unforward()
			send(c, msg{Op: "ended"})
			c.Close()
			return 0
		}
		go s.serve(c, m, fds)
	}
}

// sameUser reports whether the peer of c runs as this user.
func sameUser(c *net.UnixConn) bool {
	raw, err := c.SyscallConn()
	if err != nil {
		return false
	}
	var cred *unix.Ucred
	raw.Control(func(fd uintptr) {
		cred, _ = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	})
	return cred != nil && int(cred.Uid) == os.Getuid()
}

// session is a holder's bookkeeping: the steps running, the ports it
// forwards from the machine's loopback into the wall.
type session struct {
	h       *holder
	mu      sync.Mutex
	running int
	procs   int
	seen    time.Time
	fwd     map[int]net.Listener
	// page is the person's page's port its steps named (Profile.PagePort).
	page []int
}

// idle reports whether the session has held nothing for idleFor.
func (s *session) idle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running > 0 || s.procs > 0 {
		s.seen = time.Now()
		return false
	}
	return time.Since(s.seen) > idleFor
}

// serve runs the step a launcher handed over on c.
func (s *session) serve(c *net.UnixConn, m msg, fds []int) {
	defer c.Close()
	if m.Op != "run" || len(fds) != 4 {
		closeAll(fds)
		send(c, msg{Op: "exited", Err: "the session's wall takes a step with four descriptors"})
		return
	}
	s.mu.Lock()
	s.running++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running--
		s.seen = time.Now()
		s.mu.Unlock()
	}()
	sigs := make(chan os.Signal, 8)
	go func() {
		defer close(sigs)
		for {
			m, fds, err := receive(c)
			closeAll(fds)
			if err != nil {
				return
			}
			if m.Op == "signal" && m.Sig > 0 {
				sigs <- syscall.Signal(m.Sig)
			}
		}
	}()
	closed := false
	hand := func() {
		if !closed {
			closed = true
			closeAll(fds)
		}
	}
	a, err := ParseArgs(m.Argv)
	if err != nil {
		hand()
		send(c, msg{Op: "exited", Err: err.Error()})
		return
	}
	if pp := a.Profile.PagePort; pp > 0 {
		s.mu.Lock()
		if !slices.Contains(s.page, pp) {
			s.page = append(s.page, pp)
			if ln := s.fwd[pp]; ln != nil {
				ln.Close()
				delete(s.fwd, pp)
			}
		}
		s.mu.Unlock()
	}
	st := stepOf(a, m.Argv, m.Dir)
	st.Env = m.Env
	ws, err := s.h.run(st, [4]int(fds), hand, sigs)
	hand()
	if err != nil {
		send(c, msg{Op: "exited", Err: err.Error()})
		return
	}
	send(c, msg{Op: "exited", Status: int(ws)})
}

// unforwarded are the ports no wall forwards from the machine's
// loopback: sayso's own page's.
var unforwarded = []int{place.PagePort}

// ports forwards each port the wall's processes listen on from the same
// port on the machine's loopback, where it is free: a dev server a step
// started is reached by the person's browser.
func (s *session) ports(ports []int, procs int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.procs = procs
	want := map[int]bool{}
	for _, p := range ports {
		if slices.Contains(unforwarded, p) || slices.Contains(s.page, p) {
			continue
		}
		want[p] = true
		if _, ok := s.fwd[p]; ok {
			continue
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			continue
		}
		s.fwd[p] = ln
		go s.forward(ln, p)
	}
	for p, ln := range s.fwd {
		if !want[p] {
			ln.Close()
			delete(s.fwd, p)
		}
	}
}

// unforward closes every port the session forwards.
func (s *session) unforward() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p, ln := range s.fwd {
		ln.Close()
		delete(s.fwd, p)
	}
}

func (s *session) forward(ln net.Listener, port int) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			in, err := s.h.connect(port)
			if err != nil {
				c.Close()
				return
			}
			splice(c, in)
		}()
	}
}
