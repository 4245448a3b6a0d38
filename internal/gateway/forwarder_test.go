package gateway_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/store"
)

// runForwarder runs a forwarder binary on input, with the folders the
// hook line names, and returns the decision the client reads.
func (f *gw) runForwarder(bin string, input []byte, env ...string) string {
	f.t.Helper()
	cmd := exec.Command(bin, "--state-dir", f.state, "--config-dir", f.config, "claude")
	cmd.Stdin = bytes.NewReader(input)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		f.t.Fatalf("%s: %v: %s", bin, err, errb.String())
	}
	if out.Len() == 0 {
		return ""
	}
	return permission(out.Bytes())
}

func (f *gw) pin(bin string) {
	f.t.Helper()
	b, err := os.ReadFile(bin)
	if err != nil {
		f.t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	pins := client.FilePins{Path: filepath.Join(f.state, "pins.json")}
	if err := pins.Save([]client.Pin{{Agent: "claude", Scope: "user", Kind: client.PinBinary, Path: bin, SHA256: hex.EncodeToString(sum[:])}}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *gw) messages() int {
	f.t.Helper()
	rows, err := f.db.Log(context.Background(), store.LogFilter{})
	if err != nil {
		f.t.Fatal(err)
	}
	n := 0
	for _, r := range rows {
		if r.Kind == store.KindMessage {
			n++
		}
	}
	return n
}

// A program that is not one sayso installed reaches the hooks' socket
// and speaks its protocol exactly (here: a forwarder binary sayso did not
// pin). Its steps ask, and its prompts are not recorded; once the person
// pins the binary, the same step is decided as usual. A binary changed in
// place — same size, its modification time set back — is refused again.
func TestIntruderUnpinnedForwarder(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	bin := filepath.Join(t.TempDir(), "sayso-hook")
	src, err := os.ReadFile(buildForwarder(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, src, 0o700); err != nil {
		t.Fatal(err)
	}
	step := f.claudeInput("s-pin", "ls")
	prompt, _ := json.Marshal(map[string]any{"session_id": "s-pin", "transcript_path": "/x.jsonl", "cwd": f.project, "prompt_id": "p1",
		"hook_event_name": "UserPromptSubmit", "prompt": "/sayso lease force-remote"})

	if got := f.runForwarder(bin, step); got == "allow" {
		t.Errorf("an unpinned binary's step: %q, want ask", got)
	}
	f.runForwarder(bin, prompt, "CLAUDE_CODE_SESSION_ATTENDED=1")
	if n := f.messages(); n != 0 {
		t.Errorf("an unpinned binary's prompt was recorded (%d messages)", n)
	}
	if ls, _ := f.db.Leases(context.Background(), true); len(ls) != 0 {
		t.Errorf("leases: %+v", ls)
	}

	f.pin(bin)
	if got := f.runForwarder(bin, step); got != "allow" {
		t.Errorf("the pinned forwarder's ls: %q, want allow", got)
	}

	// Same size, same modification time, other bytes: the hash cache must
	// not vouch for it.
	fi, _ := os.Stat(bin)
	changed := bytes.Clone(src)
	changed[len(changed)-1] ^= 0xff
	if err := os.WriteFile(bin, changed, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(bin, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := f.runForwarder(bin, step); got == "allow" {
		t.Errorf("a pinned binary changed in place: %q, want ask", got)
	}
}
