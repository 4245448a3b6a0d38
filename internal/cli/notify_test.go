package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/testenv"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// A step's text is the agent's: handed to the person's notifier, it must
// never be read as part of a command. It comes on stdin and in
// $SAYSO_CARD, one line, and no substitution in it runs.
func TestNotifierNeverParsesTheStep(t *testing.T) {
	dir := t.TempDir()
	pwned := filepath.Join(dir, "pwned")
	step := "git push origin x; touch " + pwned + " $(touch " + pwned + ") `touch " + pwned + "` '\"\nsecond line\x1b[31m"
	// The notifier ends with a status of its own, which sayso warns of
	// once it has ended: by then anything it ran has run.
	command := `cat > ` + filepath.Join(dir, "stdin") + `; printf '%s' "$SAYSO_CARD" > ` + filepath.Join(dir, "env") + `; printf '%s\n' "$@" > ` + filepath.Join(dir, "args") + `; exit 3`
	var errb syncBuffer
	notifier(command, &errb)(card.Card{ID: "c1", Step: step, Classes: []string{"remote-write"}, Agent: "claude"})
	testenv.Wait(t, "the notifier to end", func() (bool, string) {
		errb.mu.Lock()
		defer errb.mu.Unlock()
		return strings.Contains(errb.b.String(), "exit status 3"), fmt.Sprintf("stderr %q", errb.b.String())
	})
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("the step's text ran as a command")
	}
	want := "sayso asks: git push origin x; touch " + pwned + " $(touch " + pwned + ") `touch " + pwned + "` '\" second line [31m (remote-write) — claude"
	if b, _ := os.ReadFile(filepath.Join(dir, "env")); string(b) != want {
		t.Errorf("$SAYSO_CARD = %q, want %q", b, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "stdin")); string(b) != want+"\n" {
		t.Errorf("stdin = %q, want %q", b, want+"\n")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "args")); strings.TrimSpace(string(b)) != "" {
		t.Errorf("arguments = %q, want none", b)
	}
	// A megabyte step is capped, with its length and hash.
	if got := notice(strings.Repeat("x", 1<<20)); len(got) > 2200 || !strings.Contains(got, "sha256") {
		t.Errorf("a megabyte summary handed on as %d bytes", len(got))
	}
}
