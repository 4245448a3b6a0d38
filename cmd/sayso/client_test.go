package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// fakeClient plays an agent's client in the scripts: one process that
// runs its hooks, 'sayso --state-dir DIR --config-dir DIR hook AGENT' as
// install writes it, with each file's JSON on a pipe, the way Claude Code
// and Codex do. --walled first sets no_new_privs on the
// client, as every walled step has it; --nested runs the client as a
// child of another, as a step that started a client of its own.
//
//	claude|codex [--nested] [--walled] FILE...
func fakeClient(agent string) int {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--nested" {
		// a client started by a step of another client: the same
		// client, run as a child of this one
		cmd := exec.Command(agent, args[1:]...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: nested: %v\n", agent, err)
			return 1
		}
		return 0
	}
	if len(args) > 0 && args[0] == "--walled" {
		const prSetNoNewPrivs = 38
		if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); errno != 0 {
			fmt.Fprintf(os.Stderr, "%s: no_new_privs: %v\n", agent, errno)
			return 1
		}
		args = args[1:]
	}
	for _, f := range args {
		in, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", agent, err)
			return 1
		}
		cmd := exec.Command("sayso", "--state-dir", os.Getenv("SAYSO_STATE_DIR"), "--config-dir", os.Getenv("SAYSO_CONFIG_DIR"), "hook", agent)
		cmd.Stdin = strings.NewReader(string(in))
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: hook: %v\n", agent, err)
		}
	}
	return 0
}
