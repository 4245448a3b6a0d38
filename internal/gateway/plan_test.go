package gateway

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/wall"
)

// TestWallCarriesOutThePlan: for every golden hook input of every client,
// in each mode, decided through the gateway's request (the project read
// once) and walled by hook.Run, the walled line is the plan the core
// returned for that step, carried out and nothing else: its scope is the
// plan's reach, it writes the plan's project and work trees, hides what
// the plan hides, hands the credentials, hosts and network the plan grants
// and no more network than that.
func TestWallCarriesOutThePlan(t *testing.T) {
	files, _ := filepath.Glob("../hook/testdata/*/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden hook inputs")
	}
	walled := map[policy.Reach]int{}
	for _, mode := range []string{"ask", "auto", "autopilot"} {
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, "policy.toml"), []byte("default_mode = \""+mode+"\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		d := &Decider{DB: openTestStore(t), Home: home, ConfigDir: home, Walls: hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: home, Hidden: []string{filepath.Join(home, ".config", "sayso")}}}
		for _, file := range files {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var input []byte
			env := map[string]string{}
			for _, f := range ar.Files {
				switch f.Name {
				case "input.json":
					input = f.Data
				case "env":
					for _, kv := range strings.Fields(string(f.Data)) {
						k, v, _ := strings.Cut(kv, "=")
						env[k] = v
					}
				}
			}
			a, err := client.ForAgent(filepath.Base(filepath.Dir(file)))
			if err != nil {
				t.Fatal(err)
			}
			var planned policy.Plan
			decide := func(ctx context.Context, s client.Step) (policy.Decision, policy.Diagnostic, error) {
				dec, diag, err := d.Decide(ctx, s)
				planned = diag.Plan
				return dec, diag, err
			}
			res := hook.Run(context.Background(), a, input, client.Env{Getenv: func(k string) string { return env[k] }, Home: home}, decide, d.Walls)
			step := res.Input.Step
			if step == nil || step.Walled == "" {
				continue
			}
			name := mode + " " + strings.TrimPrefix(file, "../hook/testdata/")
			walled[planned.Reach]++
			if line, ok := d.Walls.Wrap(*step, planned); !ok || line != step.Walled {
				t.Errorf("%s: the walled line is not the core's plan carried out:\n%s\nwant\n%s", name, step.Walled, line)
			}
			carried, ok := d.Walls.Carried(step.Walled)
			if !ok {
				t.Fatalf("%s: the launcher cannot read the walled line %q", name, step.Walled)
			}
			if carried.Command != step.Command {
				t.Errorf("%s: the wall runs %q, the core decided %q", name, carried.Command, step.Command)
			}
			carriesOut(t, name, planned, carried.Profile, home)
		}
	}
	t.Logf("walled steps by reach: %v", walled)
	if walled[policy.ReachProject] == 0 || walled[policy.ReachWide] == 0 {
		t.Fatalf("walled steps by reach: %v; want both reaches carried out", walled)
	}
}

// carriesOut checks the profile the launcher reads against the plan.
func carriesOut(t *testing.T, name string, plan policy.Plan, p wall.Profile, home string) {
	t.Helper()
	scope := wall.Local
	if plan.Reach == policy.ReachWide {
		scope = wall.Approved
	}
	if p.Scope != scope {
		t.Errorf("%s: scope %v, the plan's reach is %v", name, p.Scope, plan.Reach)
	}
	if plan.Root == "" || !slices.Contains(p.Write, plan.Root) {
		t.Errorf("%s: the wall does not write the plan's project %q: %q", name, plan.Root, p.Write)
	}
	for _, wt := range plan.Worktrees {
		if !slices.Contains(p.Write, wt) {
			t.Errorf("%s: the wall does not write the work tree %s", name, wt)
		}
	}
	for _, h := range plan.Hidden {
		if !slices.Contains(p.Hidden, h) {
			t.Errorf("%s: the plan hides %s, the wall does not", name, h)
		}
	}
	for _, c := range plan.Credentials {
		if slices.Contains(p.Hidden, filepath.Join(home, c)) {
			t.Errorf("%s: the plan grants %s, the wall hides it", name, c)
		}
	}
	for _, h := range plan.Hosts {
		if !slices.Contains(p.Hosts, h) {
			t.Errorf("%s: the plan lets it reach %s, the wall does not", name, h)
		}
	}
	if p.HostNetwork != plan.HostNetwork {
		t.Errorf("%s: host network %v, the plan says %v", name, p.HostNetwork, plan.HostNetwork)
	}
	if p.Secrets != (plan.Secrets || len(plan.Credentials) > 0) {
		t.Errorf("%s: secrets kept %v, the plan grants secrets %v, credentials %q", name, p.Secrets, plan.Secrets, plan.Credentials)
	}
}
