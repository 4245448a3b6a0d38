package e2e

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/wall"
)

// everydayProject is the project each everyday workflow starts from: a
// Go module with a command, a Node package, a Python package with its
// tests, a Makefile, in a git repository with one commit.
var everydayProject = map[string]string{
	"go.mod":               "module example.com/p\n\ngo 1.22\n",
	"p.go":                 "package p\n\nfunc Add(a, b int) int { return a + b }\n",
	"p_test.go":            "package p\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n",
	"cmd/hello/main.go":    "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello from go\") }\n",
	"package.json":         `{"name":"p","version":"1.0.0","private":true,"scripts":{"test":"node --test","build":"node scripts/build.js"}}` + "\n",
	"test/add.test.js":     "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.strictEqual(1 + 2, 3));\n",
	"scripts/build.js":     "require('fs').mkdirSync('dist', {recursive: true});\nrequire('fs').writeFileSync('dist/out.txt', 'built\\n');\nconsole.log('built dist');\n",
	"pkg/__init__.py":      "def add(a, b):\n    return a + b\n",
	"tests/__init__.py":    "",
	"tests/test_add.py":    "import unittest\nfrom pkg import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n",
	"Makefile":             "all: bin/hello\n\nbin/hello: cmd/hello/main.go\n\tgo build -o bin/hello ./cmd/hello\n\ntest:\n\tgo test -count=1 ./...\n\n.PHONY: test\n",
	"msg.txt":              "hello\n",
	".gitignore":           "bin/\ndist/\n.venv/\n",
	"README.md":            "# p\n",
	"docs/notes/today.txt": "notes\n",
}

// newEverydayProject makes the project in a new folder of the home: not
// under the temporary folder, which every walled step may write, nor in a
// hidden folder of the home, which the wall never takes for a project.
func newEverydayProject(t *testing.T, home string) string {
	t.Helper()
	proj, err := os.MkdirTemp(home, "sayso-e2e-everyday-")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(proj) })
	for name, body := range everydayProject {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(proj, name)), 0o755))
		must(t, os.WriteFile(filepath.Join(proj, name), []byte(body), 0o644))
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=p", "-c", "user.email=p@example.com", "commit", "-q", "-m", "first"},
	} {
		git := exec.Command("git", args...)
		git.Dir = proj
		if out, err := git.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return proj
}

// TestWallEverydayWork runs everyday workflows as the person runs them
// and inside the wall as local work, each in a fresh copy of the project,
// and wants the same exit status and the same telling output from both.
// It runs as a normal user in CI.
func TestWallEverydayWork(t *testing.T) {
	needWall(t)
	needTools(t, "bash", "git", "go", "gofmt", "npm", "node", "python3", "make", "tmux", "jq", "sqlite3", "tar", "curl")
	home, err := os.UserHomeDir()
	must(t, err)
	launcher := filepath.Join(filepath.Dir(sayso), "sayso-wall")
	const git = "git -c user.name=p -c user.email=p@example.com "
	flows := []struct{ name, command, want string }{
		{"go build", "go build ./... && echo built", "built"},
		{"go test", "go test -count=1 ./...", "ok  \texample.com/p"},
		{"go vet", "go vet ./... && echo vetted", "vetted"},
		{"gofmt", "gofmt -l . && echo formatted", "formatted"},
		{"go run", "go run ./cmd/hello", "hello from go"},
		{"go list", "go list ./...", "example.com/p/cmd/hello"},
		{"go mod tidy", "go mod tidy && cat go.mod", "module example.com/p"},
		{"go test, then exit", "go test -run Nothing -count=1 ./... && exit 7", "ok  \texample.com/p"},
		{"npm test", "npm test", "# pass 1"},
		{"npm run build", "npm run build && cat dist/out.txt", "built"},
		{"npm pkg get", "npm pkg get name", `"p"`},
		{"node script", "node scripts/build.js", "built dist"},
		{"node inline", "node -e 'console.log(6*7)'", "42"},
		{"python tests", "python3 -m unittest discover -s tests -t . 2>&1", "OK"},
		{"python inline", `python3 -c 'import json; print(json.dumps({"a": 1}))'`, `{"a": 1}`},
		{"python venv", "python3 -m venv .venv && .venv/bin/python -c 'print(40+2)'", "42"},
		{"python compile", "python3 -m py_compile pkg/__init__.py && echo compiled", "compiled"},
		{"make", "make && ./bin/hello", "hello from go"},
		{"make test", "make test", "ok  \texample.com/p"},
		{"git status", "echo x >> README.md && git status --short", "M README.md"},
		{"git commit", "echo x >> README.md && " + git + "commit -qam wip && git log --oneline | wc -l", "2"},
		{"git branch", "git switch -q -c feature && git branch --show-current", "feature"},
		{"git stash", "echo x >> README.md && git stash -q && git stash list | wc -l && git stash pop -q && git status --short", "M README.md"},
		{"git amend", git + "commit -q --amend -m again && git log -1 --format=%s", "again"},
		{"git tag", git + "tag -a v1 -m v1 && git describe --tags", "v1"},
		{"git rebase", "git switch -q -c side && echo y > side.txt && git add side.txt && " + git + "commit -qm side && git switch -q main && echo z > z.txt && git add z.txt && " + git + "commit -qm z && git switch -q side && " + git + "rebase -q main && git log --oneline | wc -l", "3"},
		{"git diff", "echo x >> msg.txt && git diff --stat", "msg.txt | 1 +"},
		{"grep", "grep -rn 'func Add' --include=*.go .", "./p.go:3:func Add"},
		{"find", "find . -name '*.py' -not -path './.git/*' | sort | head -1", "./pkg/__init__.py"},
		{"sed in place", "sed -i 's/hello/hi/' msg.txt && cat msg.txt", "hi"},
		{"build folder", "mkdir -p build/tmp && echo x > build/tmp/y && rm -rf build && echo cleaned", "cleaned"},
		{"tar", "tar czf /tmp/everyday-$$.tgz --exclude=.git . && tar tzf /tmp/everyday-$$.tgz | grep -c go.mod; rm -f /tmp/everyday-$$.tgz", "1"},
		{"jq", "jq -r .scripts.test package.json", "node --test"},
		{"sqlite3", "sqlite3 :memory: 'select 40+2'", "42"},
		{"tmux", "tmux -L everyday-$$ new-session -d 'sleep 30' && tmux -L everyday-$$ list-sessions | wc -l && tmux -L everyday-$$ kill-server", "1"},
		{"background job", "sleep 0.2 & wait && echo waited", "waited"},
	}
	if len(flows) < 30 {
		t.Fatalf("%d workflows; the wall is held to at least 30", len(flows))
	}
	hidden := []string{filepath.Join(home, ".local", "state", "sayso")}
	for _, f := range flows {
		t.Run(f.name, func(t *testing.T) {
			plainOut, plainCode := runIn(newEverydayProject(t, home), f.command)
			proj := newEverydayProject(t, home)
			p := wall.For(wall.Inputs{Home: home, Root: proj, Hidden: hidden, Scope: wall.Local, Hosts: egress()})
			walledOut, walledCode := runIn(proj, p.Wrap(f.command, launcher))
			if walledCode != plainCode || !strings.Contains(walledOut, f.want) || !strings.Contains(plainOut, f.want) {
				t.Errorf("%s: walled exit %d, unwalled %d, want %q in both\nwalled:\n%s\nunwalled:\n%s", f.command, walledCode, plainCode, f.want, walledOut, plainOut)
			}
		})
	}
}

// egress is what a step of local work may reach: the trusted hosts but
// the loopback, whose names in a wall are the wall's own.
func egress() []string {
	var out []string
	for _, h := range risk.DefaultTrustedHosts {
		if h != "localhost" && h != "127.0.0.1" && h != "::1" {
			out = append(out, h)
		}
	}
	return out
}

func runIn(dir, line string) (string, int) {
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	return string(out), cmd.ProcessState.ExitCode()
}

// TestWallDevServer: a dev server a step of a session starts in the
// background is reached by the session's later steps and by the person's
// browser on the machine's loopback, and ends with the session.
func TestWallDevServer(t *testing.T) {
	needWall(t)
	needTools(t, "bash", "git", "python3", "curl")
	home, err := os.UserHomeDir()
	must(t, err)
	launcher := filepath.Join(filepath.Dir(sayso), "sayso-wall")
	proj := newEverydayProject(t, home)
	sock := filepath.Join(t.TempDir(), "walls", "dev.sock")
	t.Cleanup(func() { wall.EndSession(sock) })
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	must(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	p := wall.For(wall.Inputs{Home: home, Root: proj, Hidden: []string{filepath.Join(home, ".local", "state", "sayso")},
		Scope: wall.Local, Hosts: egress(), Session: sock})
	start := fmt.Sprintf("python3 -m http.server %d --bind 127.0.0.1 >/dev/null 2>&1 & echo started", port)
	if out, code := runIn(proj, p.Wrap(start, launcher)); code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("start the dev server: exit %d\n%s", code, out)
	}
	// The server is up once the person's browser reaches it on the
	// machine's loopback.
	testenv.Wait(t, "the person's browser to reach the dev server on the machine's loopback", func() (bool, string) {
		return fetch(port, "/README.md", "# p")
	})
	get := fmt.Sprintf("curl -sS --max-time 5 http://127.0.0.1:%d/README.md", port)
	if out, code := runIn(proj, p.Wrap(get, launcher)); code != 0 || !strings.Contains(out, "# p") {
		t.Fatalf("a later step did not reach the dev server: exit %d\n%s", code, out)
	}
	must(t, wall.EndSession(sock))
	// The session's holder answers the end, then stops the wall's
	// processes and exits, which closes the port it forwarded: once
	// neither it nor the server runs, nothing can answer any more.
	server := fmt.Sprintf("http.server %d", port)
	testenv.Wait(t, "the session's holder and its dev server to exit", func() (bool, string) {
		left := running(sock, server)
		return len(left) == 0, strings.Join(left, "\n")
	})
	if ok, _ := fetch(port, "/README.md", "# p"); ok {
		t.Fatal("the dev server was still reached after its session ended")
	}
}

// fetch reports whether GET path on the machine's loopback at port
// answers with want in its body, and otherwise what it got.
func fetch(port int, path, want string) (bool, string) {
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false, err.Error()
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(testenv.Hang))
	fmt.Fprintf(c, "GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n", path)
	b, err := io.ReadAll(c)
	if strings.Contains(string(b), want) {
		return true, ""
	}
	return false, fmt.Sprintf("%q (%v)", b, err)
}

// running lists the processes whose command line holds one of needles,
// but zombies, whose files are closed.
func running(needles ...string) []string {
	var out []string
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		if _, err := strconv.Atoi(p.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
		if err != nil {
			continue
		}
		line := strings.ReplaceAll(string(b), "\x00", " ")
		for _, n := range needles {
			if strings.Contains(line, n) {
				if done, _ := gone(p.Name()); !done {
					if len(line) > 200 {
						line = line[:200] + "…"
					}
					out = append(out, p.Name()+": "+line)
				}
				break
			}
		}
	}
	return out
}
