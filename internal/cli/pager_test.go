package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/sayso-dev/sayso/docs"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// openTerminal opens a pseudo-terminal of rows lines and returns the
// side a program writes to and a count of the bytes the terminal shows
// (read from the other side, so that no write blocks).
func openTerminal(t *testing.T, rows uint16) (*os.File, *atomic.Int64) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	shown := new(atomic.Int64)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := m.Read(buf)
			shown.Add(int64(n))
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetUint32(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: 80}); err != nil {
		t.Fatal(err)
	}
	return s, shown
}

// TestHelpPagesOnATerminal: a long topic goes through $PAGER on a
// terminal, or less -R without one; one that fits, or any topic printed
// to a pipe or a file, is printed whole and no pager runs.
func TestHelpPagesOnATerminal(t *testing.T) {
	dir := t.TempDir()
	paged := filepath.Join(dir, "paged")
	run := func(stdout *os.File, args ...string) (int, string) {
		var errb bytes.Buffer
		code := Main(args, &Env{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: &errb, Getwd: func() (string, error) { return dir, nil }})
		return code, errb.String()
	}
	read := func() string {
		b, err := os.ReadFile(paged)
		if err != nil {
			return ""
		}
		os.Remove(paged)
		return string(b)
	}
	long := helpTopics["policy"]
	if strings.Count(long, "\n") < 100 {
		t.Fatalf("the policy topic has %d lines: not a long one", strings.Count(long, "\n"))
	}

	// $PAGER, run by sh, gets the whole topic.
	t.Setenv("PAGER", "cat > '"+paged+"'")
	term, shown := openTerminal(t, 40)
	if code, errs := run(term, "help", "policy"); code != 0 || errs != "" {
		t.Fatalf("help policy on a terminal = %d, %q", code, errs)
	}
	if got := read(); got != long {
		t.Errorf("the pager got %d bytes, want the whole topic (%d bytes)", len(got), len(long))
	}
	// --help of the command is the same topic, paged the same way.
	if code, _ := run(term, "policy", "--help"); code != 0 || read() != long {
		t.Errorf("policy --help on a terminal was not paged")
	}

	// A topic that fits the terminal is printed, not paged.
	if code, _ := run(term, "help", "version"); code != 0 || read() != "" {
		t.Errorf("help version, shorter than the terminal, was paged")
	}

	// To a pipe: printed whole, no pager.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() { var b bytes.Buffer; b.ReadFrom(r); got <- b.String() }()
	code, _ := run(w, "help", "policy")
	w.Close()
	if out := <-got; code != 0 || out != long {
		t.Errorf("help policy to a pipe printed %d bytes, want the whole topic", len(out))
	}
	if read() != "" {
		t.Error("help policy to a pipe ran the pager")
	}

	// No $PAGER: less -R, found on the PATH.
	t.Setenv("PAGER", "")
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	fake := "#!/bin/sh\n{ echo \"args: $*\"; cat; } > '" + paged + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "less"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	if code, _ := run(term, "help", "threat-model"); code != 0 {
		t.Fatalf("help threat-model = %d", code)
	}
	if got := read(); got != "args: -R\n"+docs.Topics["threat-model"] {
		t.Errorf("less got %q…, want -R and the whole topic", firstLine(got))
	}

	// Neither: printed whole on the terminal.
	t.Setenv("PATH", filepath.Join(dir, "nothing"))
	before := shown.Load()
	if code, errs := run(term, "help", "policy"); code != 0 || errs != "" || read() != "" {
		t.Errorf("with no pager: %d, %q", code, errs)
	}
	testenv.Wait(t, "the terminal to show the whole topic", func() (bool, string) {
		n := shown.Load() - before
		return n >= int64(len(long)), fmt.Sprintf("%d bytes of %d shown", n, len(long))
	})
}

// TestHelpListsTopics: sayso help names every topic with its title, and
// each one it names prints.
func TestHelpListsTopics(t *testing.T) {
	var out bytes.Buffer
	if code := Main([]string{"help"}, &Env{Stdout: &out, Stderr: &out}); code != 0 {
		t.Fatalf("help = %d", code)
	}
	_, topics, ok := strings.Cut(out.String(), "topics (sayso help TOPIC):\n")
	if !ok {
		t.Fatalf("help lists no topics:\n%s", out.String())
	}
	for _, name := range []string{"agents", "environment", "policy", "threat-model"} {
		if !strings.Contains(topics, "  "+name+" ") || !strings.Contains(topics, docs.Title(name)) {
			t.Errorf("help does not list topic %s (%s):\n%s", name, docs.Title(name), topics)
		}
		var page bytes.Buffer
		if code := Main([]string{"help", name}, &Env{Stdout: &page, Stderr: &page}); code != 0 || !strings.Contains(page.String(), docs.Title(name)) {
			t.Errorf("help %s = %d, %q", name, code, firstLine(page.String()))
		}
	}
}
