// Command sayso-hook is the hook's fast path: it hands one hook JSON to
// sayso serve over its unix socket and prints the answer, linking nothing
// but the standard library and the state folder's location: no database
// driver, no policy, no parser. When no gateway answers, it becomes the
// full 'sayso hook AGENT' beside it (execve) with the same input, which
// decides against the store. Any failure of its own blocks the step: the
// reason on stderr and exit status 2, which every client reads as a block.
//
//	sayso-hook --state-dir DIR --config-dir DIR [hook] AGENT
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/sayso-dev/sayso/internal/client/hookenv"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/unixsock"
)

// request and reply are gateway.Request and gateway.Reply on the wire;
// main_test.go holds them to the gateway's own.
type request struct {
	Agent string            `json:"agent"`
	Input []byte            `json:"input"`
	Env   map[string]string `json:"env"`
	Home  string            `json:"home"`
}

type reply struct {
	Stdout []byte `json:"stdout"`
	Stderr string `json:"stderr,omitempty"`
	Exit   int    `json:"exit"`
}

// forwardEnv is gateway.ForwardEnv: the variables the adapters read.
var forwardEnv = hookenv.Names

const (
	maxInput = 16 << 20          // hook.MaxInput
	wait     = 600 * time.Second // client.DecideTimeout: the longest a client waits; the gateway answers before
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The folders come from the command line install wrote, never from
	// the environment, which a client's settings can set. Without them no
	// gateway is asked, and 'sayso hook' asks about every step.
	var dirs []string
	for len(args) >= 2 && (args[0] == "--state-dir" || args[0] == "--config-dir") {
		dirs, args = append(dirs, args[0], args[1]), args[2:]
	}
	if len(dirs) > 0 {
		if len(dirs) != 4 || dirs[0] == dirs[2] {
			return block(stderr, "--state-dir and --config-dir go together")
		}
		state, config := dirs[1], dirs[3]
		if dirs[0] == "--config-dir" {
			state, config = config, state
		}
		if err := paths.Fix(state, config); err != nil {
			return block(stderr, err.Error())
		}
	}
	if len(args) == 2 && args[0] == "hook" {
		args = args[1:] // as 'sayso install --fast' writes it: sayso-hook hook AGENT
	}
	if len(args) != 1 {
		return block(stderr, "usage: sayso-hook AGENT")
	}
	in, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
	if err != nil {
		return block(stderr, "cannot read stdin")
	}
	if !paths.Fixed() {
		return full(args[0], in, nil, stdout, stderr)
	}
	if r, err := ask(args[0], in); err == nil {
		stdout.Write(r.Stdout)
		if r.Stderr != "" {
			fmt.Fprintln(stderr, r.Stderr)
		}
		return r.Exit
	}
	return full(args[0], in, dirs, stdout, stderr)
}

// ask hands the input to sayso serve; an error means no gateway answered.
// It speaks to the socket through plain system calls: the net package's
// poller alone costs more at start-up than the whole round-trip.
func ask(agent string, in []byte) (reply, error) {
	if len(in) > maxInput {
		return reply{}, errors.New("input too large for the gateway")
	}
	state, err := paths.StateDir()
	if err != nil {
		return reply{}, err
	}
	home, _ := os.UserHomeDir()
	req := request{Agent: agent, Input: in, Env: map[string]string{}, Home: home}
	for _, k := range forwardEnv {
		if v, ok := os.LookupEnv(k); ok {
			req.Env[k] = v
		}
	}
	msg, err := json.Marshal(req)
	if err != nil {
		return reply{}, err
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return reply{}, err
	}
	conn := os.NewFile(uintptr(fd), "sayso.sock")
	defer conn.Close()
	tv := syscall.NsecToTimeval(int64(wait))
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return reply{}, err
	}
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv); err != nil {
		return reply{}, err
	}
	name, done, err := unixsock.Name(filepath.Join(state, "sayso.sock"))
	if err != nil {
		return reply{}, err
	}
	err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: name})
	done()
	if err != nil {
		return reply{}, err
	}
	if _, err := conn.Write(append(msg, '\n')); err != nil {
		return reply{}, err
	}
	var r reply
	if err := json.NewDecoder(conn).Decode(&r); err != nil {
		return reply{}, err
	}
	return r, nil
}

// full runs 'sayso hook AGENT', the sayso binary beside this one, on the
// same input. When this process's own stdout and stderr are the client's,
// it becomes sayso (become) rather than waiting on it as a child.
func full(agent string, in []byte, dirs []string, stdout, stderr io.Writer) int {
	self, err := os.Executable()
	if err != nil {
		return block(stderr, "cannot find sayso: "+err.Error())
	}
	sayso := filepath.Join(filepath.Dir(self), "sayso")
	args := append(dirs, "hook", agent)
	if stdout == os.Stdout && stderr == os.Stderr {
		become(sayso, args, in)
	}
	cmd := exec.Command(sayso, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), stdout, stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	}
	return block(stderr, "cannot run sayso hook: "+err.Error())
}

// become replaces this process with the program at path, run with args,
// its stdin a pipe that holds in: what it answers and its exit status go
// to the client straight, with no process left to wait on it. It returns
// only when it could not — in does not fit in the pipe, or the exec
// failed — and the caller then runs the program as a child with in, which
// does not read the stdin this changed.
func become(path string, args []string, in []byte) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return
	}
	r, w := p[0], p[1]
	defer syscall.Close(r)
	// Nobody reads the pipe before the exec: a write that would wait
	// means in does not fit.
	fits := syscall.SetNonblock(w, true) == nil && writeAll(w, in)
	syscall.Close(w)
	if !fits || r == 0 || syscall.Dup3(r, 0, 0) != nil {
		return
	}
	syscall.Exec(path, append([]string{path}, args...), os.Environ())
}

func writeAll(fd int, b []byte) bool {
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		if err != nil || n <= 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

func block(stderr io.Writer, reason string) int {
	fmt.Fprintf(stderr, "sayso-hook: %s; the step is blocked\n", reason)
	return 2
}
