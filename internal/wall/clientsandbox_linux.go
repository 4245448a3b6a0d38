package wall

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// canEnter reports whether this process may set up the whole wall: make
// its namespaces (a user and a mount namespace) and talk to its keeper
// over a unix socket (getsockopt). Inside a client's sandbox that forbids
// either (a client's seccomp filter on Linux may refuse getsockopt) the answer
// is no: the error is EPERM, EACCES or ENOSPC. Any other failure is not
// the sandbox's, and the whole wall is tried (and fails with its own
// reason).
func canEnter() bool {
	refused := func(err error) bool {
		return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.ENOSPC)
	}
	if fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0); err == nil {
		_, err = unix.GetsockoptInt(fds[0], unix.SOL_SOCKET, unix.SO_TYPE)
		unix.Close(fds[0])
		unix.Close(fds[1])
		if refused(err) {
			return false
		}
	} else if refused(err) {
		return false
	}
	cmd := exec.Command("/proc/self/exe", noopArg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID}
	return !refused(cmd.Run())
}

// noopArg starts the launcher to do nothing: canEnter's probe.
const noopArg = "--sayso-wall-noop"

// ClientSandboxPart is the part of a profile the launcher applies in a
// client's sandbox where it cannot make its namespaces: Landlock, stacked
// on the client's own restrictions, with the profile's writes but the
// shared caches (there is no layer of the wall's own to write them
// through, and what a step wrote there would be read by the person's own
// runs); its signals and abstract unix sockets scoped to the step;
// no_new_privs; and the environment without its secrets. What Landlock
// cannot do is not done: nothing is hidden (a credential the client's
// sandbox leaves readable stays readable), nothing under a writable tree
// is kept read-only, and the network is the client sandbox's. The
// decision is told so beforehand (policy.Wall.Partial).
func ClientSandboxPart(p Profile) Profile {
	out := Profile{Scope: p.Scope, Secrets: p.Secrets, InClientSandbox: true}
	for _, w := range p.Write {
		cache := false
		for _, o := range p.Overlay {
			if w == o || within(w, o) {
				cache = true
			}
		}
		if !cache {
			out.Write = append(out.Write, w)
		}
	}
	return out
}

// inClientSandbox runs a's command under ClientSandboxPart of its
// profile: Landlock on this thread, then bash started from it, as bash -c
// runs the command. As in the whole wall, the step gets no terminal: its
// stdin on a terminal is /dev/null and its output on a terminal a pipe
// the launcher copies there (what an agent types into a running step
// later reaches no hook), it is a session of its own, and what it leaves
// running ends with it. A report descriptor gets the shell's end with no
// folder (the client's shell stays where it was).
func inClientSandbox(a Args, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "sayso-wall: error: in the client's sandbox: %v\n", err)
		return ExitSetup
	}
	if why := changed(a.Profile.Same); why != "" {
		return fail(fmt.Errorf("%s: the step did not run, since it would not run what was approved; run it again to be asked about what is there now", why))
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		return fail(fmt.Errorf("find bash: %w", err))
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fail(fmt.Errorf("keep what the step leaves running: %w", err))
	}
	defer endOrphans()
	std, relays, err := terminals()
	if err != nil {
		return fail(err)
	}
	drain := relayAll(relays)
	sigs := catchSignals()
	defer signal.Stop(sigs)

	// Landlock holds the thread that restricts itself and what it starts:
	// bash is started from this locked thread, which is never unlocked.
	runtime.LockOSThread()
	if err := restrict(ClientSandboxPart(a.Profile)); err != nil {
		return fail(err)
	}
	pid, err := syscall.ForkExec(bash, []string{"bash", "-c", a.Command}, &syscall.ProcAttr{
		Env:   stepEnv(a.Profile, os.Environ()),
		Files: []uintptr{std[0], std[1], std[2]},
		Sys:   &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL},
	})
	handOver(&std)
	if err != nil {
		return fail(fmt.Errorf("run bash: %w", err))
	}
	ws, err := relayWait(pid, sigs)
	if err != nil {
		return fail(fmt.Errorf("wait for the step: %w", err))
	}
	drain()
	code := waitCode(ws)
	if a.ReportFD >= 0 {
		syscall.Write(a.ReportFD, []byte("e"))
		syscall.Close(a.ReportFD)
	}
	return code
}
