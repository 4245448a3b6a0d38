package wall

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/sayso-dev/sayso/internal/place"
)

// insideArg marks the launcher's second stage: the process the first
// stage starts in a new user and mount namespace.
const insideArg = "--sayso-wall-inside"

// ExitSetup is the launcher's status when the wall could not be set up
// and the command did not run.
const ExitSetup = 126

// Main is the launcher: it runs args' command in bash inside the wall
// args describe and returns its exit status. Messages go to stderr.
func Main(args []string, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case insideArg:
			return inside(args[1:], stderr)
		case starterArg:
			return starterMain(args[1:], stderr)
		case keeperArg:
			return keeperMain(stderr)
		case noopArg:
			return 0
		case holdArg:
			if len(args) != 2 || clean(args[1]) == "" {
				fmt.Fprintf(stderr, "sayso-wall: error: %s wants the session's socket\n", holdArg)
				return 2
			}
			return hold(clean(args[1]), stderr)
		case endArg:
			if len(args) != 2 || clean(args[1]) == "" {
				fmt.Fprintf(stderr, "sayso-wall: error: %s wants the session's socket\n", endArg)
				return 2
			}
			if err := EndSession(clean(args[1])); err != nil {
				fmt.Fprintf(stderr, "sayso-wall: error: %v\n", err)
				return 1
			}
			return 0
		}
	}
	a, err := ParseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "sayso-wall: error: %v\n", err)
		return 2
	}
	if a.Profile.Session != "" && !a.Profile.HostNetwork {
		// A session's launcher hands its step over and waits: one
		// processor is all it uses, and the runtime's threads spinning
		// for a second one cost a third of its processor time.
		runtime.GOMAXPROCS(1)
	}
	// What the launcher starts gets only the descriptors it hands over:
	// the session's holder, which outlives the step, must not keep the
	// client's pipes (its report capture above all) open.
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		fmt.Fprintf(stderr, "sayso-wall: error: close inherited descriptors: %v\n", err)
		return ExitSetup
	}
	if a.Profile.InClientSandbox && !a.Check && !canEnter() {
		// A client's sandbox that forbids namespaces: the
		// decision knew it, and counted on no more than Landlock.
		return inClientSandbox(a, stderr)
	}
	code, err := outside(a, args)
	if err != nil {
		fmt.Fprintf(stderr, "sayso-wall: error: %v\n", err)
		return ExitSetup
	}
	return code
}

// outside is the first stage: it makes the folders the profile binds,
// starts the second stage in new namespaces, passes signals on, waits,
// and reports the walled shell's end on the report descriptor.
func outside(a Args, args []string) (int, error) {
	if why := changed(a.Profile.Same); why != "" {
		return 0, fmt.Errorf("%s: the step did not run, since it would not run what was approved; run it again to be asked about what is there now", why)
	}
	for _, d := range a.Profile.Make {
		if err := makeDir(d); err != nil {
			return 0, err
		}
	}
	var absent []string
	for _, f := range a.Profile.Absent {
		if _, err := os.Lstat(f); err != nil {
			absent = append(absent, f)
		}
	}
	defer removePlanted(absent)
	if a.ReportFD >= 0 {
		var st syscall.Stat_t
		if err := syscall.Fstat(a.ReportFD, &st); err != nil {
			return 0, fmt.Errorf("report descriptor %d: %w", a.ReportFD, err)
		}
	}
	var pipe [2]int
	if err := syscall.Pipe2(pipe[:], syscall.O_CLOEXEC); err != nil {
		return 0, fmt.Errorf("make report pipe: %w", err)
	}
	defer syscall.Close(pipe[0])

	// The second stage gets the client's stdin, stdout and stderr, and
	// the report pipe on 3; nothing else. A terminal among them is never
	// handed in (terminals): what is typed into it later was never decided
	// on.
	std, relays, err := terminals()
	if err != nil {
		syscall.Close(pipe[1])
		return 0, err
	}
	handed := false
	hand := func() {
		if handed {
			return
		}
		handed = true
		syscall.Close(pipe[1])
		handOver(&std)
	}
	defer hand()
	drain := relayAll(relays)
	sigs := catchSignals()
	defer signal.Stop(sigs)
	files := [4]int{int(std[0]), int(std[1]), int(std[2]), pipe[1]}
	var ws syscall.WaitStatus
	switch {
	case a.Profile.HostNetwork:
		// A step of a session or a wall of its own gets its bash from
		// the holder.
		var bash string
		if bash, err = exec.LookPath("bash"); err != nil {
			return 0, fmt.Errorf("find bash: %w", err)
		}
		ws, err = direct(bash, args, files, hand, sigs)
	case a.Profile.Session != "":
		ws, err = viaSession(a, args, files, hand, sigs)
	default:
		ws, err = alone(a, args, files, hand, sigs)
	}
	hand()
	drain()
	if err != nil {
		return 0, err
	}
	code := waitCode(ws)
	if a.ReportFD >= 0 {
		// The walled shell wrote its report before it exited; whatever
		// it started since cannot keep the reader waiting.
		syscall.SetNonblock(pipe[0], true)
		buf := make([]byte, 8192)
		n, _ := syscall.Read(pipe[0], buf)
		msg := string(buf[:max(n, 0)])
		// "r" when the shell ran, then "d", its folder and a newline
		// when it ended normally; nothing when the wall failed.
		var out string
		switch {
		case strings.HasPrefix(msg, "rd/") && strings.HasSuffix(msg, "\n"):
			out = strings.TrimSuffix(msg[1:], "\n") + "x"
		case strings.HasPrefix(msg, "r"):
			out = "e"
		}
		syscall.Write(a.ReportFD, []byte(out))
		syscall.Close(a.ReportFD)
	}
	return code, nil
}

// removePlanted removes what the step made at paths that were missing
// when it started and must stay so (Profile.Absent), and says so on
// stderr: git would follow them out of the wall at the person's next
// command.
func removePlanted(paths []string) {
	for _, f := range paths {
		if _, err := os.Lstat(f); err != nil {
			continue
		}
		if err := os.RemoveAll(f); err != nil {
			fmt.Fprintf(os.Stderr, "sayso-wall: the step made %s, and it could not be removed: %v\n", f, err)
			continue
		}
		fmt.Fprintf(os.Stderr, "sayso-wall: removed %s, which the step made: git would follow it out of the wall\n", f)
	}
}

// identity maps each range of ids this process has (an id map of
// /proc/self) to itself.
func identity(path string) ([]syscall.SysProcIDMap, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var out []syscall.SysProcIDMap
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var inside, outside, size int64
		if _, err := fmt.Sscan(line, &inside, &outside, &size); err != nil || size <= 0 {
			return nil, fmt.Errorf("read %s: bad line %q", path, line)
		}
		out = append(out, syscall.SysProcIDMap{ContainerID: int(inside), HostID: int(inside), Size: int(size)})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("read %s: no ids", path)
	}
	return out, nil
}

// makeDir makes folder d when missing and its parent exists. A link to
// nothing in its place fails the step: the step could make what it
// points to, where no bind would cover it.
func makeDir(d string) error {
	if fi, err := os.Lstat(d); err == nil {
		if fi.Mode()&os.ModeSymlink != 0 {
			if _, err := os.Stat(d); err != nil {
				return fmt.Errorf("%s is a link to nothing (%v): remove it", d, err)
			}
		}
		return nil
	}
	parent := d[:strings.LastIndexByte(d, '/')]
	if parent == "" {
		parent = "/"
	}
	if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
		return nil
	}
	if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("make %s: %w", d, err)
	}
	return nil
}

// inside is the second stage, in the new namespaces: mounts, Landlock,
// no_new_privs, then bash. It never runs the command unwalled.
func inside(args []string, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "sayso-wall: error: %v\n", err)
		return ExitSetup
	}
	a, bash, err := enter(args)
	if err != nil {
		return fail(err)
	}
	if a.Check {
		return 0
	}
	if err := unix.CloseRange(4, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return fail(fmt.Errorf("close inherited descriptors: %w", err))
	}
	if _, err := syscall.Write(3, []byte("r")); err != nil {
		return fail(fmt.Errorf("report start: %w", err))
	}
	err = syscall.Exec(bash, shellArgv(a), stepEnv(a.Profile, os.Environ()))
	return fail(fmt.Errorf("run bash: %w", err))
}

// enter sets the wall up around this process, on its locked thread: args
// are the second stage's (the first stage's namespaces, bash, then the
// launcher's). What it returns runs walled from this thread only.
func enter(args []string) (Args, string, error) {
	if len(args) < 2 {
		return Args{}, "", errors.New("inside: no shell")
	}
	outer, bash := args[0], args[1]
	a, err := ParseArgs(args[2:])
	if err != nil {
		return a, "", err
	}
	runtime.LockOSThread() // never unlocked: this thread is restricted and execs
	// Only what the first stage handed in reaches the shell: a descriptor
	// the client left open (a folder, a file the wall keeps) would let the
	// step reach past the mounts.
	if err := unix.CloseRange(5, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return a, "", fmt.Errorf("close inherited descriptors: %w", err)
	}
	own, err := namespaces()
	if err != nil {
		return a, "", err
	}
	first := strings.Fields(outer)
	// The keeper's steps start in a PID namespace of their own: they get
	// a /proc of it.
	ownPIDs := len(first) == 3 && first[2] == "proc"
	if ownPIDs {
		first = first[:2]
	}
	for i, ns := range strings.Fields(own) {
		if len(first) != 2 || first[i] == ns {
			return a, "", errors.New("not in a user and mount namespace of its own")
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return a, "", fmt.Errorf("find working folder: %w", err)
	}
	if !a.Profile.Secrets {
		a.Profile.Hidden = append(a.Profile.Hidden, agents()...)
	}
	if err := mountAll(a.Profile); err != nil {
		return a, "", err
	}
	if ownPIDs {
		if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return a, "", fmt.Errorf("mount the wall's /proc: %w", err)
		}
	}
	// The working folder is found again through the new mounts: a step
	// started inside a covered folder must not keep the old one.
	if err := os.Chdir(cwd); err != nil {
		return a, "", fmt.Errorf("enter working folder: %w", err)
	}
	if err := restrict(a.Profile); err != nil {
		return a, "", err
	}
	if err := dropCaps(); err != nil {
		return a, "", err
	}
	return a, bash, nil
}

// shellArgv is how bash runs a's command. With a report to make, bash
// runs the command as the client's shell would eval it and reports its
// folder; without, as `bash -c` would: the client starts a new shell for
// every step (Profile.Line).
func shellArgv(a Args) []string {
	if a.ReportFD >= 0 {
		return []string{"bash", "-c", inner, "bash", a.Command}
	}
	return []string{"bash", "-c", a.Command}
}

// stepEnv is the walled shell's environment: env without what holds a
// secret (unless the profile grants secrets), with SAYSO_WALL naming the
// scope.
func stepEnv(p Profile, env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, e := range env {
		name, _, _ := strings.Cut(e, "=")
		if name == "SAYSO_WALL" || !p.Secrets && place.SecretVar(name) {
			continue
		}
		out = append(out, e)
	}
	return append(out, "SAYSO_WALL="+p.Scope.String())
}

// agents are the sockets of the agents that sign or decrypt with the
// person's keys, and of the editor that hands out its tokens, as the
// step's environment names them (agentsIn). A step that holds no secret
// reaches none.
func agents() []string { return agentsIn(os.Getenv) }

// dropCaps leaves the walled shell no capability that could undo the
// wall. A user other than root enters the wall with CAP_SYS_ADMIN in its
// own user namespace as an ambient capability, to make the mounts after
// the second stage's exec: the shell gets none at all. Root in the wall's
// namespace keeps what a root step needs (chown, reading others' files)
// but loses, for good (the bounding set), what changes or reaches around
// the mounts: mount_setattr and open_tree, which Landlock does not check,
// need CAP_SYS_ADMIN; open_by_handle_at needs CAP_DAC_READ_SEARCH.
func dropCaps() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var caps [2]unix.CapUserData
	if os.Getuid() == 0 {
		if err := unix.Capget(&hdr, &caps[0]); err != nil {
			return fmt.Errorf("read capabilities: %w", err)
		}
		for _, c := range rootDrops {
			if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
				return fmt.Errorf("drop capability %d: %w", c, err)
			}
			caps[c/32].Effective &^= 1 << (c % 32)
			caps[c/32].Permitted &^= 1 << (c % 32)
			caps[c/32].Inheritable &^= 1 << (c % 32)
		}
	}
	if err := unix.Capset(&hdr, &caps[0]); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	return nil
}

// rootDrops are the capabilities root in the wall never has.
var rootDrops = []int{unix.CAP_SYS_ADMIN, unix.CAP_DAC_READ_SEARCH, unix.CAP_SYS_MODULE, unix.CAP_SYS_RAWIO, unix.CAP_SYS_PTRACE, unix.CAP_BPF, unix.CAP_PERFMON}

// namespaces names this process's user and mount namespaces. The
// second stage checks that its own differ from the first stage's: run
// directly, it must not mount over its caller's view of the files.
func namespaces() (string, error) {
	user, err := os.Readlink("/proc/self/ns/user")
	if err != nil {
		return "", fmt.Errorf("read user namespace: %w", err)
	}
	mnt, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		return "", fmt.Errorf("read mount namespace: %w", err)
	}
	return user + " " + mnt, nil
}

// terminals returns the descriptors the walled step gets as its stdin,
// stdout and stderr. A client that runs a step in a terminal (an
// exec_command with a tty) lets the agent type into it later, with no
// hook in between: a pager's "!command", an editor's shell escape, a
// shell the step starts would run what it types. So no terminal is
// handed in: stdin on a terminal becomes /dev/null, and stdout and stderr
// on a terminal become pipes whose output the launcher copies to it
// (less reads its keys from stderr; a descriptor of the terminal, even
// write-only, reopens readable through /proc/self/fd). The wall's own
// session has no controlling terminal and its own /dev/pts
// (ownTerminals), so no path reaches the client's terminal either.
func terminals() ([3]uintptr, []*relay, error) {
	std := [3]uintptr{0, 1, 2}
	var relays []*relay
	fail := func(err error) ([3]uintptr, []*relay, error) {
		for _, f := range std {
			if f > 2 {
				syscall.Close(int(f))
			}
		}
		for _, r := range relays {
			r.from.Close()
		}
		return std, nil, err
	}
	for fd := range 3 {
		if !isTerminal(fd) {
			continue
		}
		if fd == 0 {
			nfd, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
			if err != nil {
				return fail(fmt.Errorf("open /dev/null for the step's stdin: %w", err))
			}
			std[0] = uintptr(nfd)
			continue
		}
		var p [2]int
		if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
			return fail(fmt.Errorf("make a pipe for the step's output: %w", err))
		}
		std[fd] = uintptr(p[1])
		if err := syscall.SetNonblock(p[0], true); err != nil {
			syscall.Close(p[0])
			return fail(err)
		}
		relays = append(relays, &relay{from: os.NewFile(uintptr(p[0]), "step output"), to: fd})
	}
	return std, relays, nil
}

// handOver closes this process's copies of the step's ends of its relays
// (terminals), once the step has them: they are its own now.
func handOver(std *[3]uintptr) {
	for fd, f := range std {
		if f > 2 {
			syscall.Close(int(f))
			std[fd] = uintptr(fd)
		}
	}
}

// relayAll copies the output of each relay to its terminal while the step
// runs. drain returns once each is done: what the shell wrote before it
// ended reaches the terminal, and a process it left running, which still
// holds the pipe, does not keep the client waiting.
func relayAll(relays []*relay) (drain func()) {
	var relayed sync.WaitGroup
	for _, r := range relays {
		relayed.Add(1)
		go func() {
			defer relayed.Done()
			r.copy()
		}()
	}
	return func() {
		for _, r := range relays {
			r.from.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		}
		relayed.Wait()
	}
}

// catchSignals catches the signals the launcher passes on to the wall
// (relayWait) rather than ending on them; signal.Stop ends the catching.
func catchSignals() chan os.Signal {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
	return sigs
}

// relayWait waits for process pid, the wall's first process, passing on
// the signals from sigs meanwhile. The wall is a session of its own, out
// of the terminal's reach: what the terminal sends the group goes to the
// wall's group, what is sent to the launcher to the wall.
func relayWait(pid int, sigs <-chan os.Signal) (syscall.WaitStatus, error) {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case s := <-sigs:
				switch s {
				case syscall.SIGINT, syscall.SIGQUIT:
					syscall.Kill(-pid, s.(syscall.Signal))
				default:
					syscall.Kill(pid, s.(syscall.Signal))
				}
			}
		}
	}()
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			return ws, err
		}
	}
}

// relay copies the walled step's output from a pipe to the terminal.
type relay struct {
	from *os.File
	to   int
}

func (r *relay) copy() {
	defer r.from.Close()
	buf := make([]byte, 32*1024)
	for {
		n, err := r.from.Read(buf)
		for b := buf[:max(n, 0)]; len(b) > 0; {
			m, werr := syscall.Write(r.to, b)
			if werr == syscall.EINTR || werr == syscall.EAGAIN {
				continue
			}
			if werr != nil || m <= 0 {
				return
			}
			b = b[m:]
		}
		if err != nil {
			return
		}
	}
}

// isTerminal reports whether fd is a terminal.
func isTerminal(fd int) bool {
	var t syscall.Termios
	_, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return e == 0
}
