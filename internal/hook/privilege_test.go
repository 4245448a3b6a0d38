package hook

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// TestPrivilegeOutsideWall: a step that gains root runs outside the wall
// only on the person's say-so for exactly it — asked, or a lease covering
// that one command — since no setuid program works inside; a mode never
// lets it through, and a lease never carries other work out with it.
func TestPrivilegeOutsideWall(t *testing.T) {
	const launcher = "/opt/sayso/sayso-wall"
	walls := Walls{Launcher: launcher, Home: "/home/user"}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	lease := policy.Lease{ID: "1", Category: risk.Privilege, Session: "s1", Turn: "t1", Epoch: 1, Cwd: "/home/user/project", Expires: now.Add(time.Hour)}
	for _, tt := range []struct {
		command string
		lease   bool
		review  bool
		want    policy.Decision
		walled  bool
	}{
		{"ls", false, false, policy.Allow, true},
		{"sudo apt-get install -y jq", false, false, policy.Ask, false},
		{"sudo apt-get install -y jq && python3 tools/x.py", false, false, policy.Ask, false},
		{"sudo apt-get install -y jq", true, false, policy.Allow, false},
		{"sudo apt-get install -y jq && python3 tools/x.py", true, false, policy.Allow, true},
		{"sudo apt-get install -y $(python3 tools/x.py)", true, false, policy.Ask, false},
		{"sudo echo '[core] fsmonitor = /tmp/e' >> .git/config", true, false, policy.Ask, false},
		{"sudo echo 'x' > .git/hooks/pre-commit", true, false, policy.Ask, false},
		{"sudo echo 'x' > .husky/pre-commit", true, false, policy.Ask, false},
		{"sudo echo 'x' > .envrc", true, false, policy.Ask, false},
		// The project's code beside the leased command, in the same
		// segment, keeps the whole step walled.
		{"sudo apt-get install -y jq < <(python3 tools/x.py)", true, false, policy.Allow, true},
		{"sudo tee /etc/x.conf <<< \"$(python3 tools/x.py)\"", true, false, policy.Ask, false},
		{"sudo apt-get install -y `python3 tools/x.py`", true, false, policy.Ask, false},
		{"sudo apt-get install -y jq 2> >(python3 tools/x.py)", true, false, policy.Allow, true},
		// The leased command running the project's code — a script, a
		// build — runs walled: the lease lifts sudo, not the wall.
		{"sudo ./tools/x.sh", true, false, policy.Allow, true},
		{"sudo python3 tools/x.py", true, false, policy.Allow, true},
		{"sudo -u user bash tools/x.sh", true, false, policy.Allow, true},
		{"sudo make install", true, false, policy.Allow, true},
		// A package tool handed a program, a configuration or a package
		// file runs the project's code as root: walled.
		{"sudo apt-get -o APT::Update::Pre-Invoke::=./evil update", true, false, policy.Allow, true},
		{"sudo apt-get -c ./apt.conf install -y jq", true, false, policy.Allow, true},
		{"sudo apt-get install -y ./build/x.deb", true, false, policy.Allow, true},
		{"sudo dpkg -i x.deb", true, false, policy.Allow, true},
		{"sudo dnf --setopt=pluginpath=./p install -y jq", true, false, policy.Allow, true},
		{"sudo apt-get install -y --no-install-recommends jq", true, false, policy.Allow, false},
		// sudo looked up in a PATH the step sets is the project's program.
		{"PATH=./bin:$PATH sudo apt-get install -y jq", true, false, policy.Ask, false},
		{"./bin/sudo apt-get install -y jq", true, false, policy.Allow, true},
		{"~/bin/sudo apt-get install -y jq", true, false, policy.Allow, true},
		{"/usr/bin/sudo apt-get install -y jq", true, false, policy.Allow, false},
		// The reviewer is not the person: what it waives runs walled.
		{"sudo apt-get install -y jq", false, true, policy.Allow, true},
	} {
		tt := tt
		decide := func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
			req := policy.Request{
				Command: s.Command, Mode: policy.ModeAuto, Now: now, Wall: walls.State(), Dialog: s.Dialog,
				Context: risk.Context{Root: "/home/user/project", Cwd: "/home/user/project", Home: "/home/user"},
				Session: policy.Session{ID: "s1", Turn: "t1", Epoch: 1, Current: true},
			}
			if tt.lease {
				req.Leases = []policy.Lease{lease}
			}
			if tt.review {
				req.Review = policy.Review{Asked: true, Allow: true, Why: "the person asked to install jq"}
			}
			d, diag := policy.Evaluate(req)
			return d, diag, nil
		}
		// Claude Code's attended terminal, where an ask is the person's
		// dialog.
		in, _ := json.Marshal(map[string]any{
			"session_id": "s1", "hook_event_name": "PreToolUse", "cwd": "/home/user/project", "permission_mode": "default",
			"tool_name": "Bash", "tool_input": map[string]string{"command": tt.command},
		})
		res := Run(context.Background(), client.Claude{}, in, client.Env{Getenv: attended, Home: "/home/user"}, decide, walls)
		out := string(res.Stdout)
		if want := `"permissionDecision":"` + tt.want.String() + `"`; !strings.Contains(out, want) {
			t.Errorf("%q (lease %v): want %s, got %s", tt.command, tt.lease, want, out)
		}
		if got := strings.Contains(out, launcher); got != tt.walled {
			t.Errorf("%q (lease %v): walled = %v, want %v: %s", tt.command, tt.lease, got, tt.walled, out)
		}
		// Where the client answers an ask without the person's dialog —
		// bypassPermissions, its classifier, a terminal nobody attends —
		// an asked step that gains root is denied: it runs neither
		// outside the wall nor in it.
		for _, mode := range []string{"bypassPermissions", "auto", "dontAsk"} {
			in, _ := json.Marshal(map[string]any{
				"session_id": "s1", "hook_event_name": "PreToolUse", "cwd": "/home/user/project", "permission_mode": mode,
				"tool_name": "Bash", "tool_input": map[string]string{"command": tt.command},
			})
			res := Run(context.Background(), client.Claude{}, in, client.Env{Getenv: attended, Home: "/home/user"}, decide, walls)
			if out := string(res.Stdout); tt.want == policy.Ask && (!strings.Contains(out, `"permissionDecision":"deny"`) || strings.Contains(out, launcher)) {
				t.Errorf("%q in %s: an ask without the person's dialog is not a plain deny: %s", tt.command, mode, out)
			}
		}
	}
}

func attended(k string) string {
	if k == "CLAUDE_CODE_SESSION_ATTENDED" {
		return "1"
	}
	return ""
}

// TestPrivilegeAnsweredOnPage: the person allowed the card of a step that
// gains root (the decision was to ask, the page's answer allows): it runs
// as they read it, outside the wall, whatever else it holds.
func TestPrivilegeAnsweredOnPage(t *testing.T) {
	const launcher = "/opt/sayso/sayso-wall"
	walls := Walls{Launcher: launcher, Home: "/home/user"}
	decide := func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
		req := policy.Request{
			Command: s.Command, Mode: policy.ModeAuto, Wall: walls.State(), Dialog: s.Dialog,
			Context: risk.Context{Root: "/home/user/project", Cwd: "/home/user/project", Home: "/home/user"},
		}
		d, diag := policy.Evaluate(req)
		if d != policy.Ask {
			t.Fatalf("%q: %v, want ask", s.Command, d)
		}
		diag.Answered = true // the person allowed it once on its card
		diag.Plan = policy.PlanOf(policy.Allow, &diag, &req)
		return policy.Allow, diag, nil
	}
	in, _ := json.Marshal(map[string]any{
		"session_id": "s1", "hook_event_name": "PreToolUse", "cwd": "/home/user/project",
		"tool_name": "Bash", "tool_input": map[string]string{"command": "sudo apt-get install -y jq && jq --version"},
	})
	res := Run(context.Background(), client.Claude{}, in, client.Env{Getenv: func(string) string { return "" }, Home: "/home/user"}, decide, walls)
	if out := string(res.Stdout); !strings.Contains(out, `"permissionDecision":"allow"`) || strings.Contains(out, launcher) {
		t.Errorf("want allowed outside the wall: %s", out)
	}
}
