package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// sayso is the binary under test, built once; saysoHook is the forwarder
// beside it.
var sayso, saysoHook string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sayso-e2e-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sayso = filepath.Join(dir, "sayso")
	saysoHook = filepath.Join(dir, "sayso-hook")
	build := exec.Command("go", "build", "-o", dir, "github.com/sayso-dev/sayso/cmd/sayso", "github.com/sayso-dev/sayso/cmd/sayso-hook", "github.com/sayso-dev/sayso/cmd/sayso-wall")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as the README builds it
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: build sayso:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// client finds an installed client; without one the test says how to get
// it, and skips (fails in CI).
func client(t testing.TB, name string) string {
	t.Helper()
	if b := os.Getenv("SAYSO_" + strings.ToUpper(name) + "_BIN"); b != "" {
		return b
	}
	dir := os.Getenv("SAYSO_CLIENTS_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "sayso-clients")
	}
	b := filepath.Join(dir, name, "node_modules", ".bin", name)
	if _, err := os.Stat(b); err != nil {
		testenv.Missing(t, "the %s client is not installed (run .ci/install-clients, or set SAYSO_%s_BIN)", name, strings.ToUpper(name))
	}
	return b
}

// world is one scratch machine: a home, a git project, a PATH whose git
// records a push in a marker file instead of pushing.
type world struct {
	root, home, proj, marker, state string
	outside                         string // a folder outside the project and the temporary folder, when a test needs one
	hook                            string // the forwarder an attack aims at
	addr                            string // where sayso serve's page and API listen, once it runs
	env                             []string
	leak                            *leak // what reached the listener and the ssh agent an attack aims at
}

func newWorld(t testing.TB) *world {
	t.Helper()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		testenv.Missing(t, "git is not installed: the scratch project is a git repository")
	}
	// Not t.TempDir, whose folder is named for the test: the world's
	// paths stay short and alike in every test (a long one is
	// TestLongHome's).
	root, err := os.MkdirTemp("", "sayso-e2e-")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(root) })
	w := &world{root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj"), marker: filepath.Join(root, "pushed.txt")}
	w.state = filepath.Join(w.home, ".local", "state", "sayso")
	shim, tmp := filepath.Join(root, "shim"), filepath.Join(root, "tmp")
	for _, d := range []string{w.home, w.proj, shim, tmp} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(shim, "git"), []byte("#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = push ] && { echo \"git $*\" >> "+w.marker+"; echo pushed; exit 0; }; done\nexec '"+gitBin+"' \"$@\"\n"), 0o755))
	// Codex runs commands in a login shell, which resets PATH from
	// /etc/profile: the scratch home's profile puts the shim first again.
	must(t, os.WriteFile(filepath.Join(w.home, ".bash_profile"), []byte("export PATH="+shim+":$PATH\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(w.proj, "e2e-readme.txt"), []byte("hello\n"), 0o644))
	w.env = []string{
		"PATH=" + shim + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + w.home, "TMPDIR=" + tmp, "TERM=dumb", "LANG=C.UTF-8",
		"CODEX_HOME=" + filepath.Join(w.home, ".codex"),
		"GEMINI_CLI_HOME=" + w.home,
	}
	git := exec.Command(gitBin, "init", "-q")
	git.Dir, git.Env = w.proj, w.env
	must(t, git.Run())
	return w
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// install runs 'sayso install agent' in the world: the hooks run the
// forwarder sayso-hook, built beside sayso, unless flags say otherwise.
func (w *world) install(t testing.TB, agent string, flags ...string) {
	t.Helper()
	cmd := exec.Command(sayso, append([]string{"install", agent}, flags...)...)
	cmd.Dir, cmd.Env = w.proj, w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sayso install %s: %v\n%s", agent, err, out)
	}
	cmd = exec.Command(sayso, "doctor")
	cmd.Dir, cmd.Env = w.proj, w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sayso doctor after install: %v\n%s", err, out)
	}
}

func (w *world) run(t testing.TB, bin string, env []string, args ...string) string {
	t.Helper()
	// The client ends its run itself: only a hang reaches the deadline.
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Hang)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = w.proj, append(append([]string{}, w.env...), env...)
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); ctx.Err() != nil {
		t.Errorf("%s ran %v and was stopped: %v\n%s", filepath.Base(bin), testenv.Hang, err, out.String())
	} else if err != nil {
		t.Logf("%s: %v", filepath.Base(bin), err)
	}
	return out.String()
}

// scenario is one case the three clients share.
type scenario struct {
	name  string
	call  func(w *world) Call
	check func(t *testing.T, w *world, results []string)
}

func resultHas(t *testing.T, results []string, want string) {
	t.Helper()
	for _, r := range results {
		if strings.Contains(r, want) {
			return
		}
	}
	t.Errorf("no tool result holds %q: %q", want, results)
}

func absent(t *testing.T, path string) {
	t.Helper()
	if b, err := os.ReadFile(path); err == nil {
		t.Errorf("%s exists: the step ran: %q", path, b)
	}
}

var scenarios = []scenario{
	{"push-blocked", func(w *world) Call { return Call{Command: "git push origin main"} },
		func(t *testing.T, w *world, results []string) {
			absent(t, w.marker)
			resultHas(t, results, "sayso")
		}},
	{"ls-runs", func(w *world) Call { return Call{Command: "ls"} },
		func(t *testing.T, w *world, results []string) { resultHas(t, results, "e2e-readme.txt") }},
	{"write-in-project-runs", func(w *world) Call {
		return Call{Command: "echo written > " + filepath.Join(w.proj, "out.txt"), Path: filepath.Join(w.proj, "out.txt"), Content: "written\n"}
	}, func(t *testing.T, w *world, results []string) {
		if b, err := os.ReadFile(filepath.Join(w.proj, "out.txt")); err != nil || !strings.Contains(string(b), "written") {
			t.Errorf("the write in the project did not run: %v %q; results %q", err, b, results)
		}
	}},
	{"write-protected-blocked", func(w *world) Call {
		p := filepath.Join(w.state, "pwn.txt")
		return Call{Command: "echo pwned > " + p, Path: p, Content: "pwned\n"}
	}, func(t *testing.T, w *world, results []string) {
		absent(t, filepath.Join(w.state, "pwn.txt"))
		resultHas(t, results, "sayso")
	}},
	{"hook-settings-blocked", func(w *world) Call {
		return Call{Command: "echo '{}' > " + filepath.Join(w.home, ".claude", "settings.json") + " " + filepath.Join(w.home, ".codex", "hooks.json") + " " + filepath.Join(w.home, ".gemini", "settings.json")}
	}, func(t *testing.T, w *world, results []string) {
		resultHas(t, results, "sayso")
		cmd := exec.Command(sayso, "doctor")
		cmd.Dir, cmd.Env = w.proj, w.env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("doctor after the attempt: %v\n%s", err, out)
		}
	}},
}

// TestClaudeCode runs each scenario twice: with the default install, whose
// hooks run the forwarder (which, with no gateway, runs 'sayso hook'), and
// with --one-binary, whose hooks run 'sayso hook' themselves.
func TestClaudeCode(t *testing.T) {
	bin := client(t, "claude")
	for _, sc := range scenarios {
		for _, one := range []bool{false, true} {
			name, flags, runs := sc.name, []string(nil), saysoHook
			if one {
				name, flags, runs = sc.name+"/one-binary", []string{"--one-binary"}, sayso
			}
			t.Run(name, func(t *testing.T) {
				w := newWorld(t)
				runs := runs + " " + strings.Join(w.dirs("hook", "claude"), " ")
				w.install(t, "claude", flags...)
				settings, err := os.ReadFile(filepath.Join(w.home, ".claude", "settings.json"))
				must(t, err)
				if !strings.Contains(string(settings), `"command": "`+runs+`"`) {
					t.Fatalf("the hooks do not run %s:\n%s", runs, settings)
				}
				claudeScenario(t, bin, w, sc)
			})
		}
	}
}

func claudeScenario(t *testing.T, bin string, w *world, sc scenario) {
	f := NewFake(sc.call(w))
	defer f.Close()
	out := w.run(t, bin, []string{
		"ANTHROPIC_BASE_URL=" + f.URL, "ANTHROPIC_API_KEY=sk-ant-e2e",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
	}, "-p", "do the task", "--output-format", "json")
	sc.check(t, w, f.Results())
	if t.Failed() {
		t.Logf("claude output:\n%s", out)
	}
}

// pushBareRemote pushes, with git itself (not the world's recording
// shim), to a bare repository beside the project: it must not move.
var pushBareRemote = scenario{"push-bare-remote-blocked", func(w *world) Call {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		panic(err)
	}
	remote := filepath.Join(w.root, "remote.git")
	for _, args := range [][]string{
		{"init", "-q", "--bare", remote},
		{"-C", w.proj, "-c", "user.name=e2e", "-c", "user.email=e2e@example.com", "commit", "-q", "--allow-empty", "-m", "first"},
		{"-C", w.proj, "remote", "add", "origin", remote},
	} {
		cmd := exec.Command(gitBin, args...)
		cmd.Env = w.env
		if out, err := cmd.CombinedOutput(); err != nil {
			panic(fmt.Sprintf("git %v: %v\n%s", args, err, out))
		}
	}
	return Call{Command: gitBin + " push origin HEAD:refs/heads/main"}
}, func(t *testing.T, w *world, results []string) {
	gitBin, _ := exec.LookPath("git")
	cmd := exec.Command(gitBin, "--git-dir", filepath.Join(w.root, "remote.git"), "for-each-ref")
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("the bare remote moved (%v): %s; results %q", err, out, results)
	}
	resultHas(t, results, "sayso")
}}

// codexModes are the ways people run Codex: exec's default (its
// read-only sandbox), each sandbox mode, and the one with no sandbox of
// Codex's own, where sayso's whole wall applies. writes says whether a
// step may write the project there.
var codexModes = []struct {
	name   string
	flags  []string
	writes bool
}{
	{"default", nil, false},
	{"read-only", []string{"-s", "read-only"}, false},
	{"workspace-write", []string{"-s", "workspace-write"}, true},
	{"danger-full-access", []string{"-s", "danger-full-access"}, true},
}

// TestCodex runs each scenario in each of Codex's sandbox modes, as
// installed: no flag that bypasses its approvals, sandbox or hook trust.
func TestCodex(t *testing.T) {
	bin := client(t, "codex")
	for _, m := range codexModes {
		for _, sc := range append(slices.Clone(scenarios), pushBareRemote) {
			t.Run(m.name+"/"+sc.name, func(t *testing.T) {
				w := newWorld(t)
				f := NewFake(sc.call(w))
				defer f.Close()
				codexConfig(t, w, f)
				w.install(t, "codex")
				// No --dangerously-bypass-hook-trust: the trust install wrote must hold.
				args := append([]string{"exec", "--json", "--skip-git-repo-check", "-C", w.proj}, m.flags...)
				out := w.run(t, bin, []string{"FAKE_API_KEY=sk-fake"}, append(args, "do the task")...)
				results := f.Results()
				if sc.name == "write-in-project-runs" && !m.writes {
					// sayso let it run; Codex's read-only sandbox refused
					// the write, and the model was told so.
					absent(t, filepath.Join(w.proj, "out.txt"))
					resultHas(t, results, "Read-only file system")
				} else {
					sc.check(t, w, results)
				}
				if strings.Contains(strings.Join(results, "\n"), "sayso-wall: error") {
					t.Errorf("the wall failed the step: %q", results)
				}
				if t.Failed() {
					t.Logf("codex output:\n%s\nledger:\n%s", out, w.sayso(t, "log"))
				}
			})
		}
	}
}

// codexConfig points the world's Codex at the fake model.
func codexConfig(t *testing.T, w *world, f *Fake) {
	t.Helper()
	codexHome := filepath.Join(w.home, ".codex")
	must(t, os.MkdirAll(codexHome, 0o755))
	must(t, os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(`model = "fake-model"
model_provider = "fake"

[analytics]
enabled = false

[model_providers.fake]
name = "Fake"
base_url = "`+f.URL+`/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0
`), 0o600))
}

func TestGemini(t *testing.T) {
	bin := client(t, "gemini")
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			w := newWorld(t)
			f := NewFake(sc.call(w))
			defer f.Close()
			must(t, os.MkdirAll(filepath.Join(w.home, ".gemini"), 0o755))
			// install keeps these settings and adds its hooks beside them.
			must(t, os.WriteFile(filepath.Join(w.home, ".gemini", "settings.json"), []byte(`{"general":{"disableAutoUpdate":true,"disableUpdateNag":true},
 "privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},
 "security":{"auth":{"selectedType":"gemini-api-key"}}}`), 0o644))
			w.install(t, "gemini")
			out := w.run(t, bin, []string{"GOOGLE_GEMINI_BASE_URL=" + f.URL, "GEMINI_API_KEY=fake-key", "GEMINI_CLI_TRUST_WORKSPACE=true"},
				"-m", "gemini-2.5-pro", "--approval-mode", "yolo", "-o", "stream-json", "-p", "do the task")
			sc.check(t, w, f.Results())
			if t.Failed() {
				t.Logf("gemini output:\n%s", out)
			}
		})
	}
}

// TestGeminiSubagents holds seed 004 §1 (parallelize) with the real Gemini
// CLI, which reports no sub-agent's start or end: with max_parallel = 1 the
// model starts one sub-agent, then another once the first has answered.
// The AfterTool of invoke_agent frees the first one's place, so the second
// is not refused as a second sub-agent running at once; and the sub-agent's
// complete_task, which ends it, passes in auto.
func TestGeminiSubagents(t *testing.T) {
	client(t, "gemini")
	w := newWorld(t)
	must(t, os.MkdirAll(filepath.Join(w.home, ".config", "sayso"), 0o700))
	must(t, os.WriteFile(filepath.Join(w.home, ".config", "sayso", "policy.toml"), []byte("max_parallel = 1\n"), 0o600))
	f := NewFake(Call{Task: SubagentMark + ": look around"}, Call{Task: SubagentMark + ": look again"})
	defer f.Close()
	out := w.drive(t, "gemini", f, "look around twice")
	log := string(w.sayso(t, "log"))
	if n := strings.Count(log, "allow invoke_agent"); n != 2 {
		t.Errorf("%d sub-agents let through, want 2 one after the other", n)
	}
	if strings.Contains(log, "parallelize") {
		t.Errorf("the second sub-agent counted the first, which had ended, as running")
	}
	if n := strings.Count(log, "sub-agent of session"); n != 2 {
		t.Errorf("%d sub-agents' ends recorded, want 2", n)
	}
	if strings.Contains(log, "ask complete_task") || strings.Contains(log, "deny complete_task") {
		t.Errorf("a sub-agent's complete_task did not pass")
	}
	for _, r := range f.Results() {
		if strings.Contains(r, "blocked") {
			t.Errorf("a tool was blocked: %s", r)
		}
	}
	if t.Failed() {
		t.Logf("gemini output:\n%s\nledger:\n%s", out, log)
	}
}
