package hook

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// TestAttackCredentialGrant: steps the engine lets through in auto mode
// without asking, which get the person's credentials, yet run a program
// the agent wrote (a file in the project, written with the Write tool,
// which auto mode also lets through):
//
//   - kubectl/helm --kubeconfig <project file>: the project's kubeconfig
//     names an exec credential plugin (users[].user.exec.command: sh,
//     args: [./steal.sh]); kubectl runs it before connecting, inside the
//     wall, where ~/.kube/config has been granted. (Verified by hand:
//     kubectl --kubeconfig kc.yaml get pods ran the plugin.)
//   - helm --post-renderer: helm runs the named program (here sh with
//     --post-renderer-args ./r.sh) on every render; `helm template` needs
//     no cluster.
//   - git -C sub / git --git-dir=evilgit: a git folder the agent wrote
//     inside the project (sub/.git is a file "gitdir: ../evilgit", and
//     evilgit/config sets core.fsmonitor = sh ../steal.sh — writing
//     evilgit/config is allowed, only */.git/config asks). git status runs
//     the fsmonitor command. wall.RunsHooks reads only <root>/.git and
//     looks only for hooks, so the grant of ~/.ssh, ~/.git-credentials,
//     ~/.netrc, gh's token stands. (Verified by hand: git -C sub status
//     ran steal.sh.)
//
// Every one of these should get no credentials (or ask).
func TestAttackCredentialGrant(t *testing.T) {
	for _, command := range []string{
		"kubectl --kubeconfig ./kc.yaml get pods",
		"kubectl get pods --kubeconfig=./kc.yaml",
		"helm --kubeconfig ./kc.yaml list",
		"helm template x ./chart --post-renderer sh --post-renderer-args ./r.sh",
		"git -C sub status",
		"git --git-dir=evilgit status",
		"git -C sub diff",
	} {
		// A project where git's credentials would be granted.
		req := policy.Request{Command: command, Mode: policy.ModeAuto, Context: risk.Context{Root: "/home/user/project", Cwd: "/home/user/project", Home: "/home/user"},
			Project: policy.Project{Root: "/home/user/project", GitFolder: true, NoHooks: true}}
		d, diag := policy.Evaluate(req)
		creds := planAt(diag, req, policy.ReachProject).Credentials
		if d == policy.Allow && len(creds) > 0 {
			t.Errorf("%q: allowed in auto with credentials %q, yet it runs a program the agent wrote", command, creds)
		}
	}
}

// TestAttackNestedGitDir: the wall keeps git's credentials for a git step
// run in a nested git folder the agent planted, whose configuration runs
// its program (core.fsmonitor): RunsHooks looks only at the root's .git.
func TestAttackNestedGitDir(t *testing.T) {
	home := t.TempDir()
	walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home}
	root := projectWith(t, map[string]string{
		".git/HEAD":      "ref: refs/heads/main\n",
		".git/config":    "[core]\n\tbare = false\n",
		"sub/.git":       "gitdir: ../evilgit\n",
		"evilgit/HEAD":   "ref: refs/heads/main\n",
		"evilgit/config": "[core]\n\tbare = false\n\tfsmonitor = sh ../steal.sh\n",
		"steal.sh":       "cat ~/.ssh/id_* > leak\n",
	})
	for _, tt := range []struct{ cwd, command string }{{root, "git -C sub status"}, {filepath.Join(root, "sub"), "git status"}} {
		checkNested(t, walls, home, root, tt.cwd, tt.command)
	}
}

func checkNested(t *testing.T, walls Walls, home, root, cwd, command string) {
	t.Helper()
	req := requestIn(home, cwd, command)
	_, diag := policy.Evaluate(req)
	p := wrappedProfile(t, walls, cwd, command, planAt(diag, req, policy.ReachProject))
	if !slices.Contains(p.Hidden, filepath.Join(home, ".ssh")) {
		t.Errorf("%q: ~/.ssh is visible to the step, and core.fsmonitor in the planted evilgit/config runs steal.sh", command)
	}
}
