package wall

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/testenv"
	"golang.org/x/sys/unix"
)

// TestWallApprovedReach: the person allows `npm run release` on its card
// (a push); the release script, the project's code, also plants a git on
// the person's PATH, appends to their shell's rc file and writes outside
// the project. The approved run reaches what was approved — the project,
// the temp folders, its caches through the wall's layer — and nothing
// else. Judged by the files themselves.
func TestWallApprovedReach(t *testing.T) {
	need(t)
	for name, parent := range places(t) {
		t.Run(name, func(t *testing.T) { testWallApprovedReach(t, newWorldIn(t, parent)) })
	}
}

func testWallApprovedReach(t *testing.T, w world) {
	bin := filepath.Join(w.home, ".local", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	release := `#!/bin/sh
echo v2 > dist.txt
printf '#!/bin/sh\necho planted\n' > ` + bin + `/git; chmod +x ` + bin + `/git
echo 'alias git=~/.local/bin/git' >> ` + w.home + `/.bashrc
echo planted > ` + w.outside + `/new
echo planted > ` + w.outside + `/keep
echo planted > ` + w.home + `/.planted
mkdir -p ` + w.home + `/.config/autostart 2>/dev/null; echo planted > ` + w.home + `/.config/planted
exit 0
`
	if err := os.WriteFile(filepath.Join(w.root, "release.sh"), []byte(release), 0o755); err != nil {
		t.Fatal(err)
	}
	rc, _ := os.ReadFile(filepath.Join(w.home, ".bashrc"))
	p := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Approved, Secrets: true})
	r := w.run(t, p, w.root, "./release.sh")
	if r.code != 0 {
		t.Fatalf("the approved step: %+v", r)
	}
	if b, err := os.ReadFile(filepath.Join(w.root, "dist.txt")); err != nil || string(b) != "v2\n" {
		t.Errorf("the approved step did not write its project: %q %v", b, err)
	}
	for _, planted := range []string{filepath.Join(bin, "git"), filepath.Join(w.outside, "new"), filepath.Join(w.home, ".planted"), filepath.Join(w.home, ".config", "planted")} {
		if _, err := os.Lstat(planted); err == nil {
			t.Errorf("the approved step planted %s", planted)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(w.outside, "keep")); string(b) != "outside" {
		t.Errorf("the approved step rewrote a file outside the project: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(w.home, ".bashrc")); string(b) != string(rc) || strings.Contains(string(b), "alias") {
		t.Errorf("the approved step changed ~/.bashrc: %q", b)
	}
}

// TestWallApprovedEveryday: what a person approves every day still
// works within that reach: removing the project's build folder, an
// install into the folder its card named (and nothing beside it), an
// edit by rename of a file its card named, a line added in place to a
// file of the home's its card named.
func TestWallApprovedEveryday(t *testing.T) {
	need(t)
	w := newWorld(t)
	gobin := filepath.Join(w.home, "go", "bin")
	bin := filepath.Join(w.home, ".local", "bin")
	notes := filepath.Join(w.home, "notes")
	for _, d := range []string{gobin, bin, notes, filepath.Join(w.root, "build", "obj")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(notes, "todo.txt"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	approved := func(writes ...string) Profile {
		return For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Approved, Secrets: true,
			Writes: writes, Unlock: writes})
	}
	steps := []struct {
		cmd    string
		writes []string
	}{
		{`rm -rf build/`, []string{filepath.Join(w.root, "build")}},
		{`printf tool > ` + gobin + `/tool && chmod +x ` + gobin + `/tool`, []string{gobin}},
		{`sed -i s/old/new/ ` + notes + `/todo.txt`, []string{filepath.Join(notes, "todo.txt")}},
		{`echo '[alias]' >> ~/.gitconfig`, []string{filepath.Join(w.home, ".gitconfig")}},
	}
	for _, s := range steps {
		if r := w.run(t, approved(s.writes...), w.root, s.cmd+` && { echo planted > `+bin+`/git; true; }`); r.code != 0 {
			t.Errorf("%s: %+v", s.cmd, r)
		}
	}
	if _, err := os.Stat(filepath.Join(w.root, "build")); err == nil {
		t.Error("rm -rf build/ left the build folder")
	}
	if b, _ := os.ReadFile(filepath.Join(gobin, "tool")); string(b) != "tool" {
		t.Errorf("the install did not land: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(notes, "todo.txt")); string(b) != "new\n" {
		t.Errorf("sed -i: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(w.home, ".gitconfig")); string(b) != "[user][alias]\n" {
		t.Errorf("~/.gitconfig: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(bin, "git")); err == nil {
		t.Error("an approved step planted ~/.local/bin/git beside what it was approved to write")
	}
}

// TestWallSameRace: a process an earlier step left running watches the
// approved script and, the moment the launcher has read it for its
// check, rewrites it in place with another body (and back, a moment
// later, for the next check). Every run must run what the person
// approved, or nothing: judged by a file only the other body makes.
func TestWallSameRace(t *testing.T) {
	need(t)
	w := newWorld(t)
	mark := filepath.Join(w.root, "other-ran")
	script := filepath.Join(w.root, "release.sh")
	good := []byte("#!/bin/sh\necho approved\n")
	other := []byte("#!/bin/sh\necho other > " + mark + "\n")
	if err := os.WriteFile(script, good, 0o755); err != nil {
		t.Fatal(err)
	}
	decided := Sum(script)
	in, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := unix.InotifyAddWatch(in, script, unix.IN_CLOSE_NOWRITE); err != nil {
		t.Fatal(err)
	}
	// The attacker holds busy from its reading an event to its putting
	// the approved body back; an event it has not read stays queued.
	var busy sync.Mutex
	swaps := 0
	go func() {
		buf := make([]byte, 4096)
		for {
			fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}}
			if n, err := unix.Poll(fds, 100); err == unix.EINTR || err == nil && n == 0 {
				continue
			} else if err != nil {
				return
			}
			busy.Lock()
			if _, err := unix.Read(in, buf); err != nil {
				busy.Unlock()
				return
			}
			swaps++
			os.WriteFile(script, other, 0o755) // in place: the same file
			// The attack: the other body stays while the step goes on to
			// run what it checked. A time, not a condition: the attacker
			// cannot see how far the launcher has got.
			time.Sleep(300 * time.Millisecond)
			os.WriteFile(script, good, 0o755)
			busy.Unlock()
		}
	}()
	t.Cleanup(func() { unix.Close(in) })
	// approvedAgain holds once the attacker has put the approved body back
	// and has no read of the script left to answer.
	approvedAgain := func() (bool, string) {
		if !busy.TryLock() {
			return false, "the attacker rewriting the script"
		}
		defer busy.Unlock()
		queued, err := unix.Poll([]unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}}, 0)
		return err == nil && queued == 0, fmt.Sprintf("a read of the script not answered yet (%d, %v)", queued, err)
	}
	p := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Approved, Secrets: true,
		Same: map[string]string{script: decided}})
	for i := 0; i < 5; i++ {
		testenv.Wait(t, "the script to be as approved again", approvedAgain)
		r := w.run(t, p, w.root, "./release.sh")
		if _, err := os.Stat(mark); err == nil {
			t.Fatalf("run %d ran what the person did not approve: %+v", i, r)
		}
		if !(r.code == 0 && strings.Contains(r.stdout, "approved")) && !strings.Contains(r.stderr, "changed after the step was decided") {
			t.Errorf("run %d neither ran what was approved nor said why not: %+v", i, r)
		}
	}
	testenv.Wait(t, "the attacker to answer the last run", approvedAgain)
	busy.Lock()
	defer busy.Unlock()
	if swaps == 0 {
		t.Fatal("the script was never rewritten: the test saw no race")
	}
}

// TestWallOtherAgents: the person has an ssh agent the client's
// environment does not name — started in another terminal, or forwarded
// into another login — at the place ssh-agent and sshd put it
// (/tmp/ssh-XXXXXXXXXX/agent.PID). Local work finds it by its place and
// asks it to sign: judged by the agent, which must be reached by no
// walled step.
func TestWallOtherAgents(t *testing.T) {
	need(t)
	w := newWorld(t)
	dir, err := os.MkdirTemp("/tmp", "ssh-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	agent := openDoor(t, "unix", filepath.Join(dir, "agent.4242"))
	step := `for s in /tmp/ssh-*/agent.*; do ` + helperEnv + `=1 ` + launcher(t) + ` dial "$s" 2>/dev/null && echo "reached $s"; done; true`
	for name, p := range map[string]Profile{"read": w.profile(Read), "local": w.profile(Local), "wide by a mode": w.profile(Approved)} {
		r := client(t, w.root, p.Wrap(step, launcher(t)), "", "HOME="+w.home, "SSH_AUTH_SOCK=")
		if strings.Contains(r.stdout, dir) {
			t.Errorf("%s: a walled step reached the person's other ssh agent: %+v", name, r)
		}
	}
	// The positive control: the same loop, run plain, reaches it. It
	// dials this test's agent only: another test's at the same time, in
	// the same /tmp, would count a connection of this loop's too.
	out, _ := exec.Command("sh", "-c", `for s in `+dir+`/agent.*; do `+helperEnv+`=1 `+launcher(t)+` dial "$s" 2>/dev/null && echo "reached $s"; done; true`).Output()
	if !strings.Contains(string(out), dir) {
		t.Fatalf("run plain, the loop did not reach the agent: the check sees nothing (%q)", out)
	}
	// The plain run and every walled step before it have ended: what
	// they connected, the agent has taken.
	agent.settle(t)
	if n := len(agent.received()); n == 0 {
		t.Fatal("the agent saw no connection at all")
	} else if n > 1 {
		t.Errorf("the agent was reached %d more times than the plain run", n-1)
	}
}
