package wall

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// running is every process on the machine whose command line holds
// token, as "pid: command line".
func running(token string) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !bytes.Contains(b, []byte(token)) {
			continue
		}
		out = append(out, filepath.Base(d)+": "+strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))))
	}
	return out
}

// waitGone waits until no process whose command line holds token runs
// any more: what a step left running, say, has ended (or was ended).
func waitGone(t *testing.T, what, token string) {
	t.Helper()
	testenv.Wait(t, what, func() (bool, string) {
		ps := running(token)
		return len(ps) == 0, fmt.Sprintf("%d running: %s", len(ps), strings.Join(ps, "; "))
	})
}

// until is bash that waits until cond holds, inside a step: for a
// process the step started in the background to be up, say. It gives up
// (status 1, and says on stderr what it waited for) only as a test gives
// up on a hang.
func until(cond string) string {
	return `until ` + cond + `; do if [ "$SECONDS" -ge ` + strconv.Itoa(int(testenv.Hang.Seconds())) +
		` ]; then echo ` + quote("waited for: "+cond) + ` >&2; exit 1; fi; sleep 0.05; done`
}

// waitClosed waits until done is closed.
func waitClosed(t *testing.T, what string, done <-chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(testenv.Hang):
		t.Fatalf("waited %v for %s", testenv.Hang, what)
	}
}
