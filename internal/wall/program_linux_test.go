package wall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWallProgram: a session's step that is one program with plain words
// runs as that program, started by the wall's starter — no second bash —
// and the client sees what it would see plainly: the same output, error
// output, exit status and folder, the same SHLVL and _. A command bash
// must read, a builtin, a program not found or not executable, or an
// environment bash reads at its start goes through bash.
func TestWallProgram(t *testing.T) {
	need(t)
	w := newWorld(t)
	sock := filepath.Join(w.state, "walls", "program.sock")
	t.Cleanup(func() { EndSession(sock) })
	p := w.profile(Local)
	p.Session = sock
	bin := launcher(t)
	must(t, os.WriteFile(filepath.Join(w.root, "run.sh"), []byte("#!/bin/sh\necho ran \"$@\"\nexit 3\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.root, "plain.sh"), []byte("#!/bin/sh\necho no\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(w.root, "sub"), 0o755))
	env := []string{programTestEnv + "=1"}

	// Started by the starter, with what bash would have set.
	walled := client(t, w.root, p.Wrap(bin+" parent", bin), "", env...)
	plain := client(t, w.root, bin+" parent", "", env...)
	wl, pl := strings.Split(walled.stdout, "\n"), strings.Split(plain.stdout, "\n")
	if walled.code != 0 || len(wl) < 3 || len(pl) < 3 {
		t.Fatalf("walled %+v, plain %+v", walled, plain)
	}
	if wl[0] == "bash" {
		t.Errorf("the program's parent is bash, want the starter")
	}
	if wl[1] != pl[1] || wl[2] != pl[2] {
		t.Errorf("SHLVL and _: walled %q, plain %q", wl[1:3], pl[1:3])
	}

	// A step with a function in its environment goes through bash.
	fn := client(t, w.root, p.Wrap(bin+" parent", bin), "", append(env, "BASH_FUNC_f%%=() { echo f; }")...)
	if first, _, _ := strings.Cut(fn.stdout, "\n"); first != "bash" {
		t.Errorf("with a function in the environment, the program's parent is %q, want bash", first)
	}

	for _, cmd := range []string{
		"ls -a sub", "ls /nonexistent-sayso", "./run.sh a b", "./plain.sh", "no-such-program-sayso x",
		"true", "false", "pwd", "cd sub", "ls sub > out.txt", "echo $HOME", "ls -a 'sub'",
	} {
		walled := client(t, w.root, p.Wrap(cmd, bin), "")
		os.Remove(filepath.Join(w.root, "out.txt"))
		plain := client(t, w.root, cmd, "")
		os.Remove(filepath.Join(w.root, "out.txt"))
		if walled.code != plain.code || walled.stdout != plain.stdout || walled.cwd != plain.cwd {
			t.Errorf("%q: walled %+v, plain %+v", cmd, walled, plain)
		}
		if (walled.stderr == "") != (plain.stderr == "") {
			t.Errorf("%q: error output walled %q, plain %q", cmd, walled.stderr, plain.stderr)
		}
	}
}

// TestWallProgramTildePath: bash reads a PATH folder that begins with a
// tilde as the home's (`PATH="~/bin:$PATH"`, written in quotes in a
// shell's startup file, works in bash), never as a folder of the step's
// own folder named `~`. A step the agent may write in plants `~/bin/ls`
// there; `ls` then runs what bash runs, not the planted program.
func TestWallProgramTildePath(t *testing.T) {
	need(t)
	w := newWorld(t)
	sock := filepath.Join(w.state, "walls", "tilde.sock")
	t.Cleanup(func() { EndSession(sock) })
	p := w.profile(Local)
	p.Session = sock
	bin := launcher(t)
	must(t, os.MkdirAll(filepath.Join(w.root, "~", "bin"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.root, "~", "bin", "ls"), []byte("#!/bin/sh\necho planted\n"), 0o755))
	must(t, os.MkdirAll(filepath.Join(w.root, "sub"), 0o755))
	env := []string{"PATH=~/bin:" + os.Getenv("PATH")}
	walled := client(t, w.root, p.Wrap("ls -a sub", bin), "", env...)
	plain := client(t, w.root, "ls -a sub", "", env...)
	if strings.Contains(plain.stdout, "planted") {
		t.Fatalf("plain bash ran the planted program: %+v", plain)
	}
	if walled.code != plain.code || walled.stdout != plain.stdout {
		t.Errorf("walled %+v, plain %+v", walled, plain)
	}
}
