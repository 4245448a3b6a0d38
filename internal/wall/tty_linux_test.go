package wall

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// openPty opens a new terminal: its master and its follower.
func openPty(t *testing.T) (master, follower *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatal(e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatal(e)
	}
	f, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(); f.Close() })
	return m, f
}

// TestWallTerminalInput: a client that runs a step in a terminal (Codex's
// exec_command with tty) lets the agent type into it later (write_stdin)
// with no hook in between. What the step was decided on cannot take that
// typing as commands: no walled program reads the client's terminal, from
// its standard input, its standard error or its standard output.
func TestWallTerminalInput(t *testing.T) {
	need(t)
	w := newWorld(t)
	got := filepath.Join(w.root, "got")
	reads := map[string]string{
		"stdin": "<&0", "stdout": "<&1", "stderr": "<&2",
		"path": `< "$(readlink /proc/self/fd/2)"`, "proc": "< /proc/self/fd/2", "tty": "< /dev/tty",
	}
	for name, from := range reads {
		t.Run(name, func(t *testing.T) {
			os.Remove(got)
			master, follower := openPty(t)
			line := w.profile(Local).Wrap("echo out-$PPID; read -t 3 l "+from+"; echo \"got:$l\" > "+got+"; echo err-$PPID >&2", launcher(t))
			cmd := exec.Command("bash", "-c", line)
			cmd.Dir = w.root
			cmd.Env = append(os.Environ(), launcherEnv+"=1", "HOME="+w.home)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = follower, follower, follower
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			var mu sync.Mutex
			var seen []byte
			read := make(chan struct{}) // the terminal was read to its end
			go func() {
				defer close(read)
				buf := make([]byte, 4096)
				for {
					n, err := master.Read(buf)
					mu.Lock()
					seen = append(seen, buf[:max(n, 0)]...)
					mu.Unlock()
					if err != nil {
						return
					}
				}
			}()
			shown := func() string {
				mu.Lock()
				defer mu.Unlock()
				return string(seen)
			}
			// The step says "out-" just before it reads: the agent types
			// then, into a terminal that keeps what is typed until it is
			// read.
			testenv.Wait(t, "the step to start", func() (bool, string) {
				select {
				case <-exited:
					return true, ""
				default:
				}
				out := shown()
				return strings.Contains(out, "out-"), fmt.Sprintf("the terminal showed %q", out)
			})
			master.Write([]byte("git push --force\n"))
			waitClosed(t, "the step to end", exited)
			// With the test's end of the follower closed too, the master
			// reads what the step wrote, then the terminal's end.
			follower.Close()
			waitClosed(t, "the terminal to be read to its end", read)
			b, err := os.ReadFile(got)
			if err != nil {
				t.Fatalf("the step did not run: %v", err)
			}
			if out := shown(); !strings.Contains(out, "out-") || !strings.Contains(out, "err-") {
				t.Errorf("the step's output did not reach the terminal: %q", out)
			}
			if strings.Contains(string(b), "push") {
				t.Errorf("the walled step read the client's terminal (%s): %q", from, b)
			}
		})
	}
}
