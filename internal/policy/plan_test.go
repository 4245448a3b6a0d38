package policy

import (
	"slices"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

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
		req := Request{Command: tt.command, Mode: ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}}
		_, diag := Evaluate(req)
		if got := grants(&diag, ReachProject, false).GitConfig; got != tt.want {
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
		reach   Reach
		want    string
	}{
		{"git config --global user.email a@b", ReachWide, "/home/user/.gitconfig"},
		{`echo "Host x" >> ~/.ssh/config`, ReachWide, "/home/user/.ssh/config"},
		{"echo hi >> CLAUDE.md", ReachWide, "/home/user/project/CLAUDE.md"},
		{"echo hi >> CLAUDE.md", ReachProject, ""},
		{"echo hi > notes.txt", ReachWide, "/home/user/project/notes.txt"},
		{"echo hi > notes.txt", ReachProject, ""},
	} {
		req := Request{Command: tt.command, Mode: ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}}
		_, diag := Evaluate(req)
		got := grants(&diag, tt.reach, true).Unlock
		if tt.want == "" && len(got) > 0 || tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("%q at %v: unlock = %v, want %q", tt.command, tt.reach, got, tt.want)
		}
	}
	// The reviewer waiving the ceiling is not the person: it unlocks
	// nothing, though the step runs wide.
	for _, command := range []string{`echo "Host *" >> ~/.ssh/config`, "echo hi >> CLAUDE.md"} {
		req := Request{Command: command, Mode: ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"},
			Review: Review{Asked: true, Allow: true, Why: "the person asked for it"}}
		d, diag := Evaluate(req)
		if d != Allow || diag.Reach != ReachWide {
			t.Fatalf("%q: %v at %v, want allowed wide by the reviewer", command, d, diag.Reach)
		}
		if got := grants(&diag, diag.Reach, false).Unlock; len(got) > 0 {
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
		_, diag := Evaluate(Request{Command: tt.command, Mode: ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}})
		if got := grants(&diag, ReachWide, true).Unlock; !slices.Contains(got, tt.want) {
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
		req := Request{Command: command, Mode: ModeAutopilot, Wall: Wall{On: true}, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}}
		d, diag := Evaluate(req)
		if d != Allow || diag.Reach != ReachWide {
			t.Fatalf("%q: %v at %v, want allowed wide by autopilot", command, d, diag.Reach)
		}
		if got := grants(&diag, diag.Reach, false).Unlock; len(got) > 0 {
			t.Errorf("%q allowed by autopilot: unlock = %v, want none", command, got)
		}
	}
}

// TestLeaseUnlocksNothing: a lease lifts its one action; in autopilot the
// step runs wide, but what else it names as written no one saw.
func TestLeaseUnlocksNothing(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	lease := Lease{ID: "1", Category: risk.Privilege, Session: "s1", Turn: "t1", Epoch: 1, Cwd: "/home/user/project", Expires: now.Add(time.Hour)}
	command := "sudo apt-get install -y jq; echo x > ~/.config/gh/config.yml"
	d, diag := Evaluate(Request{
		Command: command, Mode: ModeAutopilot, Now: now, Wall: Wall{On: true},
		Context: risk.Context{Root: "/home/user/project", Cwd: "/home/user/project", Home: "/home/user"},
		Session: Session{ID: "s1", Turn: "t1", Epoch: 1, Current: true}, Leases: []Lease{lease},
	})
	if d != Allow || diag.Lease == "" || diag.Reach != ReachWide {
		t.Fatalf("%q: %v at %v (lease %q), want allowed wide by the lease", command, d, diag.Reach, diag.Lease)
	}
	if got := grants(&diag, diag.Reach, false).Unlock; len(got) > 0 {
		t.Errorf("%q let through by a lease: unlock = %v, want none", command, got)
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
		req := Request{Command: tt.command, Mode: ModeAuto, Context: risk.Context{Root: "/home/user/project", Home: "/home/user"}}
		_, diag := Evaluate(req)
		if got := grants(&diag, ReachProject, false).Credentials; !slices.Equal(got, tt.want) {
			t.Errorf("%q: credentials = %q, want %q", tt.command, got, tt.want)
		}
	}
}

// TestPlanOf: the plan follows the decision — nothing for a deny, the
// person's yes in the client's dialog for an ask, outside the wall for
// root privilege on the person's say-so — and the project read once:
// git's credentials only at the root of a project whose .git is a
// folder and where no hook runs, the repository's configuration only
// where no hook runs.
func TestPlanOf(t *testing.T) {
	const root = "/home/user/project"
	quiet := Project{Root: root, GitFolder: true, NoHooks: true}
	for _, tt := range []struct {
		name    string
		command string
		d       Decision
		dialog  bool
		dir     string
		project Project
		check   func(Plan) bool
	}{
		{"deny", "ls", Deny, false, "", quiet, func(p Plan) bool { return p.Reach == ReachNone && !p.Outside }},
		{"ask, dialog", "echo hi >> CLAUDE.md", Ask, true, "", quiet, func(p Plan) bool {
			return p.Reach == ReachWide && p.Secrets && slices.Contains(p.Unlock, root+"/CLAUDE.md")
		}},
		{"ask, no dialog", "echo hi >> CLAUDE.md", Ask, false, "", quiet, func(p Plan) bool { return p.Reach == ReachWide && !p.Secrets && len(p.Unlock) == 0 }},
		{"sudo in the dialog", "sudo apt-get install -y jq", Ask, true, "", quiet, func(p Plan) bool { return p.Outside && p.Reach == ReachNone }},
		{"fetch", "git fetch origin", Allow, false, "", quiet, func(p Plan) bool { return len(p.Credentials) > 0 && p.HostNetwork && p.Root == root }},
		{"fetch below the root", "git fetch origin", Allow, false, root + "/sub", quiet, func(p Plan) bool { return len(p.Credentials) == 0 && !p.HostNetwork }},
		{"fetch, .git a file", "git fetch origin", Allow, false, "", Project{Root: root, NoHooks: true}, func(p Plan) bool { return len(p.Credentials) == 0 }},
		{"fetch where a hook runs", "git fetch origin", Allow, false, "", Project{Root: root, GitFolder: true}, func(p Plan) bool { return len(p.Credentials) == 0 && !p.HostNetwork }},
		{"aws where a hook runs", "aws s3 ls", Allow, false, "", Project{Root: root, GitFolder: true}, func(p Plan) bool { return slices.Equal(p.Credentials, []string{".aws"}) }},
		{"branch", "git branch -m a b", Allow, false, "", quiet, func(p Plan) bool { return p.GitConfig }},
		{"branch where a hook runs", "git branch -m a b", Allow, false, "", Project{Root: root, GitFolder: true}, func(p Plan) bool { return !p.GitConfig }},
	} {
		req := Request{Command: tt.command, Mode: ModeAuto, Wall: Wall{On: true}, Dialog: tt.dialog, Dir: tt.dir, Project: tt.project,
			Context: tt.project.Context(risk.Context{Cwd: root, Home: "/home/user"})}
		_, diag := Evaluate(req)
		if tt.d != Deny && diag.Reach == ReachNone {
			diag.Reach = ReachProject
		}
		if p := PlanOf(tt.d, &diag, &req); !tt.check(p) {
			t.Errorf("%s: %q: plan %+v", tt.name, tt.command, p)
		}
	}
}
