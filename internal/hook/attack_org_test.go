package hook

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/wall"
)

// TestAttackOrgSecretInTheWall: the org's bundle protects /srv/keys and
// holds ~/.config/acme/token secret; the person's file protects
// ~/private. A step naming one is denied — but the agent can write a test
// that reads them (a Write in the project, which auto lets through) and
// run the project's tests, which auto lets through in the wall, naming
// nothing. The wall must hide them from that step, and from a step the
// person said yes to, which is handed every credential.
func TestAttackOrgSecretInTheWall(t *testing.T) {
	home := t.TempDir()
	walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home}
	root := projectWith(t, map[string]string{
		".git/HEAD":    "ref: refs/heads/main\n",
		"go.mod":       "module example.com/p\n",
		"leak_test.go": "package p\nimport (\"os\"; \"testing\")\nfunc TestLeak(t *testing.T) { b, _ := os.ReadFile(\"/srv/keys/deploy\"); t.Log(string(b)) }\n",
	})
	p := policy.Parse("policy.toml", []byte("protected_paths = [\"~/private\"]\n"))
	p.SetTeam(policy.Team{Joined: true, Org: &policy.Org{Name: "acme", Seq: 1, ModeCap: policy.ModeAutopilot,
		ProtectedPaths: []string{"/srv/keys", "~/.config/acme/token"}}})
	ctx := risk.Context{Root: root, Cwd: root, Home: home}
	want := []string{"/srv/keys", filepath.Join(home, ".config/acme/token"), filepath.Join(home, "private")}
	for _, named := range []string{"cat /srv/keys/deploy", "cat ~/.config/acme/token", "cat ~/private/notes"} {
		if d, diag := policy.Evaluate(policy.Request{Command: named, Mode: policy.ModeAuto, Policy: p, Context: ctx, Wall: policy.Wall{On: true}}); d != policy.Deny {
			t.Fatalf("%q: %v, want deny: the paths are not protected, so the test proves nothing\n%v", named, d, diag.Reasons)
		}
	}
	const command = "go test ./..."
	req := policy.Request{Command: command, Mode: policy.ModeAuto, Policy: p, Context: ctx, Wall: policy.Wall{On: true}}
	d, diag := policy.Evaluate(req)
	if d != policy.Allow {
		t.Fatalf("%q in auto: %v, want it let through in the wall\n%v", command, d, diag.Reasons)
	}
	check := func(what string, prof wall.Profile) {
		t.Helper()
		for _, w := range want {
			if !slices.Contains(prof.Hidden, w) {
				t.Errorf("%s: %s is not hidden from %q, which reads it without naming it (hidden: %q)", what, w, command, prof.Hidden)
			}
		}
	}
	check("let through by auto", wrappedProfile(t, walls, root, command, diag.Plan))
	// The person's yes in the client's own dialog.
	req.Dialog, diag.Reach = true, policy.ReachWide
	line, ok := walls.Wrap(Step{Kind: KindShell, Agent: "codex", Cwd: root, Command: command}, policy.PlanOf(policy.Ask, &diag, &req))
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
	if !a.Profile.Secrets {
		t.Fatal("the step the person said yes to is not handed the credentials: the case is not the one meant")
	}
	check("the person's yes", a.Profile)
}
