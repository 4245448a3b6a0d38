package policy

import "testing"

func orgPolicy(t *testing.T, person string, o *Org, ci bool) *Policy {
	t.Helper()
	p := Parse("policy.toml", []byte(person))
	if len(p.Problems) > 0 {
		t.Fatal(p.Problems)
	}
	p.SetTeam(Team{Joined: true, Org: o, CI: ci, Why: "no bundle fetched yet"})
	return p
}

func mustEntry(t *testing.T, eff Decision, tool, command, class string) Entry {
	t.Helper()
	e, err := OrgEntry(eff, tool, command, class, Source{File: "org bundle acme #3", Line: 1})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestOrgDenyWins: the org's deny holds against the person's allow entry,
// their kept rule and autopilot.
func TestOrgDenyWins(t *testing.T) {
	o := &Org{Name: "acme", Seq: 3, ModeCap: ModeAutopilot, Entries: []Entry{mustEntry(t, Deny, "", "git push --force", "")}}
	p := orgPolicy(t, `
[[allow]]
command = "git push --force origin feature/x"
`, o, false)
	rules := func(RuleQuery) RuleAnswer {
		return RuleAnswer{Allow: true, Rules: []string{"git push --force origin feature/x"}}
	}
	got, diag := Evaluate(Request{Command: "git push --force origin feature/x", Mode: ModeAutopilot, Policy: p, Context: testContext, Wall: Wall{On: true}, Rules: rules})
	if got != Deny || diag.Decided().ID != TierExplicitDeny {
		t.Fatalf("org deny against the person's allow and rule: %v (%v), want deny at the explicit deny tier\n%v", got, diag.Decided(), diag.Reasons)
	}
	// Without the org's entry the person's own say-so lets it through.
	alone := Parse("policy.toml", []byte("[[allow]]\ncommand = \"git push --force origin feature/x\"\n"))
	if got, diag := Evaluate(Request{Command: "git push --force origin feature/x", Mode: ModeAutopilot, Policy: alone, Context: testContext, Wall: Wall{On: true}, Rules: rules}); got == Deny {
		t.Fatalf("the control case is denied too, so the test proves nothing: %v", diag.Reasons)
	}
}

// TestOrgNarrows: the org's ask entry asks on autopilot, its cap lowers
// the mode, its protected paths deny, its trusted hosts cap the person's.
func TestOrgNarrows(t *testing.T) {
	o := &Org{
		Name: "acme", Seq: 3, ModeCap: ModeAuto,
		Entries:        []Entry{mustEntry(t, Ask, "", "go generate", "")},
		ProtectedPaths: []string{"/srv/keys"},
		TrustedHosts:   []string{"proxy.golang.org"},
	}
	p := orgPolicy(t, "", o, false)
	for _, c := range []struct {
		cmd  string
		mode Mode
		want Decision
	}{
		{"go generate ./...", ModeAutopilot, Ask},            // the org's ask entry
		{"curl https://example.com/x", ModeAutopilot, Ask},   // autopilot capped at auto: a fetch asks
		{"cat /srv/keys/a", ModeAuto, Deny},                  // the org's protected path
		{"curl https://registry.npmjs.org/x", ModeAuto, Ask}, // no longer a trusted host
		{"curl https://proxy.golang.org/x", ModeAuto, Allow}, // still trusted
		{"go build ./...", ModeAuto, Allow},                  // local work is untouched
	} {
		got, diag := Evaluate(Request{Command: c.cmd, Mode: c.mode, Policy: p, Context: testContext, Wall: Wall{On: true}})
		if got != c.want {
			t.Errorf("Evaluate(%q) in %v = %v, want %v\n%v", c.cmd, c.mode, got, c.want, diag.Reasons)
		}
	}
}

// TestNoBundleNoAuto: a team node with no valid bundle runs with no auto:
// local work asks, reading does not.
func TestNoBundleNoAuto(t *testing.T) {
	p := orgPolicy(t, "", nil, false)
	for _, c := range []struct {
		cmd  string
		mode Mode
		want Decision
	}{
		{"go build ./...", ModeAuto, Ask},
		{"go build ./...", ModeAutopilot, Ask},
		{"cat main.go", ModeAuto, Allow},
	} {
		got, diag := Evaluate(Request{Command: c.cmd, Mode: c.mode, Policy: p, Context: testContext, Wall: Wall{On: true}})
		if got != c.want {
			t.Errorf("Evaluate(%q) in %v with no bundle = %v, want %v\n%v", c.cmd, c.mode, got, c.want, diag.Reasons)
		}
	}
	// The person's autonomy wildcard is autopilot: it is set aside too.
	p = orgPolicy(t, "[autonomy.claude]\n\"*\" = \"auto_approve\"\n", nil, false)
	if got, diag := Evaluate(Request{Agent: "claude", Command: "go build ./...", Mode: ModeAuto, Policy: p, Context: testContext, Wall: Wall{On: true}}); got != Ask {
		t.Errorf("the autonomy wildcard with no bundle = %v, want ask\n%v", got, diag.Reasons)
	}
}

// TestCINodeDenies: on a CI node what would ask is denied, and says why.
func TestCINodeDenies(t *testing.T) {
	o := &Org{Name: "acme", Seq: 1, ModeCap: ModeAuto}
	p := orgPolicy(t, "", o, true)
	got, diag := Evaluate(Request{Command: "git push origin main", Mode: ModeAuto, Policy: p, Context: testContext, Wall: Wall{On: true}})
	if got != Deny {
		t.Fatalf("a ceiling on a CI node = %v, want deny\n%v", got, diag.Reasons)
	}
	found := false
	for _, r := range diag.Reasons {
		found = found || r == "a CI node has no person to ask: what would ask is denied"
	}
	if !found {
		t.Errorf("the reasons do not say why: %v", diag.Reasons)
	}
	if got, _ := Evaluate(Request{Command: "go build ./...", Mode: ModeAuto, Policy: p, Context: testContext, Wall: Wall{On: true}}); got != Allow {
		t.Errorf("local work on a CI node = %v, want allow", got)
	}
}

func TestOrgEntryRefusesAllow(t *testing.T) {
	if _, err := OrgEntry(Allow, "", "git push", "", Source{File: "org"}); err == nil {
		t.Fatal("OrgEntry made an allow entry")
	}
	if _, err := OrgEntry(Deny, "", "", "", Source{File: "org"}); err == nil {
		t.Fatal("OrgEntry made an entry that names nothing")
	}
}
