package policy

import (
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

const hostRoot = "/home/user/projects/app"

func inContainer() *Container {
	return &Container{Mounts: []Mount{{Host: hostRoot, Target: "/work"}}}
}

// TestContainerScope holds the cases of seed 004 §3: the scope is held
// against the folder where the step runs.
func TestContainerScope(t *testing.T) {
	host := risk.Context{Root: hostRoot, Home: "/home/user", Protected: testContext.Protected}
	below := host
	below.Cwd = hostRoot + "/pkg"
	outside := host
	outside.Cwd = "/home/user/other"
	tests := []struct {
		name    string
		ctx     risk.Context
		box     *Container
		command string
		want    Decision
		cwd     string // the cwd the step is held in
	}{
		{"host root becomes /work", host, inContainer(), "touch /work/x", Allow, "/work"},
		{"below the root becomes /work/…", below, inContainer(), "touch out.txt", Allow, "/work/pkg"},
		{"outside the root stays as it came", outside, inContainer(), "touch out.txt", Ask, "/home/user/other"},
		{"the container's /tmp is in scope", host, inContainer(), "touch /tmp/build.log", Allow, "/work"},
		{"the host's /tmp is writable on the host, as in the wall", host, nil, "cp a.txt /tmp/a.txt", Allow, hostRoot},
		{"a host path in an argument asks in the container", host, inContainer(), "touch " + hostRoot + "/x", Ask, "/work"},
		{"a host path read in the container asks too", host, inContainer(), "cat " + hostRoot + "/go.mod", Ask, "/work"},
		{"the host path is in scope on the host", host, nil, "touch " + hostRoot + "/x", Allow, hostRoot},
		{"/work is out of scope on the host", host, nil, "touch /work/x", Ask, hostRoot},
		{"an invalid spec means the host", host, &Container{Mounts: []Mount{{Host: "/home/user/projects/../app", Target: "/work"}}}, "touch /work/x", Ask, hostRoot},
	}
	for _, tt := range tests {
		req := Request{Command: tt.command, Mode: ModeAuto, Context: tt.ctx, Container: tt.box, Policy: parsed(t, `projects_base = "~/projects"`)}
		got, _, diag := decided(req)
		if got != tt.want {
			t.Errorf("%s: %q = %v, want %v\n%s", tt.name, tt.command, got, tt.want, strings.Join(diag.Reasons, "\n"))
		}
		w := place(&req, req.Policy)
		if w.ctx.Cwd != tt.cwd {
			t.Errorf("%s: cwd %q, want %q", tt.name, w.ctx.Cwd, tt.cwd)
		}
	}
	// Autopilot skips scope, in a container too.
	req := Request{Command: "touch " + hostRoot + "/x", Mode: ModeAutopilot, Context: host, Container: inContainer(), Policy: parsed(t, `projects_base = "~/projects"`)}
	if got, _, _ := decided(req); got != Allow {
		t.Errorf("autopilot in a container = %v, want allow", got)
	}
}

func TestContainerValidate(t *testing.T) {
	base := "/home/user/projects"
	ok := func(host string) *Container { return &Container{Mounts: []Mount{{Host: host, Target: "/work"}}} }
	tests := []struct {
		c    *Container
		want string
	}{
		{ok(base + "/app"), ""},
		{ok(base + "/team/app"), ""},
		{ok(base), "not strictly below"},
		{ok("/home/user"), "not strictly below"},
		{ok(base + "/"), "not strictly below"},
		{ok(base + "//app"), "empty or absolute"},
		{ok(base + "/app/"), "empty or absolute"},
		{ok(base + "/./app"), "a . segment"},
		{ok(base + "/../user"), "a .. segment"},
		{ok(base + "/app/.."), "a .. segment"},
		{ok("/var/run/docker.sock"), "Docker socket"},
		{&Container{Mounts: []Mount{{Host: base + "/app", Target: "/var/run/docker.sock"}}}, "Docker socket"},
		{&Container{Mounts: []Mount{{Host: base + "/app", Target: "/work"}}, Privileged: true}, "privileged"},
		{&Container{Mounts: []Mount{{Host: base + "/app", Target: "/work"}}, Network: "host"}, "host's network"},
		{&Container{Mounts: []Mount{{Host: base + "/a", Target: "/work"}, {Host: base + "/b", Target: "/b"}}}, "exactly one mount"},
		{&Container{}, "exactly one mount"},
		{&Container{Mounts: []Mount{{Host: base + "/app", Target: "work"}}}, "clean absolute"},
		{&Container{Mounts: []Mount{{Host: base + "/app", Target: "/"}}}, "clean absolute"},
		{&Container{Mounts: []Mount{{Host: base + "/app", Target: "/tmp/w"}}}, "/tmp"},
		{ok(base + "/cfg"), "sayso's own files"},
	}
	for _, tt := range tests {
		err := tt.c.Validate(base, []string{base + "/cfg/sayso"})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("Validate(%+v) = %v, want ok", tt.c, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("Validate(%+v) = %v, want %q", tt.c, err, tt.want)
		}
	}
	if err := ok(base+"/app").Validate("", nil); err == nil {
		t.Error("no projects base accepted")
	}
}

func TestTranslate(t *testing.T) {
	for _, c := range [][3]string{
		{hostRoot, "/work", ""},
		{hostRoot + "/a/b", "/work/a/b", ""},
		{hostRoot + "x", hostRoot + "x", "a sibling with the same prefix stays"},
		{"/tmp", "/tmp", ""},
	} {
		if got := translate(c[0], hostRoot, "/work"); got != c[1] {
			t.Errorf("translate(%q) = %q, want %q %s", c[0], got, c[1], c[2])
		}
	}
}
