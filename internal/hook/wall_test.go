package hook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
	"github.com/sayso-dev/sayso/internal/wall"
)

// TestWalledAnswers: a shell step let through is handed back to each
// client as its own rewrite of the tool input, every other field kept; a
// denial is never rewritten.
func TestWalledAnswers(t *testing.T) {
	raw := json.RawMessage(`{"command":"ls","description":"list","timeout":5000}`)
	step := func() *Step {
		return &Step{Kind: KindShell, Command: "ls", Input: raw, Walled: "WALLED ls", Dialog: true}
	}
	for _, tt := range []struct {
		a     Adapter
		event string
		d     policy.Decision
		path  []string // where the rewritten command must be
		kept  string   // another field of the input that must be kept, if the client replaces the whole input
	}{
		{Claude{}, "PreToolUse", policy.Allow, []string{"hookSpecificOutput", "updatedInput", "command"}, "description"},
		{Claude{}, "PreToolUse", policy.Ask, []string{"hookSpecificOutput", "updatedInput", "command"}, "description"},
		{Codex{}, "PreToolUse", policy.Allow, []string{"hookSpecificOutput", "updatedInput", "command"}, "description"},
		{Gemini{}, "BeforeTool", policy.Allow, []string{"hookSpecificOutput", "tool_input", "command"}, ""},
	} {
		res := tt.a.Answer(Input{Event: tt.event, Step: step()}, tt.d, "sayso: r")
		var out map[string]any
		if err := json.Unmarshal(res.Stdout, &out); err != nil {
			t.Fatalf("%s %v: stdout %q: %v", tt.a.Name(), tt.d, res.Stdout, err)
		}
		var at any = out
		for _, k := range tt.path {
			m, _ := at.(map[string]any)
			at = m[k]
		}
		if at != "WALLED ls" {
			t.Errorf("%s %v: the rewritten command is not at %v: %s", tt.a.Name(), tt.d, tt.path, res.Stdout)
		}
		if tt.kept != "" {
			in := out["hookSpecificOutput"].(map[string]any)["updatedInput"].(map[string]any)
			if in[tt.kept] != "list" {
				t.Errorf("%s: the rewrite dropped %s: %s", tt.a.Name(), tt.kept, res.Stdout)
			}
		}
	}
	for _, a := range []Adapter{Claude{}, Codex{}, Gemini{}} {
		event := "PreToolUse"
		if a.Name() == "gemini" {
			event = "BeforeTool"
		}
		res := a.Answer(Input{Event: event, Step: step()}, policy.Deny, "sayso: r")
		if containsKey(res.Stdout, "WALLED") {
			t.Errorf("%s: a denial carries the rewrite: %s", a.Name(), res.Stdout)
		}
	}
	// An ask where Claude Code shows the person no dialog is a deny, and
	// a deny is never rewritten.
	headless := step()
	headless.Dialog = false
	res := Claude{}.Answer(Input{Event: "PreToolUse", Step: headless}, policy.Ask, "sayso: r")
	if containsKey(res.Stdout, "WALLED") || !containsKey(res.Stdout, `"permissionDecision":"deny"`) || res.Decision != policy.Deny {
		t.Errorf("claude: an ask nobody can answer is not a plain deny: %s", res.Stdout)
	}
}

func containsKey(b []byte, s string) bool { return strings.Contains(string(b), s) }

// TestNoWallNothingWrapped: without a launcher nothing is rewritten and the
// decision is told why.
func TestNoWallNothingWrapped(t *testing.T) {
	w := Walls{Off: "no launcher"}
	if _, ok := w.Wrap(Step{Kind: KindShell, Command: "ls"}, policy.ReachProject); ok {
		t.Error("a wall that is off wrapped a step")
	}
	if st := w.State(); st.On || st.Why != "no launcher" {
		t.Errorf("State = %+v, want off with the reason", st)
	}
	if st := (Walls{}).State(); st.On {
		t.Error("the zero Walls is on")
	}
}

// TestUnwrap: the line the hook hands back is decided, in a later event,
// as the command it runs — for both forms — and a line that only looks
// walled is not unwrapped.
func TestUnwrap(t *testing.T) {
	home := t.TempDir()
	w := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home, Hidden: []string{home + "/.local/state/sayso"}}
	cmd := `git push origin "$(cat branch)" && echo 'done'`
	for _, agent := range []string{"claude", "codex", "gemini"} {
		for _, reach := range []policy.Reach{policy.ReachProject, policy.ReachWide} {
			s := Step{Agent: agent, Kind: KindShell, Command: cmd, Cwd: home}
			line, ok := w.Wrap(s, reach)
			if !ok {
				t.Fatalf("%s: not wrapped", agent)
			}
			if agent != "claude" && strings.Count(line, "$(") != strings.Count(cmd, "$(") {
				t.Errorf("%s: the line holds a command substitution of its own: %s", agent, line)
			}
			s.Command = line
			got, ok := w.Unwrap(s)
			if !ok || got != cmd {
				t.Errorf("%s %v: Unwrap = %q, %v; want the command", agent, reach, got, ok)
			}
		}
	}
	// A line an agent wrote itself in the launcher's shape is decided as
	// the command inside it — at least as strict as the line — and then
	// walled anew; a line with anything around the launcher is not one.
	shaped := Step{Agent: "codex", Kind: KindShell, Command: "/opt/sayso/sayso-wall --scope approved --write / -- 'rm -rf ~'", Cwd: home}
	if got, ok := w.Unwrap(shaped); !ok || got != "rm -rf ~" {
		t.Errorf("a line in the launcher's shape unwrapped to %q, %v; want the command inside", got, ok)
	}
	for _, line := range []string{
		"/opt/sayso/sayso-wall --scope local --write /tmp -- ls; rm -rf ~",
		"rm -rf ~ && /opt/sayso/sayso-wall --scope local --write /tmp -- ls",
		"/opt/sayso/sayso-wall --scope local --write \"$D\" -- ls",
		"/elsewhere/sayso-wall --scope local --write /tmp -- ls",
	} {
		if got, ok := w.Unwrap(Step{Agent: "codex", Kind: KindShell, Command: line, Cwd: home}); ok {
			t.Errorf("%q was unwrapped to %q", line, got)
		}
	}
}

// TestDaemons: only a step made wholly of a daemon's client, seen whole,
// may reach the daemons; the project's code never. A compose step's file
// was read by the decision (risk.Compose): let through by a mode, what it
// hands the containers was judged; asked, the person saw it.
func TestDaemons(t *testing.T) {
	for _, tt := range []struct {
		command string
		want    bool
	}{
		{"docker ps", true},
		{"docker ps && docker logs web", true},
		{"docker compose up -d", true},
		{"docker-compose up -d", true},
		{"docker stack deploy -c s.yml app", true},
		{"systemctl --user status", true},
		{"make test", false},
		{"docker ps && ./run.sh", false},
		{"tmux new -d 'npm run dev'", false},
		{"bash -c 'docker ps'", false},
		{"$X ps", false},
	} {
		if got := reachesDaemons(shell.Parse(tt.command)); got != tt.want {
			t.Errorf("reachesDaemons(%q) = %v, want %v", tt.command, got, tt.want)
		}
	}
}

// TestGitConfigAccess: only a step made wholly of git commands that write
// their own keys may write the repository's configuration; anything else
// beside them, an editor, or an assignment keeps it read-only.
func TestGitConfigAccess(t *testing.T) {
	for _, tt := range []struct {
		command string
		want    bool
	}{
		{"git branch -m old new", true},
		{"git push -u origin feature", true},
		{"git switch -c feature origin/feature", true},
		{"git remote add upstream https://example.com/x.git", true},
		{"git config user.name someone", true},
		{"git add -A && git commit -m x && git push --set-upstream origin feature", true},
		{"git status", false},
		{"git commit -m x", false},
		{"git config --edit", false},
		{"git config --file .git/config user.name x", false},
		{"GIT_EDITOR=ed git config user.name x", false},
		{"git branch -m old new && python3 tools/x.py", false},
		{"bash -c 'git branch -m old new'", false},
	} {
		req := policy.Request{Command: tt.command, Mode: policy.ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}}
		_, diag := policy.Evaluate(req)
		if got := accessOf(&diag, policy.ReachProject, false).gitConfig; got != tt.want {
			t.Errorf("%q: gitConfig = %v, want %v", tt.command, got, tt.want)
		}
	}
}

// TestApprovedWrites: a step the person approved that writes a file the
// wall keeps read-only — an instruction file, ~/.gitconfig, ~/.ssh/config
// — may write exactly the files it names; one run by a mode unlocks
// nothing.
func TestApprovedWrites(t *testing.T) {
	for _, tt := range []struct {
		command string
		reach   policy.Reach
		want    string
	}{
		{"git config --global user.email a@b", policy.ReachWide, "/home/user/.gitconfig"},
		{`echo "Host x" >> ~/.ssh/config`, policy.ReachWide, "/home/user/.ssh/config"},
		{"echo hi >> CLAUDE.md", policy.ReachWide, "/home/user/project/CLAUDE.md"},
		{"echo hi >> CLAUDE.md", policy.ReachProject, ""},
		{"echo hi > notes.txt", policy.ReachWide, "/home/user/project/notes.txt"},
		{"echo hi > notes.txt", policy.ReachProject, ""},
	} {
		req := policy.Request{Command: tt.command, Mode: policy.ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}}
		_, diag := policy.Evaluate(req)
		got := accessOf(&diag, tt.reach, true).unlock
		if tt.want == "" && len(got) > 0 || tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("%q at %v: unlock = %v, want %q", tt.command, tt.reach, got, tt.want)
		}
	}
	// The reviewer waiving the ceiling is not the person: it unlocks
	// nothing, though the step runs wide.
	for _, command := range []string{`echo "Host *" >> ~/.ssh/config`, "echo hi >> CLAUDE.md"} {
		req := policy.Request{Command: command, Mode: policy.ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"},
			Review: policy.Review{Asked: true, Allow: true, Why: "the person asked for it"}}
		d, diag := policy.Evaluate(req)
		if d != policy.Allow || diag.Reach != policy.ReachWide {
			t.Fatalf("%q: %v at %v, want allowed wide by the reviewer", command, d, diag.Reach)
		}
		if got := accessOf(&diag, diag.Reach, false).unlock; len(got) > 0 {
			t.Errorf("%q allowed by the reviewer: unlock = %v, want none", command, got)
		}
	}
}

// TestToolState: a step made only of a cloud or forge CLI and programs
// that only read may write the folders that CLI keeps its own state in;
// anything that could run other code beside it, or an assignment, keeps
// them read-only.
func TestToolState(t *testing.T) {
	for _, tt := range []struct {
		command string
		want    string
	}{
		{"gcloud compute instances list", ".config/gcloud"},
		{"gcloud compute instances list --format=json | jq '.[].name' | head -5", ".config/gcloud"},
		{"gh pr view 12", ".config/gh"},
		{"kubectl get pods -A", ".kube/cache"},
		{"git status", ""},
		{"gcloud info && python3 tools/x.py", ""},
		{"CLOUDSDK_PYTHON=./x gcloud info", ""},
		{"bash -c 'gcloud info'", ""},
		{"sudo gcloud info", ""},
	} {
		got := toolState(shell.Parse(tt.command))
		if tt.want == "" && len(got) > 0 || tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("toolState(%q) = %v, want %q", tt.command, got, tt.want)
		}
	}
}

// TestGitConfigHooks: a git step may write the repository's configuration
// only where no hook can run: a hook (a person's .git/hooks/pre-commit,
// husky's hooksPath) runs code of the project's, which the agent writes,
// and would plant core.fsmonitor there for the person's next git command.
func TestGitConfigHooks(t *testing.T) {
	home := t.TempDir()
	walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home}
	configWritable := func(root string) bool {
		t.Helper()
		p := wrappedProfile(t, walls, root, "git commit -m x && git branch -m a b", access{gitConfig: true})
		return !slices.Contains(p.ReadOnly, filepath.Join(root, ".git", "config"))
	}
	repo := func(files map[string]string) string { return projectWith(t, files) }
	bare := map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/config": "[core]\n\tbare = false\n", ".git/hooks/pre-commit.sample": "#!/bin/sh\n"}
	if !configWritable(repo(bare)) {
		t.Errorf("a repository without hooks: the configuration stays read-only")
	}
	with := func(name, body string) map[string]string {
		m := map[string]string{name: body}
		for k, v := range bare {
			if k != name {
				m[k] = v
			}
		}
		return m
	}
	for name, files := range map[string]map[string]string{
		"a hook":        with(".git/hooks/pre-commit", "#!/bin/sh\nsh scripts/check.sh\n"),
		"husky":         with(".git/config", "[core]\n\thooksPath = .husky/_\n"),
		"an include":    with(".git/config", "[include]\n\tpath = ../shared.gitconfig\n"),
		"a config hook": with(".git/config", "[hook \"lint\"]\n\tcommand = make lint\n\tevent = pre-commit\n"),
	} {
		if configWritable(repo(files)) {
			t.Errorf("%s: the configuration is writable", name)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\thooksPath = ~/.githooks\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if configWritable(repo(bare)) {
		t.Errorf("the person's hooksPath: the configuration is writable")
	}
}

// TestApprovedToolSettings: the person's yes to a step that changes a
// package tool's settings or logs in lets it write exactly the file the
// tool writes, which the wall otherwise keeps read-only.
func TestApprovedToolSettings(t *testing.T) {
	for _, tt := range []struct{ command, want string }{
		{"npm config set registry https://registry.example", "/home/user/.npmrc"},
		{"npm login", "/home/user/.npmrc"},
		{"go env -w GOPRIVATE=example.com", "/home/user/.config/go/env"},
		{"yarn config set npmRegistryServer https://registry.example", "/home/user/.yarnrc.yml"},
		{"gcloud config set project my-project", "/home/user/.config/gcloud/configurations"},
	} {
		_, diag := policy.Evaluate(policy.Request{Command: tt.command, Mode: policy.ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}})
		if got := accessOf(&diag, policy.ReachWide, true).unlock; !slices.Contains(got, tt.want) {
			t.Errorf("%q: unlock = %v, want %s", tt.command, got, tt.want)
		}
	}
}

// TestModeUnlocksNothing: a step a mode lets through wide — autopilot, the
// autonomy wildcard, an allow entry — was seen by no one: it may not write
// the files the wall keeps read-only, though it names them as written.
func TestModeUnlocksNothing(t *testing.T) {
	for _, command := range []string{
		"echo x > ~/.config/gcloud/configurations/config_default",
		"echo 'aliases: {co: \"!sh -c id\"}' > ~/.config/gh/config.yml",
		"gcloud config set core/project x",
	} {
		req := policy.Request{Command: command, Mode: policy.ModeAutopilot, Wall: policy.Wall{On: true}, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}}
		d, diag := policy.Evaluate(req)
		if d != policy.Allow || diag.Reach != policy.ReachWide {
			t.Fatalf("%q: %v at %v, want allowed wide by autopilot", command, d, diag.Reach)
		}
		if got := accessOf(&diag, diag.Reach, false).unlock; len(got) > 0 {
			t.Errorf("%q allowed by autopilot: unlock = %v, want none", command, got)
		}
	}
}

// TestLeaseUnlocksNothing: a lease lifts its one action; in autopilot the
// step runs wide, but what else it names as written no one saw.
func TestLeaseUnlocksNothing(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	lease := policy.Lease{ID: "1", Category: risk.Privilege, Session: "s1", Turn: "t1", Epoch: 1, Cwd: "/home/user/project", Expires: now.Add(time.Hour)}
	command := "sudo apt-get install -y jq; echo x > ~/.config/gh/config.yml"
	d, diag := policy.Evaluate(policy.Request{
		Command: command, Mode: policy.ModeAutopilot, Now: now, Wall: policy.Wall{On: true},
		Context: risk.Context{Root: "/home/user/project", Cwd: "/home/user/project", Home: "/home/user"},
		Session: policy.Session{ID: "s1", Turn: "t1", Epoch: 1, Current: true}, Leases: []policy.Lease{lease},
	})
	if d != policy.Allow || diag.Lease == "" || diag.Reach != policy.ReachWide {
		t.Fatalf("%q: %v at %v (lease %q), want allowed wide by the lease", command, d, diag.Reach, diag.Lease)
	}
	if got := accessOf(&diag, diag.Reach, false).unlock; len(got) > 0 {
		t.Errorf("%q let through by a lease: unlock = %v, want none", command, got)
	}
}

// TestAskWithoutDialogUnlocksNothing: an ask the client answers without
// showing the person — Claude Code in bypassPermissions or auto, or an
// unattended terminal — is a deny that runs nothing, through the real
// Run; the person's own dialog runs it walled, with what they saw
// unlocked.
func TestAskWithoutDialogUnlocksNothing(t *testing.T) {
	const launcher = "/opt/sayso/sayso-wall"
	walls := Walls{Launcher: launcher, Home: "/home/user"}
	decide := func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
		d, diag := policy.Evaluate(policy.Request{Command: s.Command, Mode: policy.ModeAuto, Wall: walls.State(),
			Context: risk.Context{Root: "/home/user/project", Cwd: "/home/user/project", Home: "/home/user"}})
		return d, diag, nil
	}
	for _, tt := range []struct {
		mode     string
		unlocked bool
	}{{"default", true}, {"bypassPermissions", false}, {"auto", false}} {
		in, _ := json.Marshal(map[string]any{
			"session_id": "s1", "hook_event_name": "PreToolUse", "cwd": "/home/user/project", "permission_mode": tt.mode,
			"tool_name": "Bash", "tool_input": map[string]string{"command": "echo hi >> CLAUDE.md"},
		})
		res := Run(context.Background(), Claude{}, in, Env{Getenv: attended, Home: "/home/user"}, decide, walls)
		out := string(res.Stdout)
		if !tt.unlocked {
			if !strings.Contains(out, `"permissionDecision":"deny"`) || strings.Contains(out, launcher) {
				t.Errorf("%s: want a deny, not rewritten: %s", tt.mode, out)
			}
			continue
		}
		if !strings.Contains(out, `"permissionDecision":"ask"`) || !strings.Contains(out, launcher) {
			t.Fatalf("%s: want a walled ask: %s", tt.mode, out)
		}
		// the line unlocks CLAUDE.md by leaving it out of --ro
		if got := !strings.Contains(out, "--ro /home/user/project/CLAUDE.md"); got != tt.unlocked {
			t.Errorf("%s: CLAUDE.md unlocked = %v, want %v", tt.mode, got, tt.unlocked)
		}
	}
}

// TestCredentialAccess: a step made only of tools sayso knows to need the
// person's credentials, and of programs that only read, gets exactly
// those; the project's code beside them, a wrapper, an assignment or a
// program sayso does not know leaves every credential hidden.
func TestCredentialAccess(t *testing.T) {
	for _, tt := range []struct {
		command string
		want    []string
	}{
		{"git fetch origin", []string{".cache/git/credential", ".config/gh/hosts.yml", ".config/git/credentials", ".git-credential-cache", ".git-credentials", ".gnupg", ".netrc", ".ssh"}},
		{"git pull --ff-only && git log -1", []string{".cache/git/credential", ".config/gh/hosts.yml", ".config/git/credentials", ".git-credential-cache", ".git-credentials", ".gnupg", ".netrc", ".ssh"}},
		{"git commit -m x", []string{".cache/git/credential", ".config/gh/hosts.yml", ".config/git/credentials", ".git-credential-cache", ".git-credentials", ".gnupg", ".netrc", ".ssh"}},
		{"docker pull registry.example/app:1", []string{".docker/config.json"}},
		{"gh pr list | head -5", []string{".config/gh/hosts.yml", ".ssh"}},
		{"aws s3 ls", []string{".aws"}},
		{"kubectl get pods", []string{".kube/config"}},
		{"ls -la", nil},
		{"go test ./...", nil},
		{"git fetch && python3 tools/x.py", nil},
		{"GIT_SSH_COMMAND='sh x.sh' git fetch", nil},
		{"bash -c 'git fetch'", nil},
		{"xargs git fetch < remotes", nil},
		{"npm install", nil},
	} {
		req := policy.Request{Command: tt.command, Mode: policy.ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}}
		_, diag := policy.Evaluate(req)
		if got := accessOf(&diag, policy.ReachProject, false).creds; !slices.Equal(got, tt.want) {
			t.Errorf("%q: credentials = %q, want %q", tt.command, got, tt.want)
		}
	}
}

// TestCredentialHooks: a git step gets git's credentials only where no
// hook can run: a hook runs the project's code, which would read them.
func TestCredentialHooks(t *testing.T) {
	home := t.TempDir()
	walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home}
	granted := func(root, command string) []string {
		t.Helper()
		_, diag := policy.Evaluate(policy.Request{Command: command, Mode: policy.ModeAuto, Context: risk.Context{Root: root, Home: home}})
		p := wrappedProfile(t, walls, root, command, accessOf(&diag, policy.ReachProject, false))
		var out []string
		for _, c := range []string{".ssh", ".aws", ".config/gh/hosts.yml"} {
			if !slices.Contains(p.Hidden, filepath.Join(home, c)) {
				out = append(out, c)
			}
		}
		if len(out) > 0 != p.Secrets {
			t.Errorf("%q: credentials %q, secrets kept = %v", command, out, p.Secrets)
		}
		return out
	}
	repo := func(hook bool) string {
		files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/config": "[core]\n\tbare = false\n"}
		if hook {
			files[".git/hooks/post-merge"] = "#!/bin/sh\nsh scripts/after.sh\n"
		}
		return projectWith(t, files)
	}
	if got := granted(repo(false), "git fetch origin"); !slices.Equal(got, []string{".ssh", ".config/gh/hosts.yml"}) {
		t.Errorf("git fetch, no hook: credentials %q; want .ssh and gh's token", got)
	}
	if got := granted(repo(true), "git pull"); len(got) != 0 {
		t.Errorf("git pull where a hook runs: credentials %q; want none", got)
	}
	if got := granted(repo(true), "aws s3 ls"); !slices.Equal(got, []string{".aws"}) {
		t.Errorf("aws s3 ls: credentials %q; want .aws", got)
	}
	if got := granted(repo(false), "go test ./..."); len(got) != 0 {
		t.Errorf("go test: credentials %q; want none", got)
	}
}

// wrappedProfile is the profile the launcher reads from the line walls
// makes of the step run in root with x.
func wrappedProfile(t *testing.T, walls Walls, root, command string, x access) wall.Profile {
	t.Helper()
	return wrappedProfileIn(t, walls, root, root, command, x)
}

// wrappedProfileIn is wrappedProfile for a step run in cwd, in root.
func wrappedProfileIn(t *testing.T, walls Walls, root, cwd, command string, x access) wall.Profile {
	t.Helper()
	line, ok := walls.wrap(Step{Kind: KindShell, Agent: "codex", Cwd: cwd, Command: command}, policy.ReachProject, x)
	if !ok {
		t.Fatal("not wrapped")
	}
	args, ok := launcherArgs(line, walls.Launcher)
	if !ok {
		t.Fatalf("no launcher in %q", line)
	}
	a, err := wall.ParseArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	return a.Profile
}

// projectWith makes a project of the files, each executable.
func projectWith(t *testing.T, files map[string]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "project")
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
