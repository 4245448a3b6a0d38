package hook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/project"
	"github.com/sayso-dev/sayso/internal/risk"
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
		a     client.Adapter
		event string
		d     policy.Decision
		path  []string // where the rewritten command must be
		kept  string   // another field of the input that must be kept, if the client replaces the whole input
	}{
		{client.Claude{}, "PreToolUse", policy.Allow, []string{"hookSpecificOutput", "updatedInput", "command"}, "description"},
		{client.Claude{}, "PreToolUse", policy.Ask, []string{"hookSpecificOutput", "updatedInput", "command"}, "description"},
		{client.Codex{}, "PreToolUse", policy.Allow, []string{"hookSpecificOutput", "updatedInput", "command"}, "description"},
		{client.Gemini{}, "BeforeTool", policy.Allow, []string{"hookSpecificOutput", "tool_input", "command"}, ""},
	} {
		res := tt.a.Answer(client.Input{Event: tt.event, Step: step()}, tt.d, "sayso: r")
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
	for _, a := range []client.Adapter{client.Claude{}, client.Codex{}, client.Gemini{}} {
		event := "PreToolUse"
		if a.Name() == "gemini" {
			event = "BeforeTool"
		}
		res := a.Answer(client.Input{Event: event, Step: step()}, policy.Deny, "sayso: r")
		if containsKey(res.Stdout, "WALLED") {
			t.Errorf("%s: a denial carries the rewrite: %s", a.Name(), res.Stdout)
		}
	}
	// An ask where Claude Code shows the person no dialog is a deny, and
	// a deny is never rewritten.
	headless := step()
	headless.Dialog = false
	res := client.Claude{}.Answer(client.Input{Event: "PreToolUse", Step: headless}, policy.Ask, "sayso: r")
	if containsKey(res.Stdout, "WALLED") || !containsKey(res.Stdout, `"permissionDecision":"deny"`) || res.Decision != policy.Deny {
		t.Errorf("claude: an ask nobody can answer is not a plain deny: %s", res.Stdout)
	}
}

func containsKey(b []byte, s string) bool { return strings.Contains(string(b), s) }

// TestNoWallNothingWrapped: without a launcher nothing is rewritten and the
// decision is told why.
func TestNoWallNothingWrapped(t *testing.T) {
	w := Walls{Off: "no launcher"}
	if _, ok := w.Wrap(Step{Kind: KindShell, Command: "ls"}, policy.Plan{Reach: policy.ReachProject, Root: "/home/user/project"}); ok {
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
			line, ok := w.Wrap(s, policy.Plan{Reach: reach, Root: home})
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

// TestGitConfigHooks: a git step may write the repository's configuration
// only where no hook can run: a hook (a person's .git/hooks/pre-commit,
// husky's hooksPath) runs code of the project's, which the agent writes,
// and would plant core.fsmonitor there for the person's next git command.
func TestGitConfigHooks(t *testing.T) {
	home := t.TempDir()
	walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home}
	configWritable := func(root string) bool {
		t.Helper()
		const command = "git commit -m x && git branch -m a b"
		req := requestIn(home, root, command)
		_, diag := policy.Evaluate(req)
		plan := planAt(diag, req, policy.ReachProject)
		if len(diag.Assessment.GitConfig) == 0 {
			t.Fatalf("%q writes no key of the repository's configuration: the case is not the one meant", command)
		}
		p := wrappedProfile(t, walls, root, command, plan)
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

// TestAskWithoutDialogUnlocksNothing: an ask the client answers without
// showing the person — Claude Code in bypassPermissions or auto, or an
// unattended terminal — is a deny that runs nothing, through the real
// Run; the person's own dialog runs it walled, with what they saw
// unlocked.
func TestAskWithoutDialogUnlocksNothing(t *testing.T) {
	const launcher = "/opt/sayso/sayso-wall"
	walls := Walls{Launcher: launcher, Home: "/home/user"}
	decide := func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
		d, diag := policy.Evaluate(policy.Request{Command: s.Command, Mode: policy.ModeAuto, Wall: walls.State(), Dialog: s.Dialog,
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
		res := Run(context.Background(), client.Claude{}, in, client.Env{Getenv: attended, Home: "/home/user"}, decide, walls)
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

// TestCredentialHooks: a git step gets git's credentials only where no
// hook can run: a hook runs the project's code, which would read them.
func TestCredentialHooks(t *testing.T) {
	home := t.TempDir()
	walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home}
	granted := func(root, command string) []string {
		t.Helper()
		req := requestIn(home, root, command)
		_, diag := policy.Evaluate(req)
		p := wrappedProfile(t, walls, root, command, planAt(diag, req, policy.ReachProject))
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
// makes of the step run in cwd, as the plan says.
func wrappedProfile(t *testing.T, walls Walls, cwd, command string, plan policy.Plan) wall.Profile {
	t.Helper()
	line, ok := walls.Wrap(Step{Kind: KindShell, Agent: "codex", Cwd: cwd, Command: command}, plan)
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

// requestIn is the request for command run in auto in folder cwd, with
// the wall on, built as the gateway builds it: the project read once.
func requestIn(home, cwd, command string) policy.Request {
	proj := project.Read(cwd, home)
	return policy.Request{Command: command, Mode: policy.ModeAuto, Wall: policy.Wall{On: true}, Project: proj, Context: proj.Context(risk.Context{Cwd: cwd, Home: home})}
}

// planAt is the core's plan for the step decided with diag, let through
// at reach.
func planAt(diag policy.Diagnostic, req policy.Request, reach policy.Reach) policy.Plan {
	diag.Reach = reach
	return policy.PlanOf(policy.Allow, &diag, &req)
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
