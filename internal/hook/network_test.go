package hook

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/wall"
)

// TestStepNetwork: what network the wall gives each decided step. Local
// work reaches the trusted hosts through the wall's proxy, in its
// session's wall, and has its refusals reported; a step granted a
// credential runs on the machine's network; a step the person approved
// reaches the hosts its command names too, runs in a wall of its own,
// and only while what it runs is as it was decided.
func TestStepNetwork(t *testing.T) {
	home := t.TempDir()
	root := projectWith(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "release.sh": "#!/bin/sh\n"})
	walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home, Sessions: "/state/walls", Ledger: "/state/sayso.sock"}
	profile := func(command string, reach policy.Reach, answered bool) wall.Profile {
		t.Helper()
		req := requestIn(home, root, command)
		req.Seen = map[string]string{filepath.Join(root, "release.sh"): "decided-sum"}
		_, diag := policy.Evaluate(req)
		diag.Answered = answered
		line, ok := walls.Wrap(Step{Kind: KindShell, Agent: "codex", Session: "sess-1", Cwd: root, Command: command}, planAt(diag, req, reach))
		if !ok {
			t.Fatalf("%q: not wrapped", command)
		}
		args, _ := launcherArgs(line, walls.Launcher)
		a, err := wall.ParseArgs(args)
		if err != nil {
			t.Fatal(err)
		}
		return a.Profile
	}

	local := profile("npm test", policy.ReachProject, false)
	if local.HostNetwork || !slices.Contains(local.Hosts, "registry.npmjs.org") || slices.Contains(local.Hosts, "localhost") {
		t.Errorf("local work: host network %v, hosts %v", local.HostNetwork, local.Hosts)
	}
	if local.Session != walls.SessionSocket("codex", "sess-1") || local.Ledger != walls.Ledger || local.SessionID != "sess-1" || len(local.Same) > 0 {
		t.Errorf("local work: session %q, ledger %q, id %q, same %v", local.Session, local.Ledger, local.SessionID, local.Same)
	}

	fetch := profile("git fetch origin", policy.ReachProject, false)
	if !fetch.HostNetwork {
		t.Errorf("a git fetch granted its credentials runs behind the proxy")
	}

	yes := profile("./release.sh https://uploads.example.com/v2", policy.ReachWide, true)
	if yes.HostNetwork || !slices.Contains(yes.Hosts, "uploads.example.com") {
		t.Errorf("an approved script: host network %v, hosts %v", yes.HostNetwork, yes.Hosts)
	}
	if yes.Session != "" {
		t.Errorf("an approved step joins its session's wall: %q", yes.Session)
	}
	if !slices.Contains(yes.Same, "decided-sum:"+filepath.Join(root, "release.sh")) {
		t.Errorf("an approved step is not held to what was decided: %v", yes.Same)
	}
	if mode := profile("./release.sh https://uploads.example.com/v2", policy.ReachWide, false); slices.Contains(mode.Hosts, "uploads.example.com") {
		t.Errorf("a step let through wide by a mode reaches the hosts its command names: %v", mode.Hosts)
	}
}

// TestApprovedReach: a step let through wide writes the project and the
// places its decision read it writing, nothing else: the release script
// behind npm run release gets no folder of the home; go install gets
// the folder it installs into; a step that only runs a script is not
// read as writing it; the person's approved_writes widen every such
// step, and a step a mode let through within the project none.
func TestApprovedReach(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{"go/bin", ".local/bin", "notes"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root := projectWith(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "package.json": `{"scripts":{"release":"node scripts/release.js"}}`,
		"scripts/release.js": "", "build/x": ""})
	walls := Walls{Launcher: "/opt/sayso/sayso-wall", Home: home}
	profile := func(command string, reach policy.Reach, widen ...string) wall.Profile {
		t.Helper()
		req := requestIn(home, root, command)
		_, diag := policy.Evaluate(req)
		diag.Answered = true
		diag.ApprovedWrites = widen
		line, ok := walls.Wrap(Step{Kind: KindShell, Agent: "codex", Session: "s", Cwd: root, Command: command}, planAt(diag, req, reach))
		if !ok {
			t.Fatalf("%q: not wrapped", command)
		}
		args, _ := launcherArgs(line, walls.Launcher)
		a, err := wall.ParseArgs(args)
		if err != nil {
			t.Fatal(err)
		}
		return a.Profile
	}
	local := profile("npm run release", policy.ReachProject)
	beyond := func(p wall.Profile) []string { // what it writes beyond local work
		var out []string
		for _, w := range p.Write {
			if !slices.Contains(local.Write, w) {
				out = append(out, w)
			}
		}
		return out
	}
	if p := profile("npm run release", policy.ReachWide); len(beyond(p)) > 0 || !slices.Contains(p.Write, root) || slices.Contains(p.Write, "/") {
		t.Errorf("npm run release, approved: writes %v", p.Write)
	}
	if p := profile("go install golang.org/x/tools/gopls@latest", policy.ReachWide); !slices.Contains(p.Write, filepath.Join(home, "go", "bin")) || slices.Contains(p.Write, filepath.Join(home, ".local", "bin")) {
		t.Errorf("go install, approved: writes %v", p.Write)
	}
	if p := profile("sed -i s/a/b/ "+filepath.Join(home, "notes", "todo.txt"), policy.ReachWide); !slices.Contains(p.Write, filepath.Join(home, "notes")) {
		t.Errorf("sed -i of a file of the home, approved: writes %v", p.Write)
	}
	if p := profile("bash "+filepath.Join(home, ".local", "bin", "tool"), policy.ReachWide); slices.Contains(p.Write, filepath.Join(home, ".local", "bin")) {
		t.Errorf("a script run, not written, opened its folder: %v", p.Write)
	}
	if p := profile("npm run release", policy.ReachWide, filepath.Join(home, "notes")); !slices.Contains(p.Write, filepath.Join(home, "notes")) {
		t.Errorf("approved_writes: writes %v", p.Write)
	}
	if p := profile("npm test", policy.ReachProject, filepath.Join(home, "notes")); slices.Contains(p.Write, filepath.Join(home, "notes")) {
		t.Errorf("local work widened by approved_writes: %v", p.Write)
	}
}
