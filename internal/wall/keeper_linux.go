package wall

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// keeperArg marks the keeper: the first process of the namespaces a
// wall's steps share (user, network, PID). It is PID 1 there, so every
// process a step leaves behind ends with it.
const keeperArg = "--sayso-wall-keeper"

// msg is one message between the holder and its keeper, with the
// descriptors it carries.
type msg struct {
	Op     string   `json:"op"`
	ID     int      `json:"id,omitempty"`
	Argv   []string `json:"argv,omitempty"`
	Env    []string `json:"env,omitempty"`
	Dir    string   `json:"dir,omitempty"`
	Port   int      `json:"port,omitempty"`
	Ports  []int    `json:"ports,omitempty"`
	Procs  int      `json:"procs,omitempty"`
	Sig    int      `json:"sig,omitempty"`
	Status int      `json:"status,omitempty"`
	Err    string   `json:"err,omitempty"`
}

// maxMsg bounds a message: a step's environment and command included.
const maxMsg = 4 << 20

// msgConn is a socket of whole messages: a *net.UnixConn, or a
// launcher's session socket (rawConn).
type msgConn interface {
	WriteMsgUnix(b, oob []byte, addr *net.UnixAddr) (n, oobn int, err error)
	ReadMsgUnix(b, oob []byte) (n, oobn, flags int, addr *net.UnixAddr, err error)
}

// send writes m and the descriptors fds on c.
func send(c msgConn, m msg, fds ...int) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(b) > maxMsg {
		return fmt.Errorf("message of %d bytes is too long", len(b))
	}
	var oob []byte
	if len(fds) > 0 {
		oob = unix.UnixRights(fds...)
	}
	_, _, err = c.WriteMsgUnix(b, oob, nil)
	return err
}

// buffers holds receive's buffers: a message may be as long as maxMsg,
// and a new buffer of that size for each one, cleared and collected, was
// most of what the wall's processes spent on a step.
var buffers = sync.Pool{New: func() any { return new([maxMsg]byte) }}

// receive reads one message and the descriptors it carries.
func receive(c msgConn) (msg, []int, error) {
	b := buffers.Get().(*[maxMsg]byte)
	defer buffers.Put(b)
	return receiveIn(c, b[:])
}

// replyMax bounds what a launcher reads from its session: an answer of a
// few words, not a step. A longer one is cut, does not parse, and fails.
const replyMax = 4 << 10

// receiveReply is receive for a launcher, whose only messages are its
// session's short answers: a process that starts for each step does not
// take, clear and collect a buffer the size of a step.
func receiveReply(c msgConn) (msg, []int, error) {
	var b [replyMax]byte
	return receiveIn(c, b[:])
}

// receiveIn is receive into b.
func receiveIn(c msgConn, b []byte) (msg, []int, error) {
	oob := make([]byte, unix.CmsgSpace(8*4))
	n, oobn, flags, _, err := c.ReadMsgUnix(b, oob)
	if err == nil && flags&unix.MSG_TRUNC != 0 {
		err = fmt.Errorf("message longer than %d bytes", len(b))
	}
	var fds []int
	if oobn > 0 {
		cms, perr := unix.ParseSocketControlMessage(oob[:oobn])
		if perr == nil {
			for _, cm := range cms {
				got, _ := unix.ParseUnixRights(&cm)
				for _, fd := range got {
					unix.CloseOnExec(fd)
				}
				fds = append(fds, got...)
			}
		}
	}
	if err != nil {
		closeAll(fds)
		return msg{}, nil, err
	}
	if n == 0 {
		closeAll(fds)
		return msg{}, nil, io.EOF
	}
	var m msg
	if err := json.Unmarshal(b[:n], &m); err != nil {
		closeAll(fds)
		return msg{}, nil, fmt.Errorf("bad message: %w", err)
	}
	return m, fds, nil
}

func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}

// keeper is the keeper's state.
type keeper struct {
	ctl   *net.UnixConn
	sendM sync.Mutex
	mu    sync.Mutex
	steps map[int]int // pid → the holder's id of the step
	early map[int]int // pid → wait status, reaped before it was filed
	own   map[int]bool
	kids  chan struct{}
	// starters are the walls set up once for the steps of one profile,
	// by the profile (starterFor).
	starters map[string]*starter
	// ran is the starter of each step a starter runs, by the holder's id
	// of the step: a replaced starter is not in starters any more, and
	// runs its last steps still.
	ran map[int]*starter
	// signalled is a signal sent to a step the keeper is still starting.
	signalled map[int]syscall.Signal
}

func (k *keeper) send(m msg, fds ...int) {
	k.sendM.Lock()
	defer k.sendM.Unlock()
	send(k.ctl, m, fds...)
}

// keeperMain is the keeper's main: its control socket is descriptor 3. It ends,
// and with it every process of its namespaces, when the holder closes the
// socket or goes away.
func keeperMain(stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "sayso-wall: keeper: %v\n", err)
		return ExitSetup
	}
	if os.Getpid() != 1 {
		return fail(errors.New("not the first process of a PID namespace"))
	}
	if err := unix.CloseRange(4, ^uint(0), 0); err != nil {
		return fail(fmt.Errorf("close inherited descriptors: %w", err))
	}
	if err := loopbackUp(); err != nil {
		return fail(err)
	}
	f := os.NewFile(3, "control")
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return fail(fmt.Errorf("control socket: %w", err))
	}
	k := &keeper{ctl: c.(*net.UnixConn), steps: map[int]int{}, early: map[int]int{}, own: map[int]bool{}, kids: make(chan struct{}, 1), starters: map[string]*starter{}, ran: map[int]*starter{}, signalled: map[int]syscall.Signal{}}
	go k.reap()
	go k.watch()
	k.send(msg{Op: "ready"})
	for {
		m, fds, err := receive(k.ctl)
		if err != nil {
			return 0
		}
		k.handle(m, fds)
	}
}

func (k *keeper) handle(m msg, fds []int) {
	switch m.Op {
	case "spawn":
		// Setting a starter up takes a while: the keeper answers the
		// holder meanwhile.
		go k.spawn(m, fds)
	case "listen":
		closeAll(fds)
		ln, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			k.send(msg{Op: "listening", ID: m.ID, Err: err.Error()})
			return
		}
		port := ln.Addr().(*net.TCPAddr).Port
		lf, err := ln.(*net.TCPListener).File()
		ln.Close()
		if err != nil {
			k.send(msg{Op: "listening", ID: m.ID, Err: err.Error()})
			return
		}
		k.mu.Lock()
		k.own[port] = true
		k.mu.Unlock()
		k.send(msg{Op: "listening", ID: m.ID, Port: port}, int(lf.Fd()))
		lf.Close()
	case "connect":
		closeAll(fds)
		conn, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(m.Port), 5*time.Second)
		if err != nil {
			conn, err = net.DialTimeout("tcp", "[::1]:"+strconv.Itoa(m.Port), 5*time.Second)
		}
		if err != nil {
			k.send(msg{Op: "connected", ID: m.ID, Err: err.Error()})
			return
		}
		cf, err := conn.(*net.TCPConn).File()
		conn.Close()
		if err != nil {
			k.send(msg{Op: "connected", ID: m.ID, Err: err.Error()})
			return
		}
		k.send(msg{Op: "connected", ID: m.ID}, int(cf.Fd()))
		cf.Close()
	case "signal":
		closeAll(fds)
		sig := syscall.Signal(m.Sig)
		k.mu.Lock()
		found := false
		for pid, id := range k.steps {
			if id == m.ID {
				// The step is a session of its own: its group is its pid.
				syscall.Kill(-pid, sig)
				syscall.Kill(pid, sig)
				found = true
			}
		}
		s := k.ran[m.ID]
		if !found && s == nil && len(k.signalled) < 64 && (k.signalled[m.ID] == 0 || sig == syscall.SIGKILL) {
			k.signalled[m.ID] = sig
		}
		k.mu.Unlock()
		if s != nil {
			s.signal(m.ID, sig)
		}
	default:
		closeAll(fds)
	}
}

// spawn starts a step's second stage in a mount namespace of its own,
// with the four descriptors it was handed: stdin, stdout, stderr and
// the report.
func (k *keeper) spawn(m msg, fds []int) {
	defer closeAll(fds)
	if len(fds) != 4 || len(m.Argv) == 0 {
		k.send(msg{Op: "exited", ID: m.ID, Err: "spawn: want four descriptors and a command"})
		return
	}
	if s, a := k.starterFor(m); s != nil {
		k.mu.Lock()
		k.ran[m.ID] = s
		sig := k.signalled[m.ID]
		delete(k.signalled, m.ID)
		k.mu.Unlock()
		if sig != 0 {
			s.signal(m.ID, sig)
		}
		if s.run(m.ID, a, m, fds) == nil {
			return
		}
		k.mu.Lock()
		delete(k.ran, m.ID)
		if sig := s.takeEarly(m.ID); sig != 0 {
			k.signalled[m.ID] = sig
		}
		k.mu.Unlock()
	}
	attr := &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS, Setsid: true}
	if os.Getuid() != 0 {
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_DAC_OVERRIDE}
	}
	k.mu.Lock()
	pid, err := syscall.ForkExec("/proc/self/exe", m.Argv, &syscall.ProcAttr{
		Env:   m.Env,
		Dir:   m.Dir,
		Files: []uintptr{uintptr(fds[0]), uintptr(fds[1]), uintptr(fds[2]), uintptr(fds[3])},
		Sys:   attr,
	})
	if err != nil {
		k.mu.Unlock()
		k.send(msg{Op: "exited", ID: m.ID, Err: "start the step: " + err.Error()})
		return
	}
	if st, ok := k.early[pid]; ok {
		delete(k.early, pid)
		k.mu.Unlock()
		k.send(msg{Op: "exited", ID: m.ID, Status: st})
		return
	}
	k.steps[pid] = m.ID
	if sig := k.signalled[m.ID]; sig != 0 {
		delete(k.signalled, m.ID)
		syscall.Kill(-pid, sig)
		syscall.Kill(pid, sig)
	}
	k.mu.Unlock()
	select {
	case k.kids <- struct{}{}:
	default:
	}
}

// reap waits for every process of the namespaces (PID 1 inherits each
// orphan) and tells the holder when a step's own process ended.
func (k *keeper) reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.ECHILD {
			<-k.kids
			continue
		}
		if err != nil {
			continue
		}
		k.mu.Lock()
		id, ok := k.steps[pid]
		if ok {
			delete(k.steps, pid)
		} else {
			k.early[pid] = int(ws)
			if len(k.early) > 1024 {
				clear(k.early)
			}
		}
		k.mu.Unlock()
		if ok {
			k.send(msg{Op: "exited", ID: id, Status: int(ws)})
		}
	}
}

// watch tells the holder, when they change, which ports processes of the
// wall listen on (its own listeners aside) and how many processes live.
func (k *keeper) watch() {
	var last []int
	lastProcs := -1
	for {
		ports := listening()
		k.mu.Lock()
		ports = slices.DeleteFunc(ports, func(p int) bool { return k.own[p] })
		k.mu.Unlock()
		procs := children() - k.starterCount()
		if !slices.Equal(ports, last) || procs != lastProcs {
			k.send(msg{Op: "ports", Ports: ports, Procs: procs})
			last, lastProcs = ports, procs
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// listening are the TCP ports something in this network namespace
// listens on, sorted.
func listening() []int {
	var out []int
	for _, f := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) < 4 || fs[3] != "0A" {
				continue
			}
			_, port, ok := strings.Cut(fs[1], ":")
			if !ok {
				continue
			}
			if n, err := strconv.ParseUint(port, 16, 16); err == nil {
				out = append(out, int(n))
			}
		}
		fh.Close()
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// children counts the keeper's children: the steps and every process
// they left behind.
func children() int {
	n := 0
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err == nil {
			n += len(strings.Fields(string(b)))
		}
	}
	return n
}

// loopbackUp brings up the network namespace's loopback, its only link.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bring loopback up: %w", err)
	}
	return nil
}
