package policy

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
)

var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func parsed(t testing.TB, src string) *Policy {
	t.Helper()
	return Parse("policy.toml", []byte(src))
}

// decided runs Evaluate and returns the decision and the deciding tier.
func decided(req Request) (Decision, int, Diagnostic) {
	if req.Context.Root == "" {
		req.Context = testContext
	}
	if req.Now.IsZero() {
		req.Now = now
	}
	// A step runs walled unless the case says why there is no wall.
	req.Wall.On = req.Wall.Why == ""
	d, diag := Evaluate(req)
	return d, int(diag.Decided().ID), diag
}

const everyTier = `
[[deny]]
command = "git push origin main"

[[ask]]
command = "npm install"

[[allow]]
command = "git push origin feature/*"

[autonomy.claude]
"*" = "auto_approve"

[autonomy.codex]
"*" = "auto_approve"
Bash = "require_approval"

[autonomy.gemini]
"*" = "auto_approve"
run_shell_command = "deny"
`

func TestTiers(t *testing.T) {
	p := parsed(t, everyTier)
	lease := Lease{ID: "l1", Category: risk.RemoteWrite, Session: "s1", Turn: "t1", Epoch: 7, Cwd: testContext.Root, Expires: now.Add(time.Minute)}
	sess := Session{ID: "s1", Turn: "t1", Epoch: 7}
	recent := []time.Time{now.Add(-time.Minute), now.Add(-2 * time.Minute), now.Add(-3 * time.Minute)}
	tests := []struct {
		name string
		req  Request
		want Decision
		tier int
	}{
		{"never: protected in autopilot", Request{Command: "cat /home/user/.local/state/sayso/db", Mode: ModeAutopilot}, Deny, 1},
		{"never beats an allow entry and a lease", Request{Command: "sayso session mode autopilot", Mode: ModeAutopilot, Policy: p, Session: sess, Leases: []Lease{lease}}, Deny, 1},
		{"held denies a write", Request{Command: "go build ./...", Mode: ModeAuto, Session: Session{Held: true}}, Deny, 2},
		{"held lets reading through", Request{Command: "ls", Mode: ModeAuto, Session: Session{Held: true}}, Allow, 8},
		{"breaker: 3 declined cards in the window", Request{Command: "go test ./...", Mode: ModeAuto, Session: Session{Declined: recent}}, Deny, 2},
		{"breaker: old declines do not count", Request{Command: "go test ./...", Mode: ModeAuto, Session: Session{Declined: []time.Time{now.Add(-time.Hour), now.Add(-time.Hour), now.Add(-time.Hour)}}}, Allow, 8},
		{"controller latest holds a session without the newest epoch", Request{Command: "go build", Mode: ModeAuto, Policy: parsed(t, `controller = "latest"`)}, Deny, 2},
		{"controller latest lets the current controller work", Request{Command: "go build", Mode: ModeAuto, Policy: parsed(t, `controller = "latest"`), Session: Session{Current: true}}, Allow, 8},
		{"explicit deny beats autopilot", Request{Agent: "claude", Command: "git push origin main", Mode: ModeAutopilot, Policy: p}, Deny, 3},
		{"explicit deny sees through git -C", Request{Command: "git -C . push origin main", Mode: ModeAuto, Policy: p}, Deny, 3},
		{"explicit deny sees through bash -c", Request{Command: "bash -c 'git push origin main'", Mode: ModeAuto, Policy: p}, Deny, 3},
		{"explicit deny beats a lease", Request{Command: "git push origin main", Mode: ModeAuto, Policy: p, Session: sess, Leases: []Lease{lease}}, Deny, 3},
		{"explicit ask beats autopilot", Request{Agent: "claude", Command: "npm install", Mode: ModeAutopilot, Policy: p}, Ask, 4},
		{"explicit ask in auto", Request{Command: "npm install left-pad", Mode: ModeAuto, Policy: p}, Ask, 4},
		{"require_approval row beats the wildcard", Request{Agent: "codex", Tool: "Bash", Command: "ls", Mode: ModeAutopilot, Policy: p}, Ask, 4},
		{"deny row beats the wildcard", Request{Agent: "gemini", Tool: "run_shell_command", Command: "ls", Policy: p}, Deny, 3},
		{"lease covers a ceiling", Request{Command: "git push origin fix", Mode: ModeAuto, Session: sess, Leases: []Lease{lease}}, Allow, 5},
		{"lease of another session", Request{Command: "git push origin fix", Mode: ModeAuto, Session: Session{ID: "s2", Turn: "t1", Epoch: 7}, Leases: []Lease{lease}}, Ask, 6},
		{"lease of another turn", Request{Command: "git push origin fix", Mode: ModeAuto, Session: Session{ID: "s1", Turn: "t2", Epoch: 7}, Leases: []Lease{lease}}, Ask, 6},
		{"lease expired", Request{Command: "git push origin fix", Mode: ModeAuto, Session: sess, Leases: []Lease{lease}, Now: now.Add(time.Hour)}, Ask, 6},
		{"lease consumed", Request{Command: "git push origin fix", Mode: ModeAuto, Session: sess, Leases: []Lease{{ID: "l", Category: risk.RemoteWrite, Session: "s1", Turn: "t1", Epoch: 7, Cwd: testContext.Root, Expires: now.Add(time.Minute), Consumed: true}}}, Ask, 6},
		{"lease of another category", Request{Command: "git push -f origin fix", Mode: ModeAuto, Session: sess, Leases: []Lease{lease}}, Ask, 6},
		{"lease of another cwd", Request{Command: "git push origin fix", Mode: ModeAuto, Session: sess, Leases: []Lease{lease}, Context: risk.Context{Root: testContext.Root, Cwd: testContext.Root + "/sub", Home: testContext.Home}}, Ask, 6},
		{"ceiling asks in autopilot", Request{Command: "git push origin fix", Mode: ModeAutopilot}, Ask, 6},
		{"ceiling asks under the wildcard", Request{Agent: "claude", Command: "git push origin fix", Policy: p}, Ask, 6},
		{"allow entry lifts a plain ceiling for exactly its command", Request{Command: "git push origin feature/login", Mode: ModeAuto, Policy: p}, Allow, 6},
		{"allow entry does not cover more words", Request{Command: "git push origin feature/login --tags", Mode: ModeAuto, Policy: p}, Ask, 6},
		{"allow entry never lifts a severe step", Request{Command: "git push -f origin feature/login", Mode: ModeAuto, Policy: p}, Ask, 6},
		{"reviewer lifts a ceiling in auto", Request{Command: "git push origin fix", Mode: ModeAuto, Review: Review{Asked: true, Allow: true, Why: "they asked"}}, Allow, 6},
		{"reviewer never waives a secret", Request{Command: "cat ~/.ssh/id_rsa", Mode: ModeAuto, Review: Review{Asked: true, Allow: true}}, Ask, 6},
		{"reviewer counts only in auto", Request{Command: "git push origin fix", Mode: ModeAsk, Review: Review{Asked: true, Allow: true}}, Ask, 6},
		{"out of scope write asks in auto", Request{Command: "touch /srv/x", Mode: ModeAuto}, Ask, 9},
		{"out of scope write allowed in autopilot", Request{Command: "touch /srv/x", Mode: ModeAutopilot}, Allow, 8},
		{"reading outside is fine in auto", Request{Command: "cat /usr/include/stdio.h", Mode: ModeAuto}, Allow, 8},
		{"reading outside asks in ask", Request{Command: "cat /usr/include/stdio.h", Mode: ModeAsk}, Ask, 9},
		{"ask mode allows reading in scope", Request{Command: "ls", Mode: ModeAsk}, Allow, 8},
		{"ask mode asks before local work", Request{Command: "go build", Mode: ModeAsk}, Ask, 9},
		{"auto allows local work", Request{Command: "go test ./...", Mode: ModeAuto}, Allow, 8},
		{"auto asks about the network", Request{Command: "curl https://example.com", Mode: ModeAuto}, Ask, 9},
		{"reviewer allows the network in auto", Request{Command: "curl https://example.com", Mode: ModeAuto, Review: Review{Asked: true, Allow: true}}, Allow, 8},
		{"zero request denies nothing safe", Request{Command: "ls"}, Allow, 8},
	}
	for _, tt := range tests {
		got, tier, diag := decided(tt.req)
		if got != tt.want || tier != tt.tier {
			t.Errorf("%s: Evaluate(%q) = %v at tier %d, want %v at tier %d\n%s", tt.name, tt.req.Command, got, tier, tt.want, tt.tier, strings.Join(diag.Reasons, "\n"))
		}
		if len(diag.Tiers) != 9 {
			t.Errorf("%s: %d tiers reported, want all 9", tt.name, len(diag.Tiers))
		}
	}
}

func TestLeaseIsReported(t *testing.T) {
	req := Request{Command: "git push origin fix", Mode: ModeAuto, Session: Session{ID: "s1", Turn: "t1", Epoch: 7},
		Leases: []Lease{{ID: "l9", Category: risk.RemoteWrite, Session: "s1", Turn: "t1", Epoch: 7, Cwd: testContext.Root, Expires: now.Add(time.Minute)}}}
	_, _, diag := decided(req)
	if diag.Lease != "l9" {
		t.Errorf("Lease = %q, want l9", diag.Lease)
	}
	req.Command = "ls"
	if _, _, diag := decided(req); diag.Lease != "" {
		t.Errorf("a read consumed lease %q", diag.Lease)
	}
}

// TestWildcard holds the autonomy rows in every combination of a wildcard
// and a specific row.
func TestWildcard(t *testing.T) {
	vals := []string{"", "auto_approve", "require_approval", "deny"}
	want := map[[2]string]Decision{}
	for _, w := range vals {
		for _, s := range vals {
			var d Decision
			switch {
			case s == "deny" || s == "" && w == "deny":
				d = Deny
			case s == "require_approval" || s == "" && w == "require_approval":
				d = Ask
			default:
				d = Allow // auto_approve, or no row: auto allows a build
			}
			want[[2]string{w, s}] = d
		}
	}
	for _, w := range vals {
		for _, s := range vals {
			src := "[autonomy.claude]\n"
			if w != "" {
				src += `"*" = "` + w + "\"\n"
			}
			if s != "" {
				src += `Bash = "` + s + "\"\n"
			}
			req := Request{Agent: "claude", Tool: "Bash", Command: "touch /srv/out", Mode: ModeAuto, Policy: parsed(t, src)}
			got, _, diag := decided(req)
			// An out-of-scope write passes only in autopilot: by the wildcard.
			exp := want[[2]string{w, s}]
			if exp == Allow && !(w == "auto_approve" && (s == "" || s == "auto_approve")) {
				exp = Ask
			}
			if got != exp {
				t.Errorf("wildcard %q specific %q: %v, want %v\n%s", w, s, got, exp, strings.Join(diag.Reasons, "\n"))
			}
			if w == "auto_approve" && s == "auto_approve" {
				if diag.Mode != ModeAutopilot || len(diag.Matches) == 0 || !strings.Contains(diag.Matches[0].Text, "(wildcard)") || diag.Matches[0].Source != "policy.toml:2" {
					t.Errorf("specific auto_approve under the wildcard: mode %v, matches %+v; want autopilot with the wildcard's origin", diag.Mode, diag.Matches)
				}
			}
		}
	}
}

func TestSpecificAutoApproveKeepsScope(t *testing.T) {
	p := parsed(t, "[autonomy.claude]\nBash = \"auto_approve\"\n")
	if got, _, _ := decided(Request{Agent: "claude", Command: "curl https://example.com", Mode: ModeAuto, Policy: p}); got != Allow {
		t.Errorf("specific auto_approve in scope = %v, want allow", got)
	}
	if got, _, _ := decided(Request{Agent: "claude", Command: "touch /srv/x", Mode: ModeAuto, Policy: p}); got != Ask {
		t.Errorf("specific auto_approve out of scope = %v, want ask", got)
	}
	if got, _, _ := decided(Request{Agent: "codex", Command: "curl https://example.com", Mode: ModeAuto, Policy: p}); got != Ask {
		t.Errorf("another agent's row counted: %v", got)
	}
}

func TestRules(t *testing.T) {
	var asked RuleQuery
	lookup := func(q RuleQuery) RuleAnswer {
		asked = q
		return RuleAnswer{Allow: q.Command == "git push origin feature/x", Rules: []string{"git push origin feature/*"}, Lines: []string{"rule matched"}}
	}
	tests := []struct {
		name string
		req  Request
		want Decision
	}{
		{"command rule lifts a plain ceiling", Request{Command: "git push origin feature/x", Mode: ModeAuto, Rules: lookup}, Allow},
		{"rules are not consulted in ask", Request{Command: "git push origin feature/x", Mode: ModeAsk, Rules: lookup}, Ask},
		{"rules are not consulted for a guest", Request{Command: "git push origin feature/x", Mode: ModeAuto, Rules: lookup, Session: Session{Guest: true}}, Ask},
		{"no match asks", Request{Command: "git push origin feature/y", Mode: ModeAuto, Rules: lookup}, Ask},
	}
	for _, tt := range tests {
		if got, _, diag := decided(tt.req); got != tt.want {
			t.Errorf("%s: %v, want %v: %v", tt.name, got, tt.want, diag.Reasons)
		}
	}
	decided(Request{Tool: "Bash", Use: risk.ReadUse("Bash", []byte(`{"command":"git push origin feature/x"}`)), Mode: ModeAuto, Rules: lookup})
	if asked.Command != "git push origin feature/x" || asked.Assessment.Script == nil {
		t.Errorf("rule query = %+v, want the command read from the tool input", asked)
	}
}

func TestParallel(t *testing.T) {
	in := []byte(`{"description":"d","prompt":"p","subagent_type":"general-purpose"}`)
	if got, _, _ := decided(Request{Tool: "Task", Use: risk.ReadUse("Task", in), Mode: ModeAuto, Session: Session{Tasks: 1}}); got != Allow {
		t.Errorf("second sub-agent = %v, want allow", got)
	}
	got, tier, _ := decided(Request{Tool: "Agent", Use: risk.ReadUse("Agent", in), Mode: ModeAutopilot, Session: Session{Tasks: 4}})
	if got != Ask || tier != 6 {
		t.Errorf("fifth sub-agent in autopilot = %v at %d, want ask at the ceiling", got, tier)
	}
	p := parsed(t, "max_parallel = 8")
	if got, _, _ := decided(Request{Tool: "invoke_agent", Use: risk.ReadUse("invoke_agent", []byte(`{}`)), Mode: ModeAuto, Session: Session{Tasks: 4}, Policy: p}); got != Allow {
		t.Errorf("max_parallel 8 with 4 running = %v, want allow", got)
	}
}

func TestClassPatterns(t *testing.T) {
	p := parsed(t, "[classes]\n\"mcp__stripe__*\" = \"money\"\n\"mcp__playwright__*\" = \"browser\"\n")
	for _, tool := range []string{"mcp__stripe__create_charge", "mcp__playwright__click"} {
		got, tier, diag := decided(Request{Tool: tool, Use: risk.ReadUse(tool, []byte(`{}`)), Mode: ModeAutopilot, Policy: p})
		if got != Ask || tier != 6 {
			t.Errorf("%s in autopilot = %v at %d, want ask at the ceiling: %v", tool, got, tier, diag.Reasons)
		}
	}
	if got, _, _ := decided(Request{Tool: "mcp__github__get_issue", Use: risk.ReadUse("mcp__github__get_issue", []byte(`{}`)), Mode: ModeAuto, Policy: p}); got != Ask {
		t.Errorf("unknown MCP tool in auto = %v, want ask", got)
	}
	if got, _, _ := decided(Request{Tool: "mcp__github__get_issue", Use: risk.ReadUse("mcp__github__get_issue", []byte(`{}`)), Mode: ModeAutopilot, Policy: p}); got != Allow {
		t.Errorf("unclassed MCP tool in autopilot = %v, want allow", got)
	}
}

func TestProtectedPathsFromPolicy(t *testing.T) {
	p := parsed(t, `protected_paths = ["~/vault"]`)
	if got, tier, _ := decided(Request{Tool: "Read", Use: risk.ReadUse("Read", []byte(`{"file_path":"/home/user/vault/x"}`)), Mode: ModeAutopilot, Policy: p}); got != Deny || tier != 1 {
		t.Errorf("read of a protected_paths addition = %v at %d, want deny at 1", got, tier)
	}
}

func TestSymlinkLinks(t *testing.T) {
	req := Request{Command: "echo x > ./notes/db", Mode: ModeAutopilot, Links: map[string]string{
		"/home/user/project/notes/db": "/home/user/.local/state/sayso/db",
	}}
	if got, tier, _ := decided(req); got != Deny || tier != 1 {
		t.Errorf("write through a symlink into the state folder = %v at %d, want deny at 1", got, tier)
	}
	req = Request{Tool: "Write", Use: risk.ReadUse("Write", []byte(`{"file_path":"/home/user/project/out"}`)), Mode: ModeAuto, Links: map[string]string{
		"/home/user/project/out": "/etc/passwd",
	}}
	if got, _, _ := decided(req); got == Allow {
		t.Errorf("write through a symlink to /etc/passwd = allow")
	}
}

func TestResolve(t *testing.T) {
	fake := map[string]string{
		"/home/user/project/link": "/home/user/.local/state/sayso",
		"/home/user/project":      "/home/user/project",
	}
	eval := func(p string) (string, error) {
		if r, ok := fake[p]; ok {
			return r, nil
		}
		return "", errNotExist
	}
	req := Request{Command: "cat link/db", Context: testContext, Mode: ModeAutopilot}
	Resolve(&req, Disk{EvalSymlinks: eval})
	if req.Links["/home/user/project/link/db"] != "/home/user/.local/state/sayso/db" {
		t.Fatalf("Links = %v", req.Links)
	}
	if got, _, _ := decided(req); got != Deny {
		t.Errorf("cat through a symlink to the state folder = %v, want deny", got)
	}
}

func TestProjectPolicyWrite(t *testing.T) {
	for _, req := range []Request{
		{Tool: "Write", Use: risk.ReadUse("Write", []byte(`{"file_path":"/home/user/project/.sayso/policy.toml","content":"[[allow]]"}`)), Mode: ModeAutopilot},
		{Command: "echo '[[allow]]' >> .sayso/policy.toml", Mode: ModeAutopilot},
		{Command: "rm -rf .sayso", Mode: ModeAutopilot},
	} {
		if got, tier, _ := decided(req); got != Deny || tier != 1 {
			t.Errorf("%s %s = %v at %d, want deny at 1", req.Tool, req.Command, got, tier)
		}
	}
	if got, _, _ := decided(Request{Command: "cat .sayso/policy.toml", Mode: ModeAuto}); got != Allow {
		t.Errorf("reading the project's policy = %v, want allow", got)
	}
}

func TestDiagnosticNeverStopsEarly(t *testing.T) {
	p := parsed(t, everyTier+"\n[[deny]]\nclass = \"remote-write\"\n[[ask]]\ncommand = \"git push\"\n")
	_, tier, diag := decided(Request{Agent: "claude", Command: "git push origin main", Policy: p})
	if tier != 3 {
		t.Fatalf("tier %d, want 3", tier)
	}
	kinds := map[MatchKind]int{}
	for _, m := range diag.Matches {
		kinds[m.Kind]++
	}
	if kinds[MatchDenyEntry] != 2 || kinds[MatchAskEntry] != 1 || kinds[MatchAutonomyRow] != 1 {
		t.Errorf("matches %+v: want both deny entries, the ask entry and the wildcard row", diag.Matches)
	}
	for _, m := range diag.Matches {
		if !strings.HasPrefix(m.Source, "policy.toml:") {
			t.Errorf("match %+v has no file and line", m)
		}
	}
}

func TestDeterministic(t *testing.T) {
	p := parsed(t, everyTier)
	req := Request{Agent: "claude", Command: "git push origin main; curl x | sh", Policy: p, Context: testContext}
	a, da := Evaluate(req)
	for range 20 {
		b, db := Evaluate(req)
		if a != b || strings.Join(da.Reasons, "|") != strings.Join(db.Reasons, "|") || len(da.Matches) != len(db.Matches) {
			t.Fatal("Evaluate is not deterministic")
		}
	}
}

func TestAutopilotListHoldsEveryCeiling(t *testing.T) {
	for c := risk.Class(0); ; c++ {
		if _, err := risk.ParseClass(c.String()); err != nil {
			break
		}
		if (c.Ceiling() || c.Kind() == risk.KindNever) && !Autopilot.holdsClass(c) {
			t.Errorf("the autopilot list does not name %s among what it never releases", c)
		}
	}
}

var errNotExist = errorString("no such file")

type errorString string

func (e errorString) Error() string { return string(e) }

// TestReviewAskReason: when the reviewer does not let a step through, its
// reason reaches the diagnostic the person and the agent read.
func TestReviewAskReason(t *testing.T) {
	ctx := risk.Context{Root: "/p", Home: "/h"}
	req := Request{Command: "git push origin feature/x", Mode: ModeAuto, Context: ctx, Review: Review{Asked: true, Why: "the person said not yet"}}
	dec, diag := Evaluate(req)
	if dec != Ask {
		t.Fatalf("decision = %v, want ask", dec)
	}
	if !strings.Contains(strings.Join(diag.Reasons, " "), "the person said not yet") {
		t.Errorf("reasons %q do not carry the reviewer's", diag.Reasons)
	}
}

// TestDiagnosticIsTyped: the deciding tier and what it found are fields,
// so no caller reads them out of the sentence.
func TestDiagnosticIsTyped(t *testing.T) {
	p := parsed(t, everyTier)
	recent := []time.Time{now.Add(-time.Minute), now.Add(-2 * time.Minute), now.Add(-3 * time.Minute), now.Add(-4 * time.Minute), now.Add(-5 * time.Minute)}
	tests := []struct {
		name   string
		req    Request
		tier   TierID
		reason Reason
	}{
		{"protected", Request{Command: "cat /home/user/.local/state/sayso/db", Mode: ModeAutopilot}, TierNever, ReasonProtected},
		{"held by the person", Request{Command: "go build", Mode: ModeAuto, Session: Session{Held: true, HeldWhy: "stopped"}}, TierHeld, ReasonHeld},
		{"breaker", Request{Command: "go build", Mode: ModeAuto, Session: Session{Denials: recent}}, TierHeld, ReasonBreaker},
		{"controller", Request{Command: "go build", Mode: ModeAuto, Policy: parsed(t, `controller = "latest"`)}, TierHeld, ReasonController},
		{"deny entry", Request{Command: "git push origin main", Mode: ModeAuto, Policy: p}, TierExplicitDeny, ReasonDenyEntry},
		{"deny row", Request{Agent: "gemini", Tool: "run_shell_command", Command: "ls", Policy: p}, TierExplicitDeny, ReasonDenyRow},
		{"ask entry", Request{Command: "npm install", Mode: ModeAuto, Policy: p}, TierExplicitAsk, ReasonAskEntry},
		{"ask row", Request{Agent: "codex", Tool: "Bash", Command: "ls", Mode: ModeAutopilot, Policy: p}, TierExplicitAsk, ReasonAskRow},
		{"ceiling", Request{Command: "git push origin fix", Mode: ModeAutopilot}, TierCeiling, ReasonCeiling},
		{"allow entry on a ceiling", Request{Command: "git push origin feature/login", Mode: ModeAuto, Policy: p}, TierCeiling, ReasonAllowEntry},
		{"autopilot", Request{Command: "touch /srv/x", Mode: ModeAutopilot}, TierMode, ReasonAutopilot},
		{"autopilot by the wildcard", Request{Agent: "claude", Command: "touch /srv/x", Policy: p}, TierMode, ReasonWildcard},
		{"auto", Request{Command: "go test ./...", Mode: ModeAuto}, TierMode, ReasonMode},
		{"out of scope asks", Request{Command: "touch /srv/x", Mode: ModeAuto}, TierAsk, ReasonPerson},
	}
	for _, tt := range tests {
		_, _, diag := decided(tt.req)
		if got := diag.Decided(); got.ID != tt.tier || got.Reason != tt.reason {
			t.Errorf("%s: Evaluate(%q) decided by %v (%v), want %v (%v)", tt.name, tt.req.Command, got.ID, got.Reason, tt.tier, tt.reason)
		}
		for i, ti := range diag.Tiers {
			if ti.ID != TierID(i+1) {
				t.Errorf("%s: tier %d reported as %v", tt.name, i+1, ti.ID)
			}
		}
	}

	// The breaker's trip is a field, said once.
	_, _, diag := decided(Request{Command: "go build", Mode: ModeAuto, Session: Session{Denials: recent}})
	if trip := diag.Tripped(); trip == nil || trip.Count != 5 || trip.Declined || trip.Window != DefaultBreaker.Window {
		t.Errorf("breaker trip = %+v, want 5 steps denied within %s", trip, DefaultBreaker.Window)
	}
	// Reading while the breaker would trip: it does not decide.
	_, _, diag = decided(Request{Command: "ls", Mode: ModeAuto, Session: Session{Denials: recent}})
	if trip := diag.Tripped(); trip != nil {
		t.Errorf("a read tripped the breaker: %+v", trip)
	}

	// Out of scope and unwalled are reasons of their tiers.
	_, _, diag = decided(Request{Command: "touch /srv/x", Mode: ModeAuto})
	if diag.Tiers[TierScope-1].Reason != ReasonOutOfScope {
		t.Errorf("scope = %v, want out-of-scope", diag.Tiers[TierScope-1].Reason)
	}
	_, _, diag = decided(Request{Command: "go build", Mode: ModeAuto, Wall: Wall{Why: "no landlock"}})
	if diag.Tiers[TierMode-1].Reason != ReasonUnwalled || !diag.Unwalled {
		t.Errorf("mode = %v, want unwalled", diag.Tiers[TierMode-1].Reason)
	}
}

// TestReasonText: every reason has a name that parses back.
func TestReasonText(t *testing.T) {
	for r := ReasonNone; int(r) < reasonNames.Len(); r++ {
		b, _ := r.MarshalText()
		var back Reason
		if err := back.UnmarshalText(b); err != nil || back != r {
			t.Errorf("reason %d: %q parses as %v, %v", r, b, back, err)
		}
	}
	if _, err := ParseReason("circuit breaker"); err == nil {
		t.Error("ParseReason accepted an unknown name")
	}
}

// TestTierJSON: a tier keeps its number and name in JSON and reads back.
func TestTierJSON(t *testing.T) {
	in := Tier{ID: TierHeld, Reason: ReasonBreaker, Decided: true, Why: "w"}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `{"tier":2,"name":"held","decided":true,"why":"w","reason":"breaker"}` {
		t.Fatalf("json = %s, %v", b, err)
	}
	var back Tier
	if err := json.Unmarshal(b, &back); err != nil || back != in {
		t.Errorf("read back %+v, %v, want %+v", back, err, in)
	}
}

// TestShellFolderIsTheTools: a shell step is judged in the folder its own
// tool runs it in: Gemini's dir_path, not a workdir set beside it.
func TestShellFolderIsTheTools(t *testing.T) {
	out := `{"command":"touch x","workdir":"` + testContext.Root + `","dir_path":"/srv"}`
	in := `{"command":"touch x","workdir":"/srv","dir_path":"` + testContext.Root + `"}`
	for _, tt := range []struct {
		input string
		want  Decision
	}{{out, Ask}, {in, Allow}} {
		got, _, diag := decided(Request{Agent: "gemini", Tool: "run_shell_command", Use: risk.ReadUse("run_shell_command", []byte(tt.input)), Command: "touch x", Mode: ModeAuto})
		if got != tt.want {
			t.Errorf("run_shell_command %s = %v, want %v: %v", tt.input, got, tt.want, diag.Reasons)
		}
	}
}
