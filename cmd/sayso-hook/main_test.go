package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/gateway"
)

// The forwarder speaks the gateway's wire format without importing it (the
// gateway links the database driver): its copies must match.
func TestWire(t *testing.T) {
	if !slices.Equal(forwardEnv, gateway.ForwardEnv) {
		t.Errorf("forwardEnv = %q, gateway.ForwardEnv = %q", forwardEnv, gateway.ForwardEnv)
	}
	in := request{Agent: "claude", Input: []byte(`{"x":1}`), Env: map[string]string{"CLAUDE_CODE_SESSION_ATTENDED": "1"}, Home: "/h"}
	b, _ := json.Marshal(in)
	var g gateway.Request
	// Only the wire's fields: what the kernel says of the peer is never
	// read from the request.
	want := gateway.Request{Agent: in.Agent, Input: in.Input, Env: in.Env, Home: in.Home}
	if err := json.Unmarshal(b, &g); err != nil || !reflect.DeepEqual(g, want) {
		t.Errorf("request %s reads as %+v (%v)", b, g, err)
	}
	// The forwarder waits for the gateway as long as the longest wait
	// sayso install gives a client: the gateway's card ends before it.
	if wait != client.DecideTimeout*time.Second {
		t.Errorf("wait = %v, client.DecideTimeout = %ds", wait, client.DecideTimeout)
	}
	out := gateway.Reply{Stdout: []byte("{}\n"), Stderr: "why", Exit: 2}
	b, _ = json.Marshal(out)
	var r reply
	if err := json.Unmarshal(b, &r); err != nil || !reflect.DeepEqual(r, reply(out)) {
		t.Errorf("reply %s reads as %+v (%v)", b, r, err)
	}
}

func TestForward(t *testing.T) {
	state, elsewhere := t.TempDir(), t.TempDir()
	// An "env" block in a client's settings points the hook elsewhere:
	// the folders on its command line win.
	t.Setenv("SAYSO_STATE_DIR", elsewhere)
	t.Setenv("CLAUDE_CODE_SESSION_ATTENDED", "1")
	decoy, err := gateway.Listen(filepath.Join(elsewhere, "sayso.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer decoy.Close()
	go func() {
		if c, err := decoy.Accept(); err == nil {
			t.Errorf("the hook asked the gateway its environment named")
			c.Close()
		}
	}()
	dirs := []string{"--state-dir", state, "--config-dir", t.TempDir()}
	ln, err := gateway.Listen(filepath.Join(state, "sayso.sock"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan gateway.Request, 1)
	go gateway.ServeSocket(ctx, ln, func(_ context.Context, r gateway.Request) gateway.Reply {
		got <- r
		return gateway.Reply{Stdout: []byte("answer\n")}
	})
	var stdout, stderr bytes.Buffer
	if code := run(append(dirs, "claude"), bytes.NewReader([]byte(`{"hook_event_name":"PreToolUse"}`)), &stdout, &stderr); code != 0 || stdout.String() != "answer\n" {
		t.Fatalf("run = %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	r := <-got
	if r.Agent != "claude" || string(r.Input) != `{"hook_event_name":"PreToolUse"}` || r.Env["CLAUDE_CODE_SESSION_ATTENDED"] != "1" {
		t.Errorf("the gateway got %+v", r)
	}
	// As 'sayso install --fast' writes the command: sayso-hook DIRS hook AGENT.
	stdout.Reset()
	if code := run(append(dirs, "hook", "claude"), bytes.NewReader([]byte(`{}`)), &stdout, &stderr); code != 0 || stdout.String() != "answer\n" {
		t.Fatalf("run hook claude = %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if r := <-got; r.Agent != "claude" {
		t.Errorf("the gateway got agent %q, want claude", r.Agent)
	}
}

// A home with a long path puts sayso serve's socket past the 107 bytes a
// socket's address holds: the gateway listens there and the forwarder
// reaches it all the same.
func TestForwardLongState(t *testing.T) {
	state := t.TempDir()
	for len(state) < 150 {
		state = filepath.Join(state, strings.Repeat("h", min(150-len(state), 60)))
	}
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := gateway.Listen(filepath.Join(state, "sayso.sock"))
	if err != nil {
		t.Fatalf("listen at a %d-byte path: %v", len(filepath.Join(state, "sayso.sock")), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go gateway.ServeSocket(ctx, ln, func(context.Context, gateway.Request) gateway.Reply {
		return gateway.Reply{Stdout: []byte("answer\n")}
	})
	var stdout, stderr bytes.Buffer
	dirs := []string{"--state-dir", state, "--config-dir", t.TempDir()}
	if code := run(append(dirs, "claude"), bytes.NewReader([]byte(`{"hook_event_name":"PreToolUse"}`)), &stdout, &stderr); code != 0 || stdout.String() != "answer\n" {
		t.Fatalf("run = %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// With no gateway and no sayso beside it, the step is blocked, never let
// through.
func TestNoGatewayNoSayso(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"--state-dir", t.TempDir(), "--config-dir", t.TempDir(), "claude"}, bytes.NewReader([]byte(`{}`)), &stdout, &stderr)
	if _, err := os.Stat(filepath.Join(filepath.Dir(os.Args[0]), "sayso")); err == nil {
		t.Fatal("a sayso lies beside the test binary: this test cannot show the block")
	}
	if code != 2 || stdout.Len() != 0 || !bytes.Contains(stderr.Bytes(), []byte("blocked")) {
		t.Errorf("run = %d, stdout %q, stderr %q; want 2 and a block", code, stdout.String(), stderr.String())
	}
}

// With no gateway the forwarder becomes the sayso beside it, in place:
// the process the client started is the one that answers, with the input
// it read. An input too large for a pipe goes to sayso as a child.
func TestBecomesSayso(t *testing.T) {
	dir := t.TempDir()
	fwd := filepath.Join(dir, "sayso-hook")
	if out, err := exec.Command("go", "build", "-o", fwd, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	// A stand-in for sayso that says which process it is, its arguments,
	// and what it read.
	script := "#!/bin/sh\necho \"pid $$ args $*\"\nexec cat\n"
	if err := os.WriteFile(filepath.Join(dir, "sayso"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{200, 4 << 20} {
		in := bytes.Repeat([]byte("x"), size)
		cmd := exec.Command(fwd, "--state-dir", t.TempDir(), "--config-dir", t.TempDir(), "claude")
		cmd.Stdin = bytes.NewReader(in)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%d bytes: %v: %s", size, err, stderr.String())
		}
		head, body, _ := bytes.Cut(stdout.Bytes(), []byte("\n"))
		var pid int
		if _, err := fmt.Sscanf(string(head), "pid %d args", &pid); err != nil {
			t.Fatalf("%d bytes: stand-in said %q", size, head)
		}
		args := string(head[bytes.Index(head, []byte("args "))+5:])
		if !strings.HasPrefix(args, "--state-dir ") || !strings.HasSuffix(args, " hook claude") {
			t.Errorf("%d bytes: sayso ran with %q", size, args)
		}
		if !bytes.Equal(body, in) {
			t.Errorf("%d bytes: sayso read %d bytes, not the input", size, len(body))
		}
		inPlace := pid == cmd.Process.Pid
		if want := size < 64<<10; inPlace != want {
			t.Errorf("%d bytes: sayso ran in the forwarder's process: %v, want %v", size, inPlace, want)
		}
	}
}

// The forwarder starts on every step a client sends: the packages of this
// module it links set up nothing at start (the program registry is built
// when first asked, and the forwarder never asks). The runtime's own
// report of each package's start-up (GODEBUG=inittrace=1) says what they
// allocate; before the registry was built lazily, it was 286 KB in 1343
// allocations, 80 more pages touched than hello touches.
func TestStartsLight(t *testing.T) {
	fwd := filepath.Join(t.TempDir(), "sayso-hook")
	if out, err := exec.Command("go", "build", "-o", fwd, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(fwd) // no arguments: it blocks the step and exits
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput()
	const limit = 4 << 10
	seen, total := 0, 0
	for _, line := range strings.Split(string(out), "\n") {
		// init github.com/sayso-dev/sayso/internal/paths @0.5 ms, 0.01 ms clock, 48 bytes, 2 allocs
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/sayso-dev/sayso/") {
			continue
		}
		seen++
		var n int
		if _, err := fmt.Sscanf(f[7], "%d", &n); err != nil || f[8] != "bytes," {
			t.Fatalf("cannot read the start-up report %q", line)
		}
		total += n
		t.Logf("%s: %d bytes", f[1], n)
	}
	if seen == 0 && !bytes.Contains(out, []byte("blocked")) {
		t.Fatalf("the forwarder did not run: %s", out)
	}
	if total > limit {
		t.Errorf("this module's packages allocate %d bytes when the forwarder starts, more than %d:\n%s", total, limit, out)
	}
}
