package wall

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// newSink is a listener on the machine's loopback that keeps what
// reaches it: the outcome a network test judges by.
func newSink(t *testing.T) *door {
	t.Helper()
	return openDoor(t, "tcp4", "127.0.0.1:0")
}

// direct is a step that connects to the sink's port itself, and one that
// asks the wall's proxy for it, each sending a secret-looking line.
func reachSink(port int) string {
	p := strconv.Itoa(port)
	return `exec 3<>/dev/tcp/127.0.0.1/` + p + ` && echo direct-secret >&3 && echo direct-reached; ` +
		`pp=${HTTPS_PROXY##*:}; exec 4<>/dev/tcp/127.0.0.1/${pp:-1} && ` +
		`printf 'CONNECT 127.0.0.1:` + p + ` HTTP/1.1\r\nHost: 127.0.0.1:` + p + `\r\n\r\nproxied-secret\n' >&4 && ` +
		`head -c 12 <&4; echo; true`
}

// TestWallNetworkOwn: a walled step has no network of its own beyond its
// loopback, and its proxy refuses every host its decision did not name;
// nothing reaches a listener on the machine, in any scope.
func TestWallNetworkOwn(t *testing.T) {
	need(t)
	w := newWorld(t)
	s := newSink(t)
	ledger := filepath.Join(t.TempDir(), "sayso.sock")
	reports := reportsTo(t, ledger)
	for _, scope := range []Scope{Read, Local, Approved} {
		p := w.profile(scope)
		p.Ledger, p.SessionID = ledger, "session-"+scope.String()
		r := w.run(t, p, w.root, reachSink(s.port))
		if strings.Contains(r.stdout, "direct-reached") {
			t.Errorf("%v: the step connected to the machine's loopback itself: %+v", scope, r)
		}
		if !strings.Contains(r.stdout, "403") {
			t.Errorf("%v: the proxy did not refuse 127.0.0.1: %+v", scope, r)
		}
		if !strings.Contains(r.stderr, "refused a connection to 127.0.0.1") {
			t.Errorf("%v: no refusal on the step's error output: %q", scope, r.stderr)
		}
	}
	// Every step has ended and its proxy answered: what they connected
	// to the listener, it has taken.
	s.settle(t)
	if got := s.received(); len(got) > 0 {
		t.Fatalf("the listener received %q from walled steps", got)
	}
	// Each refusal reached sayso serve's ledger, with its session and step.
	for _, scope := range []Scope{Read, Local, Approved} {
		select {
		case r := <-reports:
			if r.Host != "127.0.0.1" || !strings.HasPrefix(r.Session, "session-") || !strings.Contains(r.Step, "CONNECT 127.0.0.1") || r.Cwd != w.root {
				t.Errorf("report: %+v", r)
			}
		case <-time.After(testenv.Hang):
			t.Fatalf("%v: no report of the refusal reached the ledger's socket in %v", scope, testenv.Hang)
		}
	}
}

// reportsTo listens at socket as sayso serve does and hands on the wall's
// reports of refused connections.
func reportsTo(t *testing.T, socket string) <-chan Refusal {
	t.Helper()
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	out := make(chan Refusal, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			var req struct {
				Agent string `json:"agent"`
				Input []byte `json:"input"`
			}
			if json.NewDecoder(c).Decode(&req) == nil && req.Agent == ReportAgent {
				var r Refusal
				if json.Unmarshal(req.Input, &r) == nil {
					out <- r
				}
			}
			c.Write([]byte("{}\n"))
			c.Close()
		}
	}()
	return out
}

// TestWallEgressAllowed: a host the decision named is reached through the
// proxy, and only through it.
func TestWallEgressAllowed(t *testing.T) {
	need(t)
	w := newWorld(t)
	s := newSink(t)
	p := w.profile(Local)
	p.Hosts = []string{"127.0.0.1"}
	r := w.run(t, p, w.root, reachSink(s.port))
	if strings.Contains(r.stdout, "direct-reached") {
		t.Errorf("the step connected to the machine's loopback itself: %+v", r)
	}
	if !strings.Contains(r.stdout, "200") {
		t.Errorf("the proxy did not tunnel to a named host: %+v", r)
	}
	s.settle(t)
	if got := s.received(); len(got) != 1 || got[0] != "proxied-secret\n" {
		t.Fatalf("the listener received %q, want the proxied line alone", got)
	}
}

// TestWallNothingOutlivesStep: without a session, what a step leaves
// running ends with it.
func TestWallNothingOutlivesStep(t *testing.T) {
	need(t)
	w := newWorld(t)
	mark := filepath.Join(w.root, "late")
	r := w.run(t, w.profile(Local), w.root, `(sleep 1; echo late > `+mark+`) >/dev/null 2>&1 & echo started`)
	if r.code != 0 || !strings.Contains(r.stdout, "started") {
		t.Fatalf("step: %+v", r)
	}
	// Left running, the process writes a second after it started, then
	// ends: once no process names the mark, it wrote or never will.
	waitGone(t, "the process the step left running to end", mark)
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("a process the step left running wrote after the step ended")
	}
}

// TestWallSession: the steps of one session share their wall's network:
// a server a step leaves running is reached by the session's later steps
// and, through the machine's loopback, by the person's browser; ending the
// session ends it.
func TestWallSession(t *testing.T) {
	need(t)
	w := newWorld(t)
	sock := filepath.Join(w.state, "walls", "s1.sock")
	t.Cleanup(func() { EndSession(sock) })
	port := freePort(t)
	p := w.profile(Local)
	p.Session = sock
	if r := w.run(t, p, w.root, serveStep(t, port)); r.code != 0 || !strings.Contains(r.stdout, "up") {
		t.Fatalf("start the server: %+v", r)
	}
	get := fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d && echo ping >&3 && head -n1 <&3`, port)
	if r := w.run(t, p, w.root, get); !strings.Contains(r.stdout, "pong") {
		t.Fatalf("a later step of the session did not reach the server: %+v", r)
	}
	other := w.profile(Local)
	if r := w.run(t, other, w.root, get); strings.Contains(r.stdout, "pong") {
		t.Fatalf("a step of no session reached the session's server: %+v", r)
	}
	waitReach(t, "the session's server from the machine's loopback", port)
	if err := EndSession(sock); err != nil {
		t.Fatal(err)
	}
	// EndSession returns once the session has ended: its processes and
	// the ports its holder forwarded are gone, nothing of it answers.
	if ok, _ := reach(port); ok {
		t.Fatal("the server was reached after its session ended")
	}
}

// serveStep is a step that leaves a server on port running in its wall,
// answering "pong" to each line, and says "up" once it answers.
func serveStep(t *testing.T, port int) string {
	return fmt.Sprintf(`%s=1 %s serve 127.0.0.1:%d >/dev/null 2>&1 & `, helperEnv, quote(launcher(t)), port) +
		until(fmt.Sprintf(`(exec 3<>/dev/tcp/127.0.0.1/%d) 2>/dev/null`, port)) + `; echo up`
}

// reach pings port on the machine's loopback once, and reads what it
// answers to its end: whether that was "pong", and what it was.
func reach(port int) (bool, string) {
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false, err.Error()
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(testenv.Hang))
	c.Write([]byte("ping\n"))
	line, err := bufio.NewReader(c).ReadString('\n')
	if line == "pong\n" {
		return true, "pong"
	}
	return false, fmt.Sprintf("%q (%v)", line, err)
}

// waitReach waits until port on the machine's loopback answers a ping.
func waitReach(t *testing.T, what string, port int) {
	t.Helper()
	testenv.Wait(t, what+" to answer on port "+strconv.Itoa(port), func() (bool, string) { return reach(port) })
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestWallRunsWhatWasApproved: a step the person approved runs only while
// the files that say what it runs are as they were decided; rewritten in
// between (by a process an earlier step left running), it does not run.
func TestWallRunsWhatWasApproved(t *testing.T) {
	need(t)
	w := newWorld(t)
	script := filepath.Join(w.root, "release.sh")
	mark := filepath.Join(w.root, "tampered")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho approved\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	decided := Sum(script)
	in := Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Approved, Secrets: true,
		Same: map[string]string{script: decided, filepath.Join(w.root, "package.json"): ""}}
	if r := w.run(t, For(in), w.root, "./release.sh"); r.code != 0 || !strings.Contains(r.stdout, "approved") {
		t.Fatalf("unchanged: %+v", r)
	}
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho tampered > "+mark+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := w.run(t, For(in), w.root, "./release.sh")
	if r.code != ExitSetup || !strings.Contains(r.stderr, "release.sh changed after the step was decided") {
		t.Errorf("rewritten: %+v", r)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the rewritten script ran")
	}
	// A manifest made after the decision counts as a change too.
	os.WriteFile(script, []byte("#!/bin/sh\necho approved\n"), 0o755)
	os.WriteFile(filepath.Join(w.root, "package.json"), []byte("{}"), 0o644)
	if r := w.run(t, For(in), w.root, "./release.sh"); r.code != ExitSetup || !strings.Contains(r.stderr, "package.json was made after") {
		t.Errorf("manifest made: %+v", r)
	}
}

// TestWallCachesOverlay: what a walled step writes to the shared caches
// lands in a layer of its wall's own: the step and the later steps of its
// session read it, the person's own runs, which read the cache itself,
// never do; and nothing of it outlives the session.
func TestWallCachesOverlay(t *testing.T) {
	need(t)
	w := newWorld(t)
	cache := filepath.Join(w.home, ".cache", "go-build")
	mod := filepath.Join(w.home, "go", "pkg", "mod", "example.com", "m@v1.0.0")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "m.go"), []byte("package m\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(w.state, "walls", "caches.sock")
	t.Cleanup(func() { EndSession(sock) })
	p := w.profile(Local)
	p.Session = sock
	poison := `echo poisoned > ` + cache + `/entry && chmod u+w ` + mod + ` ` + mod + `/m.go && echo 'package m; func init() { panic(1) }' > ` + mod + `/m.go && cat ` + cache + `/entry ` + mod + `/m.go`
	r := w.run(t, p, w.root, poison)
	if r.code != 0 || !strings.Contains(r.stdout, "poisoned") || !strings.Contains(r.stdout, "panic") {
		t.Fatalf("the step could not write its caches: %+v", r)
	}
	// The person's cache is as it was.
	if _, err := os.Stat(filepath.Join(cache, "entry")); err == nil {
		t.Error("the step's cache entry reached the person's cache")
	}
	if b, _ := os.ReadFile(filepath.Join(mod, "m.go")); string(b) != "package m\n" {
		t.Errorf("the person's module cache changed: %q", b)
	}
	// A later step of the session reads what the first wrote.
	if r := w.run(t, p, w.root, `cat `+cache+`/entry`); !strings.Contains(r.stdout, "poisoned") {
		t.Errorf("a later step of the session did not read its session's cache: %+v", r)
	}
	// A step of no session does not.
	if r := w.run(t, w.profile(Local), w.root, `cat `+cache+`/entry`); strings.Contains(r.stdout, "poisoned") {
		t.Errorf("a step of another wall read the session's cache: %+v", r)
	}
}

// TestWallPushByProjectCode: a script of the project's, run as local
// work, commits and force-pushes to the project's remote, served on the
// machine by git's own daemon. Run plain it moves the remote; walled, the
// remote does not move. Judged by the remote's branch.
func TestWallPushByProjectCode(t *testing.T) {
	need(t)
	git, err := exec.LookPath("git")
	if err != nil {
		testenv.Missing(t, "git is not installed")
	}
	w := newWorld(t)
	base := t.TempDir()
	remote := filepath.Join(base, "remote.git")
	port := freePort(t)
	gitIn := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-c", "user.name=p", "-c", "user.email=p@example.com"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	gitIn(base, "init", "-q", "--bare", "-b", "main", remote)
	daemon := exec.Command(git, "daemon", "--export-all", "--enable=receive-pack", "--reuseaddr",
		"--base-path="+base, "--listen=127.0.0.1", "--port="+strconv.Itoa(port), base)
	// git runs git-daemon as a child: the whole group ends with the test.
	daemon.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-daemon.Process.Pid, syscall.SIGKILL); daemon.Wait() })
	url := fmt.Sprintf("git://127.0.0.1:%d/remote.git", port)
	// The project: a clone with one commit pushed, and a release script.
	proj := filepath.Join(w.home, "pushproj")
	os.RemoveAll(proj)
	// The daemon is up once it listens.
	testenv.Wait(t, "git daemon to serve the remote", func() (bool, string) {
		out, err := exec.Command(git, "clone", "-q", url, proj).CombinedOutput()
		if err != nil {
			os.RemoveAll(proj)
			return false, fmt.Sprintf("git clone: %v: %s", err, out)
		}
		return true, ""
	})
	os.WriteFile(filepath.Join(proj, "README"), []byte("v1\n"), 0o644)
	gitIn(proj, "add", "README")
	gitIn(proj, "commit", "-qm", "v1")
	gitIn(proj, "push", "-q", "origin", "HEAD:main")
	before := gitIn(remote, "rev-parse", "main")
	release := "#!/bin/sh\necho v2 > README && git -c user.name=a -c user.email=a@example.com commit -qam v2 && git push -q -f origin HEAD:main\n"
	os.WriteFile(filepath.Join(proj, "release.sh"), []byte(release), 0o755)

	p := For(Inputs{Home: w.home, Root: proj, Hidden: []string{w.state, w.bin}, Scope: Local, Hosts: []string{"proxy.golang.org"}})
	r := w.run(t, p, proj, "./release.sh")
	if after := gitIn(remote, "rev-parse", "main"); after != before {
		t.Fatalf("a walled script moved the remote from %s to %s: %+v", before, after, r)
	}
	if r.code == 0 {
		t.Errorf("the walled push reported success: %+v", r)
	}
	// The positive control: the same script, run as the person would.
	gitIn(proj, "reset", "-q", "--hard", before)
	cmd := exec.Command("sh", "./release.sh")
	cmd.Dir = proj
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the script run plain: %v\n%s", err, out)
	}
	if after := gitIn(remote, "rev-parse", "main"); after == before {
		t.Fatal("the script run plain did not move the remote: the check sees nothing")
	}
	// The person's yes to git push itself, as the hook walls it (made
	// only of a program that needs a credential: the machine's network)
	// moves the remote, within the approved reach.
	os.WriteFile(filepath.Join(proj, "README"), []byte("v3\n"), 0o644)
	gitIn(proj, "commit", "-qam", "v3")
	want := gitIn(proj, "rev-parse", "HEAD")
	yes := For(Inputs{Home: w.home, Root: proj, Hidden: []string{w.state, w.bin}, Scope: Approved, Secrets: true, HostNetwork: true})
	if r := w.run(t, yes, proj, "git push -q origin HEAD:main"); r.code != 0 {
		t.Fatalf("the approved push: %+v", r)
	}
	if after := gitIn(remote, "rev-parse", "main"); after != want {
		t.Errorf("the approved push left the remote at %s, want %s", after, want)
	}
}

// TestWallPagePort: a server a session's step runs on the port of the
// person's page (the one sayso serve names) is not forwarded to the machine's loopback, where it
// would stand in for the page (or keep it from starting); another port
// of the same session is.
func TestWallPagePort(t *testing.T) {
	need(t)
	w := newWorld(t)
	sock := filepath.Join(w.state, "walls", "page.sock")
	t.Cleanup(func() { EndSession(sock) })
	page, other := freePort(t), freePort(t)
	p := w.profile(Local)
	p.Session = sock
	p.PagePort = page
	for _, port := range []int{page, other} {
		if r := w.run(t, p, w.root, serveStep(t, port)); r.code != 0 || !strings.Contains(r.stdout, "up") {
			t.Fatalf("start the server on %d: %+v", port, r)
		}
	}
	get := fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d && echo ping >&3 && head -n1 <&3`, page)
	if r := w.run(t, p, w.root, get); !strings.Contains(r.stdout, "pong") {
		t.Fatalf("a later step of the session did not reach the server on the page's port: %+v", r)
	}
	waitReach(t, "the session's other server, forwarded to the machine's loopback,", other)
	// The session forwards the ports its wall listens on all at once, and
	// the server on the page's port was up before the other started: the
	// forward that brought the other port would have brought it too.
	if ok, saw := reach(page); ok {
		t.Fatalf("a walled server was forwarded to the page's port on the machine's loopback (%s)", saw)
	}
}
