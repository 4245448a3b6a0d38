package wall

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/sayso-dev/sayso/internal/place"
)

// holder holds the namespaces a wall's steps share — a user namespace,
// a network namespace with nothing but its loopback, a PID namespace —
// through their keeper, and serves each step's egress from outside them.
type holder struct {
	ctl *net.UnixConn
	pid int
	ns  string // the namespaces of the process that made the holder
	// own is the wall's own folder (ownDir), which holds tmux and caches.
	own string
	// tmux is the folder the wall's own terminal multiplexers keep their
	// sockets in: the person's (/tmp/tmux-UID) is hidden, it runs what it
	// is sent outside the wall.
	tmux string
	// caches holds the upper layers of the shared caches the wall's steps
	// write (Profile.Overlay): the wall's own, gone with it.
	caches string
	sendM  sync.Mutex
	closed sync.Once // close ends the holder once: its pid is not reused for another

	mu    sync.Mutex
	next  int
	waits map[int]chan reply
	gone  bool
	kept  []net.Listener // egress listeners left open for what steps left running
	// spare is an egress listener made ahead for the next step, so a step
	// does not wait for the keeper to make one.
	spare chan egressListener

	// onPorts is told the ports the wall's processes listen on and how
	// many processes it holds, when either changes.
	onPorts func(ports []int, procs int)
	done    chan struct{}
}

type reply struct {
	m   msg
	fds []int
}

// startHolder starts a keeper in new user, network and PID namespaces.
// Its error output goes to stderr. The keeper dies with the thread that
// started it (and so with this process).
func startHolder(stderr *os.File, onPorts func([]int, int)) (*holder, error) {
	ns, err := namespaces()
	if err != nil {
		return nil, err
	}
	attr := &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID,
		Pdeathsig:  syscall.SIGKILL,
		Setsid:     true,
	}
	if err := mapIDs(attr, unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_DAC_OVERRIDE); err != nil {
		return nil, err
	}
	pid, c, err := startChild([]string{LauncherName, keeperArg}, "/", withoutSecrets(os.Environ()), []int{-1, -1, int(stderr.Fd())}, attr)
	if err != nil {
		return nil, fmt.Errorf("start the keeper in the wall's namespaces: %w", err)
	}
	h := &holder{ctl: c, pid: pid, ns: ns, waits: map[int]chan reply{}, onPorts: onPorts, done: make(chan struct{}), spare: make(chan egressListener, 1)}
	if h.own, err = ownDir(); err != nil {
		h.close()
		return nil, err
	}
	h.tmux, h.caches = filepath.Join(h.own, "tmux"), filepath.Join(h.own, "caches")
	ready := make(chan error, 1)
	go h.dispatch(ready)
	if err := <-ready; err != nil {
		h.close()
		return nil, err
	}
	return h, nil
}

// startChild starts this program again as argv in folder dir with env
// and attr, with the descriptors files gives it (-1 for /dev/null) and
// one end of a new socket pair after them, and returns its process and
// the pair's other end. The thread that starts it is locked until it
// has: a parent-death signal follows that thread.
func startChild(argv []string, dir string, env []string, files []int, attr *syscall.SysProcAttr) (int, *net.UnixConn, error) {
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, nil, fmt.Errorf("make a socket pair: %w", err)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		unix.Close(pair[0])
		unix.Close(pair[1])
		return 0, nil, err
	}
	defer null.Close()
	fds := make([]uintptr, 0, len(files)+1)
	for _, f := range files {
		if f < 0 {
			fds = append(fds, null.Fd())
		} else {
			fds = append(fds, uintptr(f))
		}
	}
	runtime.LockOSThread()
	pid, err := syscall.ForkExec("/proc/self/exe", argv, &syscall.ProcAttr{Dir: dir, Env: env, Files: append(fds, uintptr(pair[1])), Sys: attr})
	runtime.UnlockOSThread()
	unix.Close(pair[1])
	if err != nil {
		unix.Close(pair[0])
		return 0, nil, err
	}
	f := os.NewFile(uintptr(pair[0]), "control")
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		syscall.Kill(pid, syscall.SIGKILL)
		return 0, nil, err
	}
	return pid, c.(*net.UnixConn), nil
}

// withoutSecrets is env without the variables whose name says they hold
// a secret: the keeper is PID 1 of the wall, where the steps live.
func withoutSecrets(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(e string) bool {
		name, _, _ := strings.Cut(e, "=")
		return place.SecretVar(name)
	})
}

// mapIDs maps the user's ids into a new user namespace as they are
// outside (root: every id it has), and hands a user other than root the
// capabilities caps there across exec.
func mapIDs(attr *syscall.SysProcAttr, caps ...uintptr) error {
	uid, gid := os.Getuid(), os.Getgid()
	if uid != 0 {
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		// A user other than root is not root in its own namespace: its
		// capabilities there would be gone at exec. Ambient, they
		// survive it; the second stage drops them before the shell
		// (dropCaps). CAP_SYS_ADMIN makes the mounts; an overlay needs
		// CAP_DAC_OVERRIDE too (its work folder is mode 0), which in a
		// namespace that maps the user alone reaches their own files only.
		attr.AmbientCaps = caps
		return nil
	}
	var err error
	// root may map every id it has: files keep their owners. Inside a
	// container that is the container's ranges, not every id.
	if attr.UidMappings, err = identity("/proc/self/uid_map"); err != nil {
		return err
	}
	if attr.GidMappings, err = identity("/proc/self/gid_map"); err != nil {
		return err
	}
	// setgroups stays allowed only where it is allowed now.
	b, _ := os.ReadFile("/proc/self/setgroups")
	attr.GidMappingsEnableSetgroups = strings.TrimSpace(string(b)) == "allow"
	return nil
}

// dispatch reads the keeper's messages and hands each to whoever waits
// for it. It reports on ready when the keeper is up, or why not.
func (h *holder) dispatch(ready chan<- error) {
	defer func() {
		h.mu.Lock()
		h.gone = true
		for id, w := range h.waits {
			w <- reply{m: msg{Op: "exited", ID: id, Err: "the wall's keeper ended"}}
			delete(h.waits, id)
		}
		h.mu.Unlock()
		close(h.done)
	}()
	first := true
	for {
		m, fds, err := receive(h.ctl)
		if err != nil {
			if first {
				ready <- errors.New("the wall's keeper did not start (see the error above)")
			}
			return
		}
		switch m.Op {
		case "ready":
			if first {
				first = false
				ready <- nil
			}
			closeAll(fds)
		case "ports":
			closeAll(fds)
			if h.onPorts != nil {
				h.onPorts(m.Ports, m.Procs)
			}
		default:
			h.mu.Lock()
			w, ok := h.waits[m.ID]
			if ok && m.Op != "started" {
				delete(h.waits, m.ID)
			}
			h.mu.Unlock()
			if !ok {
				closeAll(fds)
				continue
			}
			w <- reply{m: m, fds: fds}
		}
	}
}

// ask sends m to the keeper and returns the channel its answer comes on.
func (h *holder) ask(m msg, fds ...int) (int, chan reply, error) {
	h.mu.Lock()
	if h.gone {
		h.mu.Unlock()
		return 0, nil, errors.New("the wall's keeper ended")
	}
	h.next++
	m.ID = h.next
	w := make(chan reply, 1)
	h.waits[m.ID] = w
	h.mu.Unlock()
	h.sendM.Lock()
	err := send(h.ctl, m, fds...)
	h.sendM.Unlock()
	if err != nil {
		h.mu.Lock()
		delete(h.waits, m.ID)
		h.mu.Unlock()
		return 0, nil, fmt.Errorf("talk to the wall's keeper: %w", err)
	}
	return m.ID, w, nil
}

// call is ask, waiting for the answer.
func (h *holder) call(m msg) (reply, error) {
	_, w, err := h.ask(m)
	if err != nil {
		return reply{}, err
	}
	r := <-w
	if r.m.Err != "" {
		closeAll(r.fds)
		return reply{}, errors.New(r.m.Err)
	}
	return r, nil
}

// listen is a TCP listener on the wall's own loopback, and its port.
func (h *holder) listen() (net.Listener, int, error) {
	r, err := h.call(msg{Op: "listen"})
	if err != nil {
		return nil, 0, err
	}
	if len(r.fds) != 1 {
		closeAll(r.fds)
		return nil, 0, errors.New("the keeper sent no listener")
	}
	f := os.NewFile(uintptr(r.fds[0]), "egress")
	ln, err := net.FileListener(f)
	f.Close()
	return ln, r.m.Port, err
}

// egressListener is a listener on the wall's own loopback and its port.
type egressListener struct {
	ln   net.Listener
	port int
}

// egress is a listener for a step's egress: the one made ahead when
// there is one, and the next is made meanwhile.
func (h *holder) egress() (net.Listener, int, error) {
	var e egressListener
	select {
	case e = <-h.spare:
	default:
		ln, port, err := h.listen()
		if err != nil {
			return nil, 0, err
		}
		e = egressListener{ln, port}
	}
	go func() {
		ln, port, err := h.listen()
		if err != nil {
			return
		}
		select {
		case h.spare <- egressListener{ln, port}:
		default:
			ln.Close()
		}
	}()
	return e.ln, e.port, nil
}

// connect is a connection to port on the wall's own loopback.
func (h *holder) connect(port int) (net.Conn, error) {
	r, err := h.call(msg{Op: "connect", Port: port})
	if err != nil {
		return nil, err
	}
	if len(r.fds) != 1 {
		closeAll(r.fds)
		return nil, errors.New("the keeper sent no connection")
	}
	f := os.NewFile(uintptr(r.fds[0]), "inward")
	c, err := net.FileConn(f)
	f.Close()
	return c, err
}

// step is what a step is run with: the launcher's arguments (the second
// stage reads its profile from them), its environment and folder.
type step struct {
	Args  []string
	Env   []string
	Dir   string
	Hosts []string
	Scope Scope
	// Ledger and Session are where a refused connection is reported, and
	// under which session; Command is the step's command.
	Ledger, Session, Command string
}

// run runs s's second stage in the holder's namespaces with the
// descriptors files (stdin, stdout, stderr, report) and returns its wait
// status. Signals from sigs go to the step's process group.
func (h *holder) run(s step, files [4]int, hand func(), sigs <-chan os.Signal) (syscall.WaitStatus, error) {
	bash, err := lookBash()
	if err != nil {
		return 0, err
	}
	ln, port, err := h.egress()
	if err != nil {
		return 0, fmt.Errorf("open the step's egress: %w", err)
	}
	errOut, err := unix.Dup(files[2])
	if err != nil {
		ln.Close()
		return 0, err
	}
	var outM sync.Mutex
	running := true
	eg := &Egress{Hosts: s.Hosts, Refused: func(host string) {
		go Report(s.Ledger, Refusal{Session: s.Session, Host: host, Step: s.Command, Cwd: s.Dir})
		outM.Lock()
		defer outM.Unlock()
		if running {
			unix.Write(errOut, []byte(refusal(host, s.Hosts)))
		}
	}}
	go eg.Serve(ln)
	defer func() {
		outM.Lock()
		running = false
		unix.Close(errOut)
		outM.Unlock()
		h.keepOpen(ln, s.Scope)
	}()
	env := slices.DeleteFunc(slices.Clone(s.Env), func(e string) bool {
		name, _, _ := strings.Cut(e, "=")
		return isEgressVar(name) || name == "TMUX_TMPDIR" || name == "TMUX"
	})
	env = append(env, EgressVars(port)...)
	env = append(env, "TMUX_TMPDIR="+h.tmux)
	argv := append([]string{LauncherName, insideArg, h.ns + " proc", bash}, withUpper(s.Args, h.caches)...)
	id, w, err := h.ask(msg{Op: "spawn", Argv: argv, Env: env, Dir: s.Dir}, files[:]...)
	if err != nil {
		return 0, err
	}
	hand()
	return awaitStatus(w, sigs, func(sig syscall.Signal) {
		h.sendM.Lock()
		send(h.ctl, msg{Op: "signal", ID: id, Sig: int(sig)})
		h.sendM.Unlock()
	})
}

// awaitStatus waits for the reply on w that says how a step ended,
// passing on each signal from sigs meanwhile; sigs closed (the step's
// launcher is gone) passes on SIGKILL.
func awaitStatus(w <-chan reply, sigs <-chan os.Signal, pass func(syscall.Signal)) (syscall.WaitStatus, error) {
	for {
		select {
		case r := <-w:
			if r.m.Err != "" {
				return 0, errors.New(r.m.Err)
			}
			return syscall.WaitStatus(r.m.Status), nil
		case sig, ok := <-sigs:
			if !ok {
				sigs = nil
				sig = syscall.SIGKILL
			}
			pass(sig.(syscall.Signal))
		}
	}
}

// keepOpen decides what becomes of a step's egress when the step ends:
// what it left running (a server, a watcher) keeps reaching the hosts of
// read and local work; the hosts of a step the person approved were for
// that step alone.
func (h *holder) keepOpen(ln net.Listener, s Scope) {
	if s == Approved {
		ln.Close()
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.kept = append(h.kept, ln)
	if len(h.kept) > 64 {
		h.kept[0].Close()
		h.kept = h.kept[1:]
	}
}

// close ends the keeper, and with it every process of the wall.
func (h *holder) close() { h.closed.Do(h.end) }

func (h *holder) end() {
	h.ctl.Close()
	syscall.Kill(h.pid, syscall.SIGKILL)
	var ws syscall.WaitStatus
	syscall.Wait4(h.pid, &ws, 0, nil)
	<-h.done
	h.mu.Lock()
	for _, ln := range h.kept {
		ln.Close()
	}
	h.kept = nil
	h.mu.Unlock()
	select {
	case e := <-h.spare:
		e.ln.Close()
	default:
	}
	if h.own != "" {
		removeTree(h.own)
	}
}

// withUpper is the launcher's arguments with the folder of the wall's
// layers over the shared caches before the command.
func withUpper(args []string, upper string) []string {
	out := make([]string, 0, len(args)+2)
	for i, a := range args {
		if a == "--" {
			out = append(out, "--upper", upper)
			return append(out, args[i:]...)
		}
		out = append(out, a)
	}
	return append(out, "--upper", upper)
}

// removeTree removes a folder the wall's steps wrote, whose folders they
// may have left without the owner's rights (an overlay's work folder, the
// Go module cache's read-only trees).
func removeTree(dir string) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	os.RemoveAll(dir)
}

// lookBash is the bash the step runs in.
func lookBash() (string, error) {
	for _, d := range strings.Split(os.Getenv("PATH"), ":") {
		if d == "" || !strings.HasPrefix(d, "/") {
			continue
		}
		p := d + "/bash"
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("find bash: not on PATH")
}

// waitCode is the exit code a shell would report for ws.
func waitCode(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
