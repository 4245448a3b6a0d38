package store

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/risk"
)

// leaseEval is the evaluate function a caller would pass for a step of
// category c: allow on a live lease, else ask and say why.
func leaseEval(c Category) func(*State) Outcome {
	return func(s *State) Outcome {
		if l, ok, why := s.LeaseFor(c); ok {
			return Outcome{Decision: DecisionAllow, Lease: l.ID, Reason: why}
		}
		_, _, why := s.LeaseFor(c)
		return Outcome{Decision: DecisionAsk, Reason: why, Diagnostic: json.RawMessage(`{"tier":5}`)}
	}
}

func step(session, cwd string) Step {
	return Step{Session: NewSession{ID: session}, Cwd: cwd, Tool: "Bash", Summary: "git push origin main"}
}

func decide(t *testing.T, db *DB, st Step, c Category) Outcome {
	t.Helper()
	out, err := db.Decide(context.Background(), st, leaseEval(c))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLeaseChecks(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		after func(t *testing.T, db *DB) // between grant and step
		step  Step
		cat   Category
		allow bool
		check string
	}{
		{"covers", nil, step("s1", "/w"), RemoteWrite, true, ""},
		{"other category", nil, step("s1", "/w"), ForceRemote, false, "no lease for force-remote"},
		{"other cwd", nil, step("s1", "/w/sub"), RemoteWrite, false, "cwd:"},
		{"other session", nil, step("s2", "/w"), RemoteWrite, false, "no lease"},
		{"other turn", func(t *testing.T, db *DB) {
			db.AddMessage(ctx, NewSession{ID: "s1"}, NewMessage{Source: SourceSystem, Text: "resume"})
		}, step("s1", "/w"), RemoteWrite, false, "turn:"},
		{"new person message", func(t *testing.T, db *DB) {
			person(t, db, "s2", "elsewhere")
		}, step("s1", "/w"), RemoteWrite, false, "revoked:"},
		{"revoked by the person", func(t *testing.T, db *DB) {
			if err := db.RevokeLease(ctx, 1); err != nil {
				t.Fatal(err)
			}
		}, step("s1", "/w"), RemoteWrite, false, "revoked: lease 1 was revoked: revoked by the person"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTest(t)
			person(t, db, "s1", "push when green")
			person(t, db, "s2", "hello")
			person(t, db, "s1", "now push")
			if _, err := db.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s1", Cwd: "/w"}); err != nil {
				t.Fatal(err)
			}
			if tt.after != nil {
				tt.after(t, db)
			}
			out := decide(t, db, tt.step, tt.cat)
			if (out.Decision == DecisionAllow) != tt.allow || !strings.Contains(out.Reason, tt.check) {
				t.Errorf("decision %s (%s), want allow=%v naming %q", out.Decision, out.Reason, tt.allow, tt.check)
			}
		})
	}
}

func TestLeaseConsumedOnce(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	person(t, db, "s1", "push")
	l, _ := db.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s1", Cwd: "/w"})
	if out := decide(t, db, step("s1", "/w"), RemoteWrite); out.Decision != DecisionAllow || out.Lease != l.ID {
		t.Fatalf("first step: %+v", out)
	}
	out := decide(t, db, step("s1", "/w"), RemoteWrite)
	if out.Decision != DecisionAsk || !strings.Contains(out.Reason, "consumed:") {
		t.Errorf("second step on a consumed lease: %+v", out)
	}
	log, _ := db.Log(ctx, LogFilter{Session: "s1"})
	kinds := map[string]int{}
	for _, e := range log {
		kinds[e.Kind]++
	}
	if kinds[KindLeaseConsumed] != 1 || kinds[KindDecision] != 2 || kinds[KindLeaseGranted] != 1 {
		t.Errorf("ledger kinds = %v", kinds)
	}
}

func TestLeaseRaceOneWinner(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	person(t, db, "s1", "push")
	db.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s1", Cwd: "/w"})
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 20 {
		wg.Go(func() {
			out, err := db.Decide(ctx, step("s1", "/w"), leaseEval(RemoteWrite))
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			if out.Decision == DecisionAllow {
				allowed++
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if allowed != 1 {
		t.Errorf("%d steps allowed on one lease, want 1", allowed)
	}
}

func TestLeaseGrantLimits(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	person(t, db, "s1", "push")
	for _, g := range []Grant{
		{Category: RemoteWrite, Session: "s1", Cwd: "/w", TTL: 16 * time.Minute},
		{Category: "push", Session: "s1", Cwd: "/w"},
		{Category: RemoteWrite, Session: "nobody", Cwd: "/w"},
		{Category: RemoteWrite, Session: "s1", Cwd: "relative"},
	} {
		if _, err := db.GrantLease(ctx, g); err == nil {
			t.Errorf("GrantLease(%+v) succeeded", g)
		}
	}
	l, err := db.GrantLease(ctx, Grant{Category: Merge, Session: "s1", Cwd: "/w/"})
	if err != nil || l.ExpiresAt.Sub(l.CreatedAt) != MaxLeaseTTL || l.Cwd != "/w" || l.Turn != "1" || l.Epoch != 1 {
		t.Errorf("default grant = %+v, %v", l, err)
	}
}

// TestLeaseExpiry runs on synctest's clock: the lease lives its ttl to the
// nanosecond and no longer, without the test waiting.
func TestLeaseExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		db := openTest(t)
		person(t, db, "s1", "deploy")
		l, err := db.GrantLease(ctx, Grant{Category: Deploy, Session: "s1", Cwd: "/w", TTL: 5 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(5*time.Minute - time.Nanosecond)
		live, _ := db.Leases(ctx, false)
		if len(live) != 1 {
			t.Fatalf("a nanosecond before expiry: %d live leases", len(live))
		}
		time.Sleep(time.Nanosecond)
		out := decide(t, db, step("s1", "/w"), Deploy)
		if out.Decision != DecisionAsk || !strings.Contains(out.Reason, "expired: lease 1") {
			t.Errorf("at expiry: %+v", out)
		}
		if live, _ := db.Leases(ctx, false); len(live) != 0 {
			t.Errorf("expired lease still listed live: %+v", live)
		}
		all, _ := db.Leases(ctx, true)
		if len(all) != 1 || all[0].State(time.Now()) != "expired" || !all[0].ExpiresAt.Equal(l.ExpiresAt) {
			t.Errorf("all leases = %+v", all)
		}
		db.Close()
	})
}

// TestLeaseRevokedByPersonMessage: a person message in any session revokes
// every unconsumed lease, and the next grant binds to the new epoch.
func TestLeaseRevokedByPersonMessage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		db := openTest(t)
		person(t, db, "s1", "push")
		db.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s1", Cwd: "/w"})
		db.GrantLease(ctx, Grant{Category: Merge, Session: "s1", Cwd: "/w"})
		time.Sleep(time.Minute)
		person(t, db, "s2", "unrelated")
		if live, _ := db.Leases(ctx, false); len(live) != 0 {
			t.Errorf("live leases after a person message: %+v", live)
		}
		all, _ := db.Leases(ctx, true)
		for _, l := range all {
			if !strings.Contains(l.RevokedWhy, "new person message in session s2") || !l.RevokedAt.Equal(time.Now().UTC()) {
				t.Errorf("lease %d: revoked %v %q", l.ID, l.RevokedAt, l.RevokedWhy)
			}
		}
		e, _ := db.CurrentEpoch(ctx)
		if e.Session != "s2" || e.ID != 2 {
			t.Errorf("current epoch = %+v, want epoch 2 of s2", e)
		}
		person(t, db, "s1", "push now")
		l, _ := db.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s1", Cwd: "/w"})
		if l.Epoch != 3 || l.Turn != "2" {
			t.Errorf("new lease bound to epoch %d turn %s, want 3 and 2", l.Epoch, l.Turn)
		}
		if out := decide(t, db, step("s1", "/w"), RemoteWrite); out.Decision != DecisionAllow {
			t.Errorf("fresh lease: %+v", out)
		}
		db.Close()
	})
}

func TestDecideRecordsAndHolds(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	deny := func(s *State) Outcome {
		o := Outcome{Decision: DecisionDeny, Reason: "no"}
		if len(s.Breaker.Denials)+1 >= 3 {
			o.Hold = "3 denials in 10 minutes"
		}
		return o
	}
	for i := range 3 {
		out, err := db.Decide(ctx, step("s1", "/w"), deny)
		if err != nil {
			t.Fatal(err)
		}
		if out.Entry == 0 {
			t.Errorf("step %d: no ledger row", i)
		}
	}
	l, _ := db.Live(ctx, "s1")
	if !l.Held || l.HeldWhy != "3 denials in 10 minutes" {
		t.Errorf("after 3 denials: %+v", l)
	}
	db.Release(ctx, "s1")
	out, _ := db.Decide(ctx, step("s1", "/w"), func(s *State) Outcome {
		if len(s.Breaker.Denials) != 0 || s.Live.Held {
			t.Errorf("after release: %+v %+v", s.Breaker, s.Live)
		}
		return Outcome{Decision: "yes please"}
	})
	if out.Decision != DecisionDeny || !strings.Contains(out.Reason, "unknown decision") {
		t.Errorf("an unknown decision is recorded as %+v, want deny", out)
	}
	if err := db.Answer(ctx, Answered{Session: "s1", Answer: card.Deny, Step: "git push"}); err != nil {
		t.Fatal(err)
	}
	db.Decide(ctx, step("s1", "/w"), func(s *State) Outcome {
		if len(s.Breaker.Declined) != 1 || s.Breaker.Declined[0].After(s.Now) {
			t.Errorf("declined = %v, want one before now", s.Breaker.Declined)
		}
		return Outcome{Decision: DecisionAsk}
	})
	log, _ := db.Log(ctx, LogFilter{Session: "s1"})
	var decisions int
	for _, e := range log {
		if e.Kind == KindDecision {
			decisions++
			var d map[string]any
			if err := json.Unmarshal(e.Detail, &d); err != nil || d["decision"] == nil {
				t.Errorf("decision detail %s: %v", e.Detail, err)
			}
		}
	}
	if decisions != 5 {
		t.Errorf("%d decisions in the ledger, want 5", decisions)
	}
}

func TestDecideRefusesForeignLease(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	person(t, db, "s1", "push")
	l, _ := db.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s1", Cwd: "/w"})
	// A buggy evaluate naming another session's lease consumes nothing.
	_, err := db.Decide(ctx, step("s2", "/w"), func(*State) Outcome {
		return Outcome{Decision: DecisionAllow, Lease: l.ID}
	})
	if err == nil {
		t.Error("a step consumed another session's lease")
	}
	if live, _ := db.Leases(ctx, false); len(live) != 1 {
		t.Error("the lease was touched")
	}
}

func TestController(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	person(t, db, "old", "work")
	person(t, db, "new", "work here now")
	out, _ := db.Decide(ctx, step("old", "/w"), func(s *State) Outcome {
		if s.Controller() != "new" {
			return Outcome{Decision: DecisionAllow}
		}
		return Outcome{Decision: DecisionDeny, Reason: "session new is the current controller"}
	})
	if out.Decision != DecisionDeny {
		t.Errorf("old session's state names controller wrongly: %+v", out)
	}
}

func TestLeaseLine(t *testing.T) {
	for _, tt := range []struct {
		text string
		ok   bool
	}{
		{"/sayso lease remote-write", true},
		{"  /sayso lease deploy\n", true},
		{"/sayso lease push", false},
		{"please /sayso lease remote-write", false},
		{"/sayso lease remote-write and merge", false},
		{"go ahead and push", false},
		{"/sayso  lease remote-write", false},
	} {
		if _, ok := LeaseLine(tt.text); ok != tt.ok {
			t.Errorf("LeaseLine(%q) = %v, want %v", tt.text, ok, tt.ok)
		}
	}
}

func TestLeaseLineGrants(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	line := NewMessage{Source: SourcePerson, Turn: "p1", Text: "/sayso lease remote-write", Cwd: "/w"}
	m, err := db.AddMessage(ctx, NewSession{ID: "s1"}, line)
	if err != nil {
		t.Fatal(err)
	}
	if m.Lease == nil || m.Lease.Turn != "p1" || m.Lease.Epoch != 1 || m.Lease.Cwd != "/w" {
		t.Fatalf("lease line granted %+v", m.Lease)
	}
	if out := decide(t, db, Step{Session: NewSession{ID: "s1"}, Cwd: "/w", Summary: "git push"}, RemoteWrite); out.Decision != DecisionAllow {
		t.Errorf("the granted lease does not cover the step: %+v", out)
	}
	// Only the person's own line grants: not a task's prompt, a routine or a guest.
	for _, src := range []Source{SourceDelegated, SourceSystem, SourceGuest} {
		line.Source = src
		if m, _ := db.AddMessage(ctx, NewSession{ID: "s2"}, line); m.Lease != nil {
			t.Errorf("a %s line granted a lease", src)
		}
	}
	line.Source, line.Cwd = SourcePerson, ""
	if m, _ := db.AddMessage(ctx, NewSession{ID: "s3"}, line); m.Lease != nil {
		t.Error("a lease line without a folder granted a lease")
	}
}

// FuzzLeaseLine: a line grants only when it is, trimmed, exactly
// "/sayso lease CATEGORY".
func FuzzLeaseLine(f *testing.F) {
	for _, s := range []string{"/sayso lease remote-write", "please /sayso lease merge", "/sayso lease deploy now", "/sayso lease \u00a0deploy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, ok := LeaseLine(text)
		if ok && strings.TrimSpace(text) != "/sayso lease "+string(c) {
			t.Errorf("LeaseLine(%q) = %s", text, c)
		}
	})
}

// TestCategoriesAreLeasable: the store's named categories are risk's
// leasable classes, no more and no fewer.
func TestCategoriesAreLeasable(t *testing.T) {
	named := []Category{RemoteWrite, Merge, ForceRemote, Publish, Deploy, Destructive, ContainerRemove, Privilege, NewRemote}
	if len(named) != len(Categories) {
		t.Errorf("%d named categories, %d leasable classes", len(named), len(Categories))
	}
	for _, c := range named {
		cl, err := risk.ParseClass(string(c))
		if err != nil || !cl.Leasable() {
			t.Errorf("category %s: class %v (%v) is not leasable", c, cl, err)
		}
		if _, err := ParseCategory(string(c)); err != nil {
			t.Errorf("ParseCategory(%s): %v", c, err)
		}
	}
	if _, err := ParseCategory("secret"); err == nil {
		t.Error("ParseCategory accepted secret")
	}
}
