package gateway_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/sayso-dev/sayso/internal/cli"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// lockedBuffer is a bytes.Buffer safe to write from serve and read here.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// openPty opens a real pseudo-terminal pair: serve's standard input is
// the terminal end, the test types on the other.
func openPty(t *testing.T) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlock the pty: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("pty number: %v", e)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pty: %v", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

var linkRE = regexp.MustCompile(`sayso: open (http://\S+/login\?token=\S+)`)

// sayso serve prints a login link at start and a fresh one each time the
// person presses Enter in its own terminal.
func TestServeEnterPrintsLink(t *testing.T) {
	root := t.TempDir()
	t.Setenv("SAYSO_STATE_DIR", root+"/state")
	t.Setenv("SAYSO_CONFIG_DIR", root+"/config")
	if err := paths.Fix(root+"/state", root+"/config"); err != nil {
		t.Fatal(err)
	}
	master, tty := openPty(t)
	ctx, cancel := context.WithCancel(context.Background())
	out := &lockedBuffer{}
	var errb lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Main([]string{"serve", "--addr", freeAddr(t)}, &cli.Env{Stdin: tty, Stdout: out, Stderr: &errb, Context: ctx})
	}()
	defer func() {
		cancel()
		master.Write([]byte("\n")) // serve's reader ends with the test
		if code := <-done; code != 0 {
			t.Errorf("serve: exit %d: %s", code, errb.String())
		}
	}()
	links := func(n int) []string {
		var ls []string
		testenv.Wait(t, fmt.Sprintf("%d login links", n), func() (bool, string) {
			m := linkRE.FindAllStringSubmatch(out.String(), -1)
			ls = ls[:0]
			for _, x := range m {
				ls = append(ls, x[1])
			}
			return len(m) >= n, fmt.Sprintf("serve printed %q, %q", out.String(), errb.String())
		})
		return ls
	}
	first := links(1)
	if _, err := master.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	ls := links(2)
	if ls[0] != first[0] || ls[1] == ls[0] {
		t.Errorf("links %q: want a fresh one after Enter", ls)
	}
	if _, err := master.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	if ls := links(3); ls[2] == ls[1] {
		t.Errorf("links %q: want a fresh one after each Enter", ls)
	}
}

// 'sayso serve &' in an interactive shell: a read of the terminal from the
// background would stop the whole gateway (SIGTTIN). It keeps running, and
// the person's 'sayso login' gets a link from it.
func TestServeInTheBackground(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		testenv.Missing(t, "script (util-linux) is missing: %v", err)
	}
	bin := buildSayso(t)
	root := t.TempDir()
	addr := freeAddr(t)
	line := bin + " serve --addr " + addr + " & sleep 2; jobs -l; " + bin + " login; kill %1; wait"
	cmd := exec.Command(script, "-qc", "bash --norc -ic '"+line+"'", "/dev/null")
	cmd.Env = append(os.Environ(), "SAYSO_STATE_DIR="+root+"/state", "SAYSO_CONFIG_DIR="+root+"/config")
	out, _ := cmd.CombinedOutput()
	if bytes.Contains(out, []byte("Stopped")) || !bytes.Contains(out, []byte("Running")) {
		t.Errorf("sayso serve in the background:\n%s", out)
	}
	if n := bytes.Count(out, []byte("/login?token=")); n != 2 {
		t.Errorf("links: %d, want serve's and sayso login's:\n%s", n, out)
	}
}
