package policy

import (
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

// TestNoWallNoAuto: where the wall cannot be applied, auto and autopilot
// let only reading through on their own; the person's explicit say-so
// still counts, and only the person's own file can turn this off.
func TestNoWallNoAuto(t *testing.T) {
	off := Wall{Why: "no Landlock in this kernel"}
	on := Wall{On: true}
	optOut := parsed(t, "auto_without_wall = true")
	allowEntry := parsed(t, "[[allow]]\ncommand = \"terraform fmt -recursive\"")
	write := []byte(`{"file_path":"/home/user/project/a.go","content":"x"}`)
	for _, tt := range []struct {
		name  string
		req   Request
		want  Decision
		reach Reach
	}{
		{"walled local work in auto", Request{Command: "go test ./...", Mode: ModeAuto, Wall: on}, Allow, ReachProject},
		{"unwalled local work in auto asks", Request{Command: "go test ./...", Mode: ModeAuto, Wall: off}, Ask, ReachWide},
		{"unwalled reading in auto", Request{Command: "cat go.mod", Mode: ModeAuto, Wall: off}, Allow, ReachProject},
		{"unwalled autopilot asks", Request{Command: "touch /srv/x", Mode: ModeAutopilot, Wall: off}, Ask, ReachWide},
		{"walled autopilot reaches wide", Request{Command: "touch /srv/x", Mode: ModeAutopilot, Wall: on}, Allow, ReachWide},
		{"the person's opt-out", Request{Command: "go test ./...", Mode: ModeAuto, Wall: off, Policy: optOut}, Allow, ReachProject},
		{"the person's allow entry", Request{Command: "terraform fmt -recursive", Mode: ModeAuto, Wall: off, Policy: allowEntry}, Allow, ReachWide},
		{"a file tool needs no wall", Request{Tool: "Write", Use: risk.ReadUse("Write", write), Mode: ModeAuto, Wall: off}, Allow, ReachNone},
		{"a ceiling asks walled wide", Request{Command: "git push origin main", Mode: ModeAuto, Wall: on}, Ask, ReachWide},
		{"a denial wraps nothing", Request{Command: "cat ~/.local/state/sayso/sayso.db", Mode: ModeAuto, Wall: on}, Deny, ReachNone},
		{"ask mode reading", Request{Command: "ls", Mode: ModeAsk, Wall: on}, Allow, ReachProject},
	} {
		tt.req.Context = testContext
		tt.req.Now = now
		got, diag := Evaluate(tt.req)
		if got != tt.want || diag.Reach != tt.reach {
			t.Errorf("%s: %q = %v reach %v, want %v reach %v\n%s", tt.name, tt.req.Command, got, diag.Reach, tt.want, tt.reach, strings.Join(diag.Reasons, "\n"))
		}
		if tt.req.Wall == off && got == Ask && tt.req.Mode != ModeAsk && !strings.Contains(strings.Join(diag.Reasons, " "), "no Landlock in this kernel") {
			t.Errorf("%s: the reasons do not say why there is no wall: %q", tt.name, diag.Reasons)
		}
	}
}

// TestNoWallOptOutOnlyInPersonFile: a project's file cannot let auto run
// without the wall.
func TestNoWallOptOutOnlyInPersonFile(t *testing.T) {
	pol := Load(Files{Person: "/c/policy.toml", Root: "/p", ReadFile: func(name string) ([]byte, error) {
		if name == "/p/.sayso/policy.toml" {
			return []byte("auto_without_wall = true\n"), nil
		}
		return nil, errNotExist
	}})
	if pol.AutoWithoutWall {
		t.Fatal("the project's file turned the wall requirement off")
	}
	got, _ := Evaluate(Request{Command: "go test ./...", Mode: ModeAuto, Policy: pol, Context: testContext, Now: now, Wall: Wall{Why: "none"}})
	if got != Ask {
		t.Errorf("unwalled local work with the project's opt-out = %v, want ask", got)
	}
}

// TestEgressHostsNoLoopback: a walled step's egress never holds the
// host's loopback, however it is spelt, though the trusted hosts do: the
// project's remotes are trusted, and a remote at 0.0.0.0 (a connect
// there reaches the loopback) is one git remote add away.
func TestEgressHostsNoLoopback(t *testing.T) {
	remotes := RemoteHosts([]byte("[remote \"x\"]\n\turl = http://0.0.0.0:8080/r.git\n[remote \"y\"]\n\turl = http://[::ffff:127.0.0.1]:8080/r.git\n"))
	if len(remotes) != 2 {
		t.Fatalf("RemoteHosts = %v, want the two remotes' hosts", remotes)
	}
	trusted := append([]string{"registry.npmjs.org", "localhost", "LOCALHOST.", "127.0.0.2", "::", "[::1]", "0:0:0:0:0:0:0:1"}, remotes...)
	got := egressHosts(trusted)
	if len(got) != 1 || got[0] != "registry.npmjs.org" {
		t.Errorf("egressHosts(%v) = %v, want the registry alone", trusted, got)
	}
}

// TestPartialWall: inside a client's sandbox only Landlock of the wall
// holds, so auto and autopilot let through reading and the writes sayso
// reads on the command line, and ask about code it does not read; the
// person's say-so and a lease for one action still count.
func TestPartialWall(t *testing.T) {
	partial := Wall{On: true, Partial: true, Why: "the step runs in the client's workspace-write sandbox"}
	allowEntry := parsed(t, "[[allow]]\ncommand = \"terraform fmt -recursive\"")
	for _, tt := range []struct {
		name string
		req  Request
		want Decision
	}{
		{"reading", Request{Command: "cat go.mod", Mode: ModeAuto, Wall: partial}, Allow},
		{"a write sayso reads", Request{Command: "echo x > notes.txt", Mode: ModeAuto, Wall: partial}, Allow},
		{"a removal sayso reads", Request{Command: "rm notes.txt", Mode: ModeAuto, Wall: partial}, Allow},
		{"folders", Request{Command: "mkdir -p a/b && touch a/b/c", Mode: ModeAuto, Wall: partial}, Allow},
		{"the project's code", Request{Command: "sh tools/x.sh", Mode: ModeAuto, Wall: partial}, Ask},
		{"a build", Request{Command: "go test ./...", Mode: ModeAuto, Wall: partial}, Ask},
		{"git, whose hooks run", Request{Command: "git commit -m x", Mode: ModeAuto, Wall: partial}, Ask},
		{"a write beside code", Request{Command: "echo x > a.txt && make", Mode: ModeAuto, Wall: partial}, Ask},
		{"autopilot", Request{Command: "make", Mode: ModeAutopilot, Wall: partial}, Ask},
		{"the person's allow entry", Request{Command: "terraform fmt -recursive", Mode: ModeAuto, Wall: partial, Policy: allowEntry}, Allow},
		{"the whole wall", Request{Command: "sh tools/x.sh", Mode: ModeAuto, Wall: Wall{On: true}}, Allow},
	} {
		tt.req.Context = testContext
		tt.req.Now = now
		got, diag := Evaluate(tt.req)
		if got != tt.want {
			t.Errorf("%s: %q = %v, want %v\n%s", tt.name, tt.req.Command, got, tt.want, strings.Join(diag.Reasons, "\n"))
		}
		if tt.req.Wall.Partial && got == Ask && tt.req.Mode != ModeAsk && !strings.Contains(strings.Join(diag.Reasons, " "), "only partly there (the step runs in the client's workspace-write sandbox)") {
			t.Errorf("%s: the reasons do not say the wall is partly there: %q", tt.name, diag.Reasons)
		}
	}
}
