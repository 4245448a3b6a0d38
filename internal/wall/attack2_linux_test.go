package wall

// Attacks on the wall's sessions and starters, made as the agent would
// make them: from a walled step, as the person's own user, with only
// what the step's decision gave it. Each is judged by what happened in
// the world: a file that must not appear, a socket that must not be
// reached.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// attack2Env makes the test binary a small tool run inside a wall (see
// attack2Tool): the calls on another process a walled step may make.
const attack2Env = "SAYSO_WALL_TEST_ATTACK2"

func init() {
	if os.Getenv(attack2Env) == "1" {
		os.Exit(attack2Tool(os.Args[1:]))
	}
}

// attack2Tool runs one attack on the process PID and exits 0 when it got
// through:
//
//	ptrace PID        attach to it as a debugger would
//	getfd PID FD TEXT take its descriptor FD (pidfd_getfd) and write TEXT to it
func attack2Tool(args []string) int {
	if len(args) < 2 {
		return 2
	}
	pid, err := strconv.Atoi(args[1])
	if err != nil {
		return 2
	}
	switch {
	case args[0] == "ptrace" && len(args) == 2:
		if err := unix.PtraceSeize(pid); err != nil {
			fmt.Println("ptrace:", err)
			return 1
		}
		fmt.Println("attached")
		return 0
	case args[0] == "getfd" && len(args) == 4:
		fd, err := strconv.Atoi(args[2])
		if err != nil {
			return 2
		}
		pfd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			fmt.Println("pidfd_open:", err)
			return 1
		}
		got, err := unix.PidfdGetfd(pfd, fd, 0)
		if err != nil {
			fmt.Println("pidfd_getfd:", err)
			return 1
		}
		if _, err := unix.Write(got, []byte(args[3])); err != nil {
			fmt.Println("write:", err)
			return 1
		}
		fmt.Println("wrote through the taken descriptor")
		return 0
	}
	return 2
}

// sessionTemp is a temp folder of the person's for the sessions a test
// starts (their holders make their own folders in $TMPDIR): under /tmp,
// which every walled step writes, as /tmp itself would be.
func sessionTemp(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("/tmp", "sayso-attack-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeTree(d) })
	d, _ = filepath.EvalSymlinks(d)
	return d
}

// TestAttackOtherSessionCaches: the person runs two sessions, in two
// projects. A local step of one writes into the layer the other
// session's wall keeps over the shared caches (the holder makes it in
// the temp folder, which every walled step writes), and the other
// session's next step reads what it planted as its own cache: judged by
// what that step reads.
func TestAttackOtherSessionCaches(t *testing.T) {
	need(t)
	w := newWorld(t)
	tmp := sessionTemp(t)
	env := []string{"HOME=" + w.home, "TMPDIR=" + tmp}
	root2 := filepath.Join(w.home, "proj2")
	must(t, os.MkdirAll(root2, 0o755))
	sockA := filepath.Join(w.state, "walls", "a.sock")
	sockB := filepath.Join(w.state, "walls", "b.sock")
	t.Cleanup(func() { EndSession(sockA); EndSession(sockB) })
	a := w.profile(Local)
	a.Session = sockA
	b := For(Inputs{Home: w.home, Root: root2, Hidden: []string{w.state, w.bin}, Scope: Local})
	b.Session = sockB
	run := func(p Profile, dir, cmd string) result {
		t.Helper()
		return client(t, dir, p.Wrap(cmd, launcher(t)), "", env...)
	}
	cache := filepath.Join(w.home, ".cache")
	if r := run(b, root2, "ls "+quote(cache)+" >/dev/null && echo up"); !strings.Contains(r.stdout, "up") {
		t.Fatalf("session b's first step: %+v", r)
	}
	// The step also moves the folder of the walls' folders out of the
	// way, to reach what lies under it by another name.
	plant := `mv "$TMPDIR"/sayso-walls-* "$TMPDIR/moved"; for d in "$TMPDIR"/sayso-wall-caches-*/*/upper "$TMPDIR"/sayso-walls-*/*/caches/*/upper "$TMPDIR"/moved/*/caches/*/upper; do echo planted-by-a > "$d/planted" && echo "planted $d"; done; true`
	r := run(a, w.root, plant)
	t.Logf("session a: %+v", r)
	if r := run(b, root2, "cat "+quote(filepath.Join(cache, "planted"))); strings.Contains(r.stdout, "planted-by-a") {
		t.Errorf("session b read as its cache what a step of session a planted: %+v", r)
	}
	// A read step of session b itself writes no cache: nor its session's
	// layers.
	read := For(Inputs{Home: w.home, Root: root2, Hidden: []string{w.state, w.bin}, Scope: Read})
	read.Session = sockB
	// (A name the session's steps have not looked up yet: the layer's
	// file system keeps what it found missing.)
	r = run(read, root2, strings.NewReplacer("planted-by-a", "planted-by-read", "/planted", "/read-planted").Replace(plant))
	t.Logf("session b's read step: %+v", r)
	if r := run(b, root2, "cat "+quote(filepath.Join(cache, "read-planted"))); strings.Contains(r.stdout, "planted-by-read") {
		t.Errorf("a local step of session b read as its cache what a read step planted: %+v", r)
	}
	// The positive control: session b's local steps share their layer.
	if r := run(b, root2, "echo own > "+quote(filepath.Join(cache, "own"))+" && cat "+quote(filepath.Join(cache, "own"))); !strings.Contains(r.stdout, "own") {
		t.Errorf("session b's local step did not write its cache: %+v", r)
	}
	if r := run(b, root2, "cat "+quote(filepath.Join(cache, "own"))); !strings.Contains(r.stdout, "own") {
		t.Errorf("session b's next local step did not read its session's cache: %+v", r)
	}
}

// TestAttackOtherSessionTmux: a step of one session starts a terminal
// multiplexer's server, which runs in its session's wall with its
// project's reach. A local step of another session, in another project,
// finds the server's socket in the temp folder and has it run a command:
// judged by a file in the first project, which the second session may
// not write.
func TestAttackOtherSessionTmux(t *testing.T) {
	need(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		testenv.Missing(t, "tmux is not installed: %v", err)
	}
	w := newWorld(t)
	tmp := sessionTemp(t)
	env := []string{"HOME=" + w.home, "TMPDIR=" + tmp}
	root2 := filepath.Join(w.home, "proj2")
	must(t, os.MkdirAll(root2, 0o755))
	sockA := filepath.Join(w.state, "walls", "a.sock")
	sockB := filepath.Join(w.state, "walls", "b.sock")
	t.Cleanup(func() { EndSession(sockA); EndSession(sockB) })
	a := w.profile(Local)
	a.Session = sockA
	b := For(Inputs{Home: w.home, Root: root2, Hidden: []string{w.state, w.bin}, Scope: Local})
	b.Session = sockB
	run := func(p Profile, dir, cmd string) result {
		t.Helper()
		return client(t, dir, p.Wrap(cmd, launcher(t)), "", env...)
	}
	if r := run(b, root2, "tmux new-session -d -s work 'sleep 300' && echo up"); !strings.Contains(r.stdout, "up") {
		t.Fatalf("session b's tmux: %+v", r)
	}
	mark := filepath.Join(root2, "written-by-a")
	send := `for s in "$TMPDIR"/sayso-wall-tmux-*/tmux-*/default "$TMPDIR"/sayso-walls-*/*/tmux/tmux-*/default; do tmux -S "$s" run-shell 'echo a > ` + mark + `' && echo "sent $s"; done; true`
	// tmux run-shell returns once the command it had run has ended: a
	// step that reached the server has had it write before it ends.
	r := run(a, w.root, send)
	t.Logf("session a: %+v", r)
	if _, err := os.Lstat(mark); err == nil {
		t.Errorf("a step of session a had session b's tmux write session b's project: %+v", r)
	}
	// The positive control: session b's own step reaches its server.
	if r := run(b, root2, "tmux run-shell 'echo own' && echo sent"); !strings.Contains(r.stdout, "sent") {
		t.Errorf("session b's own step did not reach its tmux: %+v", r)
	}
}

// TestAttackStarterOtherAgent: the person starts an ssh agent in another
// terminal after a session's first step, at the place ssh-agent puts it
// ($TMPDIR/ssh-XXXXXXXXXX/agent.PID), which the client's SSH_AUTH_SOCK
// does not name. A step's own wall hides it; the session's next step,
// started from the starter set up before the agent was there, must not
// reach it either: judged by the agent, which must see no connection.
func TestAttackStarterOtherAgent(t *testing.T) {
	need(t)
	w := newWorld(t)
	tmp := sessionTemp(t)
	env := []string{"HOME=" + w.home, "TMPDIR=" + tmp, "SSH_AUTH_SOCK="}
	sock := filepath.Join(w.state, "walls", "agent.sock")
	t.Cleanup(func() { EndSession(sock) })
	p := w.profile(Local)
	p.Session = sock
	run := func(cmd string) result {
		t.Helper()
		return client(t, w.root, p.Wrap(cmd, launcher(t)), "", env...)
	}
	if r := run("echo up"); !strings.Contains(r.stdout, "up") {
		t.Fatalf("the session's first step: %+v", r)
	}
	dir, err := os.MkdirTemp(tmp, "ssh-")
	must(t, err)
	must(t, os.Chmod(dir, 0o700))
	agent := openDoor(t, "unix", filepath.Join(dir, "agent.4242"))
	step := `for s in "$TMPDIR"/ssh-*/agent.*; do ` + helperEnv + `=1 ` + quote(launcher(t)) + ` dial "$s" && echo "reached $s"; done; true`
	r := run(step)
	if strings.Contains(r.stdout, "reached") {
		t.Errorf("a later step of the session reached the person's new ssh agent: %+v", r)
	}
	if len(reached(t, agent)) > 0 {
		t.Error("the agent was reached")
	}
	// The positive control: the same loop, run plain, reaches it.
	plain := exec.Command("bash", "-c", step)
	plain.Env = append(os.Environ(), "TMPDIR="+tmp)
	out, _ := plain.CombinedOutput()
	if !strings.Contains(string(out), "reached") {
		t.Fatalf("run plain, the loop did not reach the agent: the check sees nothing (%q)", out)
	}
}

// TestAttackSessionOtherProfile: a step that may write the project's git
// configuration (git remote add, as the engine read it) leaves a process
// running in its folder with the configuration open for writing. A
// later local step of the same session, which may not write it, goes
// after that process to write it anyway: through its descriptors, its
// folder and its root in /proc, by taking its descriptor (pidfd_getfd),
// by tracing it, or by stopping it. Judged by the configuration, which
// must not change, and by the process, which must live on.
func TestAttackSessionOtherProfile(t *testing.T) {
	need(t)
	w := newWorld(t)
	sock := filepath.Join(w.state, "walls", "profiles.sock")
	t.Cleanup(func() { EndSession(sock) })
	config := filepath.Join(w.root, ".git", "config")
	git := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Local, GitConfig: true})
	git.Session = sock
	local := w.profile(Local)
	local.Session = sock
	victim := "sayso-victim-" + filepath.Base(w.base)
	leave := `(cd .git && exec 7>>config && exec -a ` + victim + ` sleep 300) >/dev/null 2>&1 & ` +
		until(`[ "$(tr '\0' ' ' < /proc/$!/cmdline 2>/dev/null)" = "`+victim+` 300 " ]`) + `; echo left`
	if r := w.run(t, git, w.root, leave); !strings.Contains(r.stdout, "left") {
		t.Fatalf("leave the process: %+v", r)
	}
	// The process by its name alone (argv is that name and 300): the
	// step's own shell names it too, in its command.
	find := `pid=; for p in /proc/[0-9]*; do [ "$(tr '\0' ' ' < $p/cmdline 2>/dev/null)" = "sayso-victim-` + filepath.Base(w.base) + ` 300 " ] && pid=${p#/proc/}; done; [ -n "$pid" ] || { echo no victim; exit 3; }; `
	tool := attack2Env + "=1 " + quote(launcher(t))
	for _, cmd := range []string{
		`echo fd >> /proc/$pid/fd/7`,
		`echo cwd >> /proc/$pid/cwd/config`,
		`echo root >> /proc/$pid/root` + config,
		tool + ` getfd $pid 7 getfd`,
		tool + ` ptrace $pid`,
		`kill -STOP $pid`,
		`kill -KILL $pid`,
	} {
		r := w.run(t, local, w.root, find+cmd)
		if r.code == 3 {
			t.Fatalf("the local step did not see the process: %+v", r)
		}
		if r.code == 0 {
			t.Errorf("%q from a local step of the session succeeded: %+v", cmd, r)
		}
	}
	wantContent(t, config, "[core]")
	// The process lives on, as it was: a step of its own profile writes
	// through its descriptor and ends it (the positive control).
	if r := w.run(t, git, w.root, find+`grep -q '^State:.*[RS]' /proc/$pid/status && echo own >> /proc/$pid/fd/7 && kill $pid && echo ended`); !strings.Contains(r.stdout, "ended") {
		t.Errorf("the process did not live on as it was: %+v", r)
	}
	wantContent(t, config, "[core]own\n")
}

// TestAttackEgressOwnAddress: the trusted hosts hold the machine's own
// address (a remote the agent added names it): the egress proxy must
// not lead there, where every service listening on all of the machine's
// addresses answers, as it does not lead to the loopback. No connection
// is made: the proxy's dialer only records where it was sent.
func TestAttackEgressOwnAddress(t *testing.T) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	var own []string
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() {
			own = append(own, n.IP.String())
		}
	}
	if len(own) == 0 {
		testenv.Missing(t, "the machine has no address but its loopback")
	}
	var mu sync.Mutex
	var dialed []string
	e := &Egress{Hosts: own, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		dialed = append(dialed, addr)
		mu.Unlock()
		return nil, errors.New("the test's dialer reaches nothing")
	}}
	pl, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pl.Close() })
	go e.Serve(pl)
	for _, ip := range own {
		h := ip
		if strings.Contains(ip, ":") {
			h = "[" + ip + "]"
		}
		for _, req := range []string{"CONNECT " + h + ":2024 HTTP/1.1\r\nHost: " + h + ":2024\r\n\r\n", "GET http://" + h + ":2024/ HTTP/1.1\r\nHost: " + h + ":2024\r\n\r\n"} {
			c, err := net.Dial("tcp4", pl.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			c.SetDeadline(time.Now().Add(testenv.Hang))
			c.Write([]byte(req))
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.Contains(line, " 200 ") {
				t.Errorf("%q: %s", strings.SplitN(req, "\r\n", 2)[0], line)
			}
		}
	}
	got := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(dialed)
	}
	if d := got(); len(d) > 0 {
		t.Errorf("the proxy set out for the machine's own addresses: %v", d)
	}
	// The positive control: an address that is not the machine's is
	// handed to the dialer (which records it, and reaches nothing).
	e.Hosts = append(e.Hosts, "198.51.100.7")
	c, err := net.Dial("tcp4", pl.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(testenv.Hang))
	c.Write([]byte("CONNECT 198.51.100.7:2024 HTTP/1.1\r\nHost: 198.51.100.7:2024\r\n\r\n"))
	bufio.NewReader(c).ReadString('\n')
	c.Close()
	if d := got(); !slices.Contains(d, "198.51.100.7:2024") {
		t.Errorf("the proxy did not set out for another address: %v", d)
	}
}

// TestAttackEgressLoopbackSpellings: a session's steps may reach hosts
// that spell the machine's loopback in ways the policy's filter does not
// read as an address (the machine's own name, 127.1, 2130706433,
// 0x7f.1, 127.000.000.001, 0): from inside a session's wall, through the
// step's proxy, each is tried against a service on the machine's
// loopback (another session's forwarded dev server, sayso's gateway).
// Judged by the service, which must receive nothing.
func TestAttackEgressLoopbackSpellings(t *testing.T) {
	need(t)
	w := newWorld(t)
	s := newSink(t)
	name, err := os.Hostname()
	must(t, err)
	spellings := []string{name, "127.1", "2130706433", "0x7f.1", "0x7f000001", "127.000.000.001", "0", "localhost.localdomain", "ip6-localhost"}
	sock := filepath.Join(w.state, "walls", "spell.sock")
	t.Cleanup(func() { EndSession(sock) })
	p := w.profile(Local)
	p.Session = sock
	p.Hosts = spellings
	port := strconv.Itoa(s.port)
	var step strings.Builder
	step.WriteString(`pp=${HTTPS_PROXY##*:}; `)
	for _, h := range spellings {
		for _, req := range []string{"CONNECT " + h + ":" + port + " HTTP/1.1\\r\\nHost: " + h + ":" + port + "\\r\\n\\r\\nproxied-secret\\n",
			"GET http://" + h + ":" + port + "/ HTTP/1.1\\r\\nHost: " + h + ":" + port + "\\r\\n\\r\\n"} {
			step.WriteString(`exec 4<>/dev/tcp/127.0.0.1/$pp && printf '` + req + `' >&4 && head -c 12 <&4; echo; exec 4<&-; `)
		}
	}
	step.WriteString("true")
	r := w.run(t, p, w.root, step.String())
	if strings.Count(r.stdout, "HTTP/1.1 ") < len(spellings) {
		t.Fatalf("the proxy did not answer the step: %+v", r)
	}
	// The proxy answered every request before the step ended: what it
	// connected to the service, the service has taken.
	if s.settle(t); len(s.received()) > 0 {
		t.Errorf("the machine's loopback service received %q from a walled step: %+v", s.received(), r)
	}
}

// TestAttackStarterDescriptors: a session's step, started by its
// starter, holds no descriptor of the starter's, the keeper's or an
// earlier step's: no socket at all (a control socket would let it ask
// for steps of any profile; a listener, another step's egress), and a
// program it starts holds its stdin, stdout and stderr alone. Judged by
// what the step's shell and the program hold.
func TestAttackStarterDescriptors(t *testing.T) {
	need(t)
	w := newWorld(t)
	sock := filepath.Join(w.state, "walls", "fds.sock")
	t.Cleanup(func() { EndSession(sock) })
	for _, s := range []Scope{Read, Local, Local} {
		p := w.profile(s)
		p.Session = sock
		r := w.run(t, p, w.root, `ls -l /proc/$$/fd | sed -n 's/.* \([0-9]*\) -> /shell \1 /p'; sh -c 'ls -l /proc/$$/fd' | sed -n 's/.* \([0-9]*\) -> /program \1 /p'`)
		if r.code != 0 || !strings.Contains(r.stdout, "program 2 ") {
			t.Fatalf("%v: list the descriptors: %+v", s, r)
		}
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			f := strings.Fields(l)
			if len(f) < 3 {
				continue // a descriptor gone before it was read
			}
			if n, _ := strconv.Atoi(f[1]); strings.HasPrefix(f[2], "socket:") || f[0] == "program" && n > 2 {
				t.Errorf("%v: a step's %s holds descriptor %s (%s)", s, f[0], f[1], f[2])
			}
		}
	}
}

// TestAttackHostNetworkOutlives: a step on the machine's network (granted
// a credential: its programs need the machine's network and the person's
// keys) leaves a process running. What it leaves must end with the step,
// as a step in a wall of its own does: judged by a file the process
// would write after the step ended.
func TestAttackHostNetworkOutlives(t *testing.T) {
	need(t)
	w := newWorld(t)
	mark := filepath.Join(w.root, "late")
	p := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Local, Secrets: true, HostNetwork: true})
	r := w.run(t, p, w.root, `(setsid sh -c 'sleep 1; echo late > `+mark+`' &) >/dev/null 2>&1; echo started`)
	if r.code != 0 || !strings.Contains(r.stdout, "started") {
		t.Fatalf("step: %+v", r)
	}
	// Left running, the process writes a second after it started, then
	// ends: once no process names the mark, it wrote or never will.
	waitGone(t, "the process the step left running to end", mark)
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("a process a step on the machine's network left running wrote after the step ended")
	}
}

// TestAttackEditorSockets: the client runs in an editor's terminal (VS
// Code's, or beside a Neovim whose server runs what --remote-send
// sends), whose environment names the editor's sockets: git's askpass
// (VSCODE_GIT_IPC_HANDLE: asked for a password, the editor answers with
// the token the person signed in with) and its command line's
// (VSCODE_IPC_HOOK_CLI: it opens windows and installs extensions, which
// run outside any wall). They lie in the runtime folder, or the temp
// folder without one; other windows' lie beside them. A step that holds
// no secret must reach none, in a wall of its own or in a session's:
// judged by the sockets, which must see no connection.
func TestAttackEditorSockets(t *testing.T) {
	need(t)
	w := newWorld(t)
	tmp := sessionTemp(t)
	run := filepath.Join(tmp, "run")
	must(t, os.Mkdir(run, 0o700))
	gitSock := filepath.Join(run, "vscode-git-1a2b3c.sock")
	cliSock := filepath.Join(run, "vscode-ipc-4d5e6f.sock")
	other := filepath.Join(run, "vscode-git-other.sock")
	inTemp := filepath.Join(tmp, "vscode-ipc-7a8b9c.sock")
	nvim := filepath.Join(run, "nvim.4242.0")
	nvimTemp := filepath.Join(tmp, "nvim.person", "a1b2c3", "nvim.4243.0")
	must(t, os.MkdirAll(filepath.Dir(nvimTemp), 0o700))
	var doors []*door
	for _, s := range []string{gitSock, cliSock, other, inTemp, nvim, nvimTemp} {
		doors = append(doors, openDoor(t, "unix", s))
	}
	env := []string{"HOME=" + w.home, "TMPDIR=" + tmp, "XDG_RUNTIME_DIR=" + run, "SSH_AUTH_SOCK=",
		"VSCODE_GIT_IPC_HANDLE=" + gitSock, "VSCODE_IPC_HOOK_CLI=" + cliSock}
	step := `for s in "$VSCODE_GIT_IPC_HANDLE" "$VSCODE_IPC_HOOK_CLI" "$XDG_RUNTIME_DIR"/vscode-*.sock "$TMPDIR"/vscode-*.sock "$XDG_RUNTIME_DIR"/nvim.* "$TMPDIR"/nvim.*/*/nvim.*; do ` +
		helperEnv + `=1 ` + quote(launcher(t)) + ` dial "$s" 2>/dev/null && echo "reached $s"; done; true`
	sock := filepath.Join(w.state, "walls", "editor.sock")
	t.Cleanup(func() { EndSession(sock) })
	session := w.profile(Local)
	session.Session = sock
	for name, p := range map[string]Profile{"read": w.profile(Read), "local": w.profile(Local), "session": session} {
		for i := 0; i < 2; i++ { // a session's second step comes from its starter
			r := client(t, w.root, p.Wrap(step, launcher(t)), "", env...)
			if r.code != 0 || strings.Contains(r.stdout, "reached") {
				t.Errorf("%s: a walled step reached the editor: %+v", name, r)
			}
		}
	}
	for _, s := range reached(t, doors...) {
		t.Errorf("%s was reached from a wall", s)
	}
	// The positive control: the same loop, run plain, reaches them all.
	plain := exec.Command("bash", "-c", step)
	plain.Env = append(os.Environ(), env...)
	out, _ := plain.CombinedOutput()
	if n := strings.Count(string(out), "reached"); n < 7 {
		t.Fatalf("run plain, the loop reached %d sockets, want 7 (%q)", n, out)
	}
}

// TestAttackTerminalServers: the person's terminal multiplexers and
// editors that run what their socket is sent, outside any wall: zellij
// (/tmp/zellij-UID: `zellij action write-chars` types into the person's
// panes) and Emacs's server (/tmp/emacsUID/server: `emacsclient --eval`).
// A walled step finds them by their place; judged by the sockets, which
// must see no connection from a wall (tmux's and screen's are hidden
// already).
func TestAttackTerminalServers(t *testing.T) {
	need(t)
	w := newWorld(t)
	uid := strconv.Itoa(os.Getuid())
	var socks []string
	var doors []*door
	for _, d := range []string{"/tmp/zellij-" + uid + "/0.40.0", "/tmp/emacs" + uid} {
		top := d
		if i := strings.Index(d[len("/tmp/"):], "/"); i >= 0 {
			top = d[:len("/tmp/")+i]
		}
		if _, err := os.Lstat(top); err != nil {
			must(t, os.MkdirAll(d, 0o700))
			t.Cleanup(func() { os.RemoveAll(top) })
		}
		s := filepath.Join(d, "sayso-attack-"+filepath.Base(w.base))
		doors = append(doors, openDoor(t, "unix", s))
		socks = append(socks, s)
	}
	var step strings.Builder
	for _, s := range socks {
		step.WriteString(helperEnv + `=1 ` + quote(launcher(t)) + ` dial ` + quote(s) + ` 2>/dev/null && echo "reached ` + s + `"; `)
	}
	step.WriteString("true")
	for _, s := range []Scope{Read, Local, Approved} {
		if r := w.run(t, w.profile(s), w.root, step.String()); r.code != 0 || strings.Contains(r.stdout, "reached") {
			t.Errorf("%v: a walled step reached a terminal server: %+v", s, r)
		}
	}
	for _, s := range reached(t, doors...) {
		t.Errorf("%s was reached from a wall", s)
	}
	out, _ := exec.Command("bash", "-c", step.String()).CombinedOutput()
	if n := strings.Count(string(out), "reached"); n != len(socks) {
		t.Fatalf("run plain, the step reached %d of %d sockets: the check sees nothing (%q)", n, len(socks), out)
	}
}

// TestAttackCredentialsUnderCaches: credentials the wall hides that lie
// in a shared cache the wall lays its own layer over (~/.cache): a
// token file (~/.cache/huggingface/token) and git's credential-cache
// daemon's socket (~/.cache/git/credential/socket: asked, it answers with
// the password it keeps). Judged by what the step reads and by the
// socket, which must see no connection.
func TestAttackCredentialsUnderCaches(t *testing.T) {
	need(t)
	w := newWorld(t)
	token := filepath.Join(w.home, ".cache", "huggingface", "token")
	must(t, os.MkdirAll(filepath.Dir(token), 0o700))
	must(t, os.WriteFile(token, []byte("hf-secret-token\n"), 0o600))
	sockPath := filepath.Join(w.home, ".cache", "git", "credential", "socket")
	must(t, os.MkdirAll(filepath.Dir(sockPath), 0o700))
	cache := openDoor(t, "unix", sockPath)
	step := `cat ` + quote(token) + `; ` + helperEnv + `=1 ` + quote(launcher(t)) + ` dial ` + quote(sockPath) + ` && echo reached-socket; true`
	sess := filepath.Join(w.state, "walls", "creds.sock")
	t.Cleanup(func() { EndSession(sess) })
	session := w.profile(Local)
	session.Session = sess
	for name, p := range map[string]Profile{"read": w.profile(Read), "local": w.profile(Local), "session": session} {
		r := w.run(t, p, w.root, step)
		if strings.Contains(r.stdout, "hf-secret-token") {
			t.Errorf("%s: a walled step read the token under the cache: %+v", name, r)
		}
		if strings.Contains(r.stdout, "reached-socket") {
			t.Errorf("%s: a walled step reached git's credential cache: %+v", name, r)
		}
	}
	if len(reached(t, cache)) > 0 {
		t.Error("git's credential cache was reached from a wall")
	}
	plain := exec.Command("bash", "-c", step)
	out, _ := plain.CombinedOutput()
	if !strings.Contains(string(out), "hf-secret-token") || !strings.Contains(string(out), "reached-socket") {
		t.Fatalf("run plain, the step read nothing: the check sees nothing (%q)", out)
	}
}

// TestAttackControlMaster: a socket of ssh's shared connections that the
// person's ssh configuration keeps outside ~/.ssh (ControlPath in /tmp)
// is logged in already: a walled step that reaches it runs commands on
// the remote as the person. No walled step reaches one.
func TestAttackControlMaster(t *testing.T) {
	need(t)
	w := newWorld(t)
	tmp := sessionTemp(t)
	must(t, os.MkdirAll(filepath.Join(w.home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(w.home, ".ssh", "config"),
		[]byte("Host *\n\tControlMaster auto\n\tControlPath "+tmp+"/cm-%r@%h:%p\n"), 0o600))
	master := openDoor(t, "unix", filepath.Join(tmp, "cm-git@github.com:22"))
	env := []string{"HOME=" + w.home, "TMPDIR=" + tmp, "SSH_AUTH_SOCK="}
	step := `for s in "$TMPDIR"/cm-*; do ` + helperEnv + `=1 ` + quote(launcher(t)) + ` dial "$s" 2>/dev/null && echo "reached $s"; done; true`
	sock := filepath.Join(w.state, "walls", "control.sock")
	t.Cleanup(func() { EndSession(sock) })
	session := w.profile(Local)
	session.Session = sock
	for name, p := range map[string]Profile{"read": w.profile(Read), "local": w.profile(Local), "session": session} {
		if r := client(t, w.root, p.Wrap(step, launcher(t)), "", env...); r.code != 0 || strings.Contains(r.stdout, "reached") {
			t.Errorf("%s: a walled step reached ssh's master connection: %+v", name, r)
		}
	}
	if len(reached(t, master)) > 0 {
		t.Error("ssh's master connection was reached from a wall")
	}
	plain := exec.Command("bash", "-c", step)
	plain.Env = append(os.Environ(), env...)
	if out, _ := plain.CombinedOutput(); !strings.Contains(string(out), "reached") {
		t.Fatalf("run plain, the loop did not reach the master connection (%q)", out)
	}
}

func TestControlPath(t *testing.T) {
	uid := strconv.Itoa(os.Getuid())
	for line, want := range map[string]string{
		"ControlPath /tmp/cm-%r@%h:%p":      "/tmp/cm-*@*:*",
		"  controlpath=~/.cm/%C":            "/home/p/.cm/*",
		"ControlPath\t\"%d/sockets/%L-%n\"": "/home/p/sockets/*-*",
		"ControlPath /run/user/%i/ssh-%C":   "/run/user/" + uid + "/ssh-*",
		"ControlPath /tmp/$USER/[x]%%":      "/tmp/*/*x]%",
		"ControlPath none":                  "",
		"ControlMaster auto":                "",
		"ControlPath relative/path":         "",
		"# ControlPath /tmp/x":              "",
	} {
		if got := controlPath(line, "/home/p"); got != want {
			t.Errorf("controlPath(%q) = %q, want %q", line, got, want)
		}
	}
}
