package cli

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/sys/unix"
)

// page prints text to the person. A text longer than their terminal goes
// through $PAGER, or less -R when there is no $PAGER and less is on the
// PATH; anything else — output to a file or a pipe, a text that fits, no
// pager at all, a pager that cannot start — is printed whole.
func (e *Env) page(text string) {
	if rows, ok := terminalRows(e.Stdout); ok && strings.Count(text, "\n") >= rows {
		if pager := pagerCommand(); pager != nil {
			pager.Stdin = strings.NewReader(text)
			pager.Stdout, pager.Stderr = e.Stdout, e.Stderr
			if err := pager.Run(); err == nil {
				return
			} else if pager.ProcessState == nil {
				fmt.Fprintf(e.Stderr, "sayso: warning: pager %s: %v\n", pager.Args, err)
			} else {
				return // the pager ran: what it showed is shown, even if it exited non-zero
			}
		}
	}
	fmt.Fprint(e.Stdout, text)
}

// terminalRows is the height of the terminal w is, if it is one.
func terminalRows(w any) (int, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return 0, false
	}
	fd := int(f.Fd())
	if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
		return 0, false
	}
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil || ws.Row == 0 {
		return 24, true
	}
	return int(ws.Row), true
}

// pagerCommand is the person's $PAGER, run by sh as git and man run it,
// or less -R, or nil when there is neither.
func pagerCommand() *exec.Cmd {
	if p := strings.TrimSpace(os.Getenv("PAGER")); p != "" {
		return exec.Command("sh", "-c", p)
	}
	if less, err := exec.LookPath("less"); err == nil {
		return exec.Command(less, "-R")
	}
	return nil
}
