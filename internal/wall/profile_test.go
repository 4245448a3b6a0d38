package wall

import (
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

func TestFor(t *testing.T) {
	in := Inputs{Home: "/home/u", Root: "/home/u/src/p", Hidden: []string{"/home/u/.local/state/sayso", "relative/ignored"}}
	has := func(list []string, p string) bool { return slices.Contains(list, p) }
	for _, tt := range []struct {
		scope           Scope
		write, notWrite []string
	}{
		{Read, []string{"/tmp", "/dev/null"}, []string{"/home/u/src/p", "/home/u/.cache", "/"}},
		{Local, []string{"/tmp", "/home/u/src/p", "/home/u/.cache", "/home/u/go/pkg/mod"}, []string{"/home/u", "/home/u/go", "/"}},
		{Approved, []string{"/tmp", "/home/u/src/p", "/home/u/.cache"}, []string{"/home/u", "/home/u/.local", "/home/u/.local/bin", "/"}},
	} {
		in.Scope = tt.scope
		p := For(in)
		for _, w := range tt.write {
			if !has(p.Write, w) {
				t.Errorf("%s: %s not writable", tt.scope, w)
			}
		}
		for _, w := range tt.notWrite {
			if has(p.Write, w) {
				t.Errorf("%s: %s writable", tt.scope, w)
			}
		}
		for _, r := range []string{"/home/u/src/p/.claude",
			"/home/u/src/p/CLAUDE.md", "/home/u/src/p/.sayso", "/home/u/.gitconfig", "/home/u/.claude", "/home/u/.codex", "/etc/crontab"} {
			if !has(p.ReadOnly, r) {
				t.Errorf("%s: %s not read-only", tt.scope, r)
			}
		}
		for _, h := range []string{"/home/u/.local/state/sayso", "/home/u/.bashrc", "/home/u/.zshrc", "/home/u/.mozilla"} {
			if !has(p.Hidden, h) {
				t.Errorf("%s: %s not hidden", tt.scope, h)
			}
		}
		if has(p.Hidden, "relative/ignored") {
			t.Errorf("%s: a relative hidden path is kept", tt.scope)
		}
		if !has(p.Make, "/home/u/src/p/.gemini") {
			t.Errorf("%s: the project's .gemini is not made", tt.scope)
		}
		if daemon := has(p.Hidden, "/run/docker.sock"); !daemon {
			t.Errorf("%s: docker's socket hidden = %v", tt.scope, daemon)
		}
		// Codex's app-server daemon (which its terminal UI starts) runs
		// turns and commands for whoever connects to its socket.
		if daemon := has(p.Hidden, "/tmp/codex-daemon-"+strconv.Itoa(os.Getuid())); !daemon {
			t.Errorf("%s: Codex's app-server daemon hidden = %v", tt.scope, daemon)
		}
	}
	in.Scope, in.Daemons = Local, true
	if has(For(in).Hidden, "/run/docker.sock") {
		t.Errorf("Daemons: docker's socket still hidden")
	}
	// A root that is the home or / is not the project: nothing to write.
	for _, root := range []string{"/home/u", "/", "", "rel", "/home", "/etc", "/etc/ssh", "/usr/local/bin",
		"/home/u/.ssh", "/home/u/.local/bin", "/home/u/.config/systemd/user", "/var/lib/docker"} {
		p := For(Inputs{Home: "/home/u", Root: root, Scope: Local})
		if has(p.Write, root) {
			t.Errorf("root %q: written by a local step", root)
		}
		if len(p.Make) > 0 {
			t.Errorf("root %q: makes %v", root, p.Make)
		}
	}
	for _, root := range []string{"/home/u/src/p", "/srv/app", "/opt/work", "/var/www/site", "/tmp/p", "/home/u/dot.files"} {
		if p := For(Inputs{Home: "/home/u", Root: root, Scope: Local}); !has(p.Write, root) {
			t.Errorf("root %q: not written by a local step", root)
		}
	}
}

func TestFlagsRoundTrip(t *testing.T) {
	p := For(Inputs{Home: "/home/u", Root: "/srv/p q", Hidden: []string{"/srv/state"}, Scope: Local})
	a, err := ParseArgs(append(p.Flags(), "--", "echo hi"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Profile, p) || a.Command != "echo hi" || a.ReportFD != -1 {
		t.Errorf("round trip:\n got %+v\nwant %+v", a.Profile, p)
	}
}

func TestParseArgsRejects(t *testing.T) {
	for _, args := range [][]string{
		{"--write", "rel", "--", "true"},
		{"--write", "/a"},
		{"--bogus", "/a", "--", "true"},
		{"--scope", "root", "--", "true"},
		{"--scope"},
		{"--report-fd", "1", "--", "true"},
		{"--", "a", "b"},
		{"--write", "/a\x00b", "--", "true"},
	} {
		if _, err := ParseArgs(args); err == nil {
			t.Errorf("ParseArgs(%q) = nil error", args)
		}
	}
}

func TestScopeText(t *testing.T) {
	for _, s := range []Scope{Read, Local, Approved} {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Scope
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("%v: back %v, %v", s, back, err)
		}
	}
	if _, err := ParseScope("Local"); err == nil {
		t.Error("ParseScope accepts another spelling")
	}
	if _, err := Scope(7).MarshalText(); err == nil {
		t.Error("Scope(7) marshals")
	}
	var zero Scope
	if zero != Read {
		t.Error("the zero scope is not the narrowest")
	}
}

// TestQuote has real bash read each quoted word back.
func TestQuote(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		testenv.Missing(t, "bash is not installed: %v", err)
	}
	for _, s := range []string{"plain", "", "a b", "it's", "''", "$HOME", "$(id)", "`id`", "a\nb", "--", "'", "\\",
		"!!", "*", "~", "a;b", "x\n'EOF'\n", "\t", "é ☃", "\x01\x7f", "${x:-y}", "'\\''"} {
		out, err := exec.Command(bash, "-c", "printf %s "+quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("bash read quote(%q) = %s back as %q, %v", s, quote(s), out, err)
		}
	}
}

func TestLauncher(t *testing.T) {
	// The test binary has no launcher next to it.
	if p, err := Launcher(); err == nil {
		t.Errorf("Launcher() = %q, want an error", p)
	}
}

// TestForWorktrees: a Local step writes the project's other work trees as
// it writes the root, and each keeps what the root keeps; a Read step
// writes none, and a work tree that is no project (the home) is never
// written.
func TestForWorktrees(t *testing.T) {
	in := Inputs{Home: "/home/u", Root: "/home/u/src/p", Worktrees: []string{"/home/u/src/p-fix", "/home/u", "relative"}, Scope: Local}
	p := For(in)
	if !slices.Contains(p.Write, "/home/u/src/p-fix") {
		t.Errorf("local: the work tree /home/u/src/p-fix not writable: %q", p.Write)
	}
	if slices.Contains(p.Write, "/home/u") || slices.Contains(p.Write, "relative") {
		t.Errorf("local: a work tree that is no project is writable: %q", p.Write)
	}
	for _, r := range []string{"/home/u/src/p-fix/CLAUDE.md", "/home/u/src/p-fix/.claude", "/home/u/src/p-fix/.sayso", "/home/u/src/p-fix/.vscode"} {
		if !slices.Contains(p.ReadOnly, r) {
			t.Errorf("local: %s not read-only", r)
		}
	}
	in.Scope = Read
	if p := For(in); slices.Contains(p.Write, "/home/u/src/p-fix") {
		t.Errorf("read: the work tree is writable")
	}
}
