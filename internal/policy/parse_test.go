package policy

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/rule"
)

func TestParseSettings(t *testing.T) {
	p := parsed(t, `
default_mode = "ask"
controller = "latest"
owner_words_max = 1_000
max_parallel = 2
protected_paths = ["~/vault"]
trusted_hosts = ["example.com"]
approved_writes = ["~/.local/share/releases"]
projects_base = "~/projects"

[breaker]
denials = 7
declined = 2
window = "5m"
`)
	if len(p.Problems) > 0 {
		t.Fatalf("problems: %v", p.Problems)
	}
	if p.DefaultMode != ModeAsk || p.Controller != ControllerLatest || p.OwnerWordsMax != 1000 || p.MaxParallel != 2 ||
		p.Breaker != (Breaker{7, 2, 5 * time.Minute}) || p.ProtectedPaths[0] != "~/vault" || p.TrustedHosts[0] != "example.com" || p.ProjectsBase != "~/projects" ||
		len(p.ApprovedWrites) != 1 || p.ApprovedWrites[0] != "~/.local/share/releases" {
		t.Errorf("settings = %+v", p)
	}
	d := Defaults()
	if d.DefaultMode != ModeAuto || d.Controller != ControllerAny || d.Breaker != (Breaker{5, 3, 10 * time.Minute}) {
		t.Errorf("defaults = %+v", d)
	}
}

func TestParseLines(t *testing.T) {
	p := parsed(t, "# mine\n\n[[deny]]\ncommand = \"git push\"\n\n[[ask]]\nclass = \"network\"\n[autonomy.claude]\n\"*\" = \"auto_approve\"\n")
	if len(p.Entries) != 2 || p.Entries[0].Source.Line != 3 || p.Entries[1].Source.Line != 6 || p.Autonomy[0].Source.Line != 9 {
		t.Errorf("entries %+v rows %+v", p.Entries, p.Autonomy)
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct{ src, problem string }{
		{"[[allow]]\ncommand = \"bash -c x\"", "no allow starts with bash"},
		{"[[allow]]\ncommand = \"git\"", "a program alone is too broad"},
		{"[[allow]]\ncommand = \"git push *\"", "* may only end the last word"},
		{"[[allow]]\ncommand = \"git push; rm -rf /\"", "shell syntax"},
		{"[[allow]]\nclass = \"remote-write\"", "no entry lifts a ceiling"},
		{"[[allow]]\n", "names no tool"},
		{"[[deny]]\nclass = \"nope\"", "unknown class"},
		{"default_mode = \"yolo\"", "unknown mode"},
		{"max_parallel = -1", "positive whole number"},
		{"[autonomy.claude]\nBash = \"sometimes\"", "unknown autonomy"},
		{"[classes]\n\"mcp__x__*\" = \"read\"", "not a class a tool can be put in"},
		{"colour = \"blue\"", "unknown key"},
	}
	for _, tt := range tests {
		p := parsed(t, tt.src)
		if len(p.Problems) == 0 || !strings.Contains(p.Problems[0].Text, tt.problem) {
			t.Errorf("Parse(%q) problems = %v, want %q", tt.src, p.Problems, tt.problem)
		}
		for _, e := range p.Entries {
			if e.Effect == Allow {
				t.Errorf("Parse(%q) kept %+v", tt.src, e)
			}
		}
	}
}

func TestBrokenFile(t *testing.T) {
	src := `default_mode = "autopilot"
max_parallel = 50

[[deny]]
command = "git push"

[[allow]]
command = "npm publish"

[[ask]]
tool = "WebFetch"

[autonomy.claude]
"*" = "auto_approve"
Write = "deny"

[[deny]]
command = "rm -rf /
`
	p := parsed(t, src)
	var effects []string
	for _, e := range p.Entries {
		effects = append(effects, e.Effect.String())
	}
	if strings.Join(effects, ",") != "deny,ask" {
		t.Errorf("entries kept = %v, want the deny and ask entries read whole", effects)
	}
	if len(p.Autonomy) != 1 || p.Autonomy[0].Value != DenyTool {
		t.Errorf("rows kept = %+v, want only the deny row", p.Autonomy)
	}
	if p.DefaultMode != ModeAuto || p.MaxParallel != DefaultMaxParallel {
		t.Errorf("a broken file changed settings: %+v", p)
	}
	last := p.Problems[len(p.Problems)-1]
	if last.Source.Line != 18 || !strings.Contains(last.Text, "does not parse") || !strings.Contains(last.Text, "dropped 1 allow") {
		t.Errorf("problem = %v", last)
	}
	// The broken file still denies.
	if got, tier, _ := decided(Request{Command: "git push origin x", Mode: ModeAutopilot, Policy: p}); got != Deny || tier != 3 {
		t.Errorf("git push with a broken file = %v at %d, want deny at 3", got, tier)
	}
	if got, _, diag := decided(Request{Command: "ls", Policy: p}); got != Allow || len(diag.Problems) != 2 {
		t.Errorf("ls with a broken file = %v, problems %v; want allow, with the cut-off entry and the break reported", got, diag.Problems)
	}
}

func TestProjectFileMayOnlyTighten(t *testing.T) {
	p := parsed(t, "[autonomy.claude]\n\"*\" = \"auto_approve\"\n")
	p.AddProject("/p/.sayso/policy.toml", []byte(`
default_mode = "autopilot"
approved_writes = ["~"]

[[allow]]
command = "git push origin main"

[[deny]]
command = "terraform"

[[ask]]
tool = "Write"

[autonomy.claude]
Bash = "auto_approve"
Read = "require_approval"

[classes]
"mcp__x__*" = "deploy"
`))
	var texts []string
	for _, pr := range p.Problems {
		texts = append(texts, pr.String())
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"/p/.sayso/policy.toml:2: default_mode in the project's file is ignored", "/p/.sayso/policy.toml:5: allow in the project's file is ignored",
		"/p/.sayso/policy.toml:15: auto_approve in the project's file is ignored", "/p/.sayso/policy.toml:19: [classes] in the project's file is ignored"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	if p.DefaultMode != ModeAuto {
		t.Errorf("the project's file set the mode")
	}
	if len(p.ApprovedWrites) > 0 || !strings.Contains(all, "/p/.sayso/policy.toml:3: approved_writes in the project's file is ignored") {
		t.Errorf("the project's file widened the approved steps' reach: %v\n%s", p.ApprovedWrites, all)
	}
	if got, _, _ := decided(Request{Agent: "claude", Command: "git push origin main", Policy: p}); got == Allow {
		t.Error("the project's allow let git push through")
	}
	if got, tier, _ := decided(Request{Agent: "claude", Command: "terraform plan", Policy: p}); got != Deny || tier != 3 {
		t.Errorf("the project's deny = %v at %d", got, tier)
	}
	if got, tier, _ := decided(Request{Agent: "claude", Tool: "Read", Use: risk.ReadUse("Read", []byte(`{"file_path":"x"}`)), Policy: p}); got != Ask || tier != 4 {
		t.Errorf("the project's require_approval = %v at %d", got, tier)
	}
}

func TestLoad(t *testing.T) {
	files := map[string]string{
		"/c/policy.toml":             "[[deny]]\ncommand = \"git push\"\n",
		"/p/.sayso/policy.toml":      "[[ask]]\ncommand = \"make\"\n",
		"/p/.git/config":             "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = git@github.com:me/p.git\n[remote \"up\"]\n\turl = https://git.example.org/x.git\n\tpushurl = ../local\n",
		"/unreadable/.sayso/x":       "",
		"/q/.sayso/policy.toml":      "[[allow]]\ncommand = \"git push origin main\"\n",
		"/broken/policy.toml":        "[[deny]\n",
		"/q/.git/config":             "",
		"/r/.git/config":             "[remote \"o\"]\nurl = /srv/git/x\n",
		"/nothing/.sayso/policy.tom": "",
	}
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	p := Load(Files{Person: "/c/policy.toml", Root: "/p", ReadFile: read})
	if len(p.Entries) != 2 || p.Entries[1].Source.File != "/p/.sayso/policy.toml" {
		t.Errorf("entries = %+v", p.Entries)
	}
	hosts := strings.Join(p.TrustedHosts, ",")
	if !strings.HasSuffix(hosts, ",github.com,git.example.org") || !strings.Contains(hosts, "proxy.golang.org") {
		t.Errorf("trusted hosts = %s, want the registries and the remotes", hosts)
	}
	if p := Load(Files{Person: "/none/policy.toml", Root: "/r", ReadFile: read}); p.TrustedHosts != nil || len(p.Problems) > 0 {
		t.Errorf("a local remote added hosts %v, problems %v", p.TrustedHosts, p.Problems)
	}
	if p := Load(Files{Person: "/broken/policy.toml", Root: "/q", ReadFile: read}); len(p.Problems) != 2 {
		t.Errorf("problems = %v, want the break and the project's allow", p.Problems)
	}
}

// Load names every file it looked for, there or not, in the order it
// read them; one it cannot read is there.
func TestLoadLooked(t *testing.T) {
	read := func(name string) ([]byte, error) {
		switch name {
		case "/c/policy.toml":
			return []byte(Starter), nil
		case "/locked/.sayso/policy.toml":
			return nil, fs.ErrPermission
		}
		return nil, fs.ErrNotExist
	}
	for _, c := range []struct {
		person, root, want string
	}{
		{"/c/policy.toml", "", "person /c/policy.toml true"},
		{"/none/policy.toml", "", "person /none/policy.toml false"},
		{"/c/policy.toml", "/p", "person /c/policy.toml true; project /p/.sayso/policy.toml false"},
		{"/none/policy.toml", "/locked", "person /none/policy.toml false; project /locked/.sayso/policy.toml true"},
	} {
		var got []string
		for _, l := range Load(Files{Person: c.person, Root: c.root, ReadFile: read}).Looked {
			got = append(got, fmt.Sprintf("%s %s %t", l.Whose, l.Path, l.Exists))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("Load(%q, root %q).Looked = %s, want %s", c.person, c.root, g, c.want)
		}
	}
}

// The entry a person without a policy file is shown is one Parse reads
// as it is, with nothing to warn about.
func TestStarter(t *testing.T) {
	p := Parse("policy.toml", []byte(Starter))
	if len(p.Entries) != 1 || p.Entries[0].Effect != Deny || len(p.Problems) > 0 {
		t.Errorf("Parse(Starter) = entries %+v, problems %v; want one deny and no problem", p.Entries, p.Problems)
	}
}

func TestRemoteHosts(t *testing.T) {
	for in, want := range map[string]string{
		"git@github.com:a/b.git":           "github.com",
		"https://user@gitlab.com:8443/a/b": "gitlab.com",
		"ssh://git@bitbucket.org:22/a/b":   "bitbucket.org",
		"/srv/git/x":                       "",
		"../x":                             "",
		"file:///srv/x":                    "",
		"host.example:path/with/colon":     "host.example",
		"user@Upper.Example.COM:repo.git":  "upper.example.com",
	} {
		if got := remoteHost(in); got != want {
			t.Errorf("remoteHost(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseShowEachTime(t *testing.T) {
	p := Parse("policy.toml", []byte("show_each_time = [\"network\", \"remote-write\", \"colour\"]\n"))
	if p.ShowEachTime != risk.Of(risk.Network, risk.RemoteWrite) {
		t.Errorf("ShowEachTime = %v, want network,remote-write", p.ShowEachTime)
	}
	if len(p.Problems) != 1 || !strings.Contains(p.Problems[0].Text, "colour") {
		t.Errorf("problems = %v, want the unknown class reported", p.Problems)
	}
	// a broken file keeps it: it only asks more
	p = Parse("policy.toml", []byte("show_each_time = [\"network\"]\n[[allow]\n"))
	if p.ShowEachTime != risk.Of(risk.Network) {
		t.Errorf("a broken file: ShowEachTime = %v, want network", p.ShowEachTime)
	}
	// the project's file may not set it
	p = Defaults()
	p.AddProject(".sayso/policy.toml", []byte("show_each_time = [\"network\"]\n"))
	if !p.ShowEachTime.Empty() || len(p.Problems) != 1 {
		t.Errorf("project file: ShowEachTime = %v, problems %v", p.ShowEachTime, p.Problems)
	}
}

func TestParseAgents(t *testing.T) {
	p := Parse("policy.toml", []byte("[agents.claude]\nrule_unit = \"verb\"\n[agents.runner]\nrule_unit = \"command\"\n[agents.codex]\nrule_unit = \"word\"\ncolour = 1\n"))
	if p.Agents["claude"].RuleUnit != rule.UnitVerb || p.Agents["runner"].RuleUnit != rule.UnitCommand {
		t.Errorf("agents = %+v", p.Agents)
	}
	if _, ok := p.Agents["codex"]; ok || len(p.Problems) != 2 {
		t.Errorf("an unknown unit and key: agents %+v, problems %v", p.Agents, p.Problems)
	}
	p = Defaults()
	p.AddProject(".sayso/policy.toml", []byte("[agents.claude]\nrule_unit = \"verb\"\n"))
	if len(p.Agents) != 0 || len(p.Problems) != 1 {
		t.Errorf("project file: agents %+v, problems %v", p.Agents, p.Problems)
	}
}
