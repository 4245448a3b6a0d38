package team_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/hubserver"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/passkey/passkeytest"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// syncNode is one of the person's machines: its own store and config
// folder, joined through the hub's API, its relay running as in sayso
// serve.
type syncNode struct {
	id     int64
	db     *store.DB
	config string
	home   string
	client *hubapi.Client
	relay  *team.Relay
	stop   func()
}

// turned waits until each node's relay has finished two more turns: one
// that starts after now sees what changed before it.
func turned(t *testing.T, nodes ...*syncNode) {
	t.Helper()
	for _, n := range nodes {
		want := n.relay.Turns() + 2
		testenv.Wait(t, "two turns of the relay", func() (bool, string) {
			got := n.relay.Turns()
			return got >= want, fmt.Sprintf("turn %d, want %d", got, want)
		})
	}
}

// syncTeam is a hub with ada's two machines and bob, the project both of
// ada's machines work in, and the org's key.
type syncTeam struct {
	t        *testing.T
	ctx      context.Context
	h        *hub.Hub
	owner    *pgx.Conn // the hub database's owner, by hand
	ada, bob *passkeytest.Authr
	adaID    int64
	bobID    int64
	a, b     *syncNode
	bobNode  *syncNode
	project  string
	orgKey   ed25519.PrivateKey
}

func newSyncTeam(t *testing.T) *syncTeam {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	hdb := hubtest.Database(t)
	h, err := hub.Open(ctx, hdb.Serve)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	cert, err := hubserver.OwnCert(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := &hubAt{t: t, h: h, addr: "127.0.0.1:0", cert: cert}
	srv.start()
	t.Cleanup(srv.stop)
	base := "https://" + srv.addr
	// The database's superuser, to edit it by hand as a hub taken over
	// could not.
	owner, err := pgx.Connect(ctx, hdb.Super)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { owner.Close(context.Background()) })

	orgPub, orgKey, _ := ed25519.GenerateKey(nil)
	s := &syncTeam{t: t, ctx: ctx, h: h, owner: owner, ada: passkeytest.New(t, "ada"), bob: passkeytest.New(t, "bob"), orgKey: orgKey}
	s.project = filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(filepath.Join(s.project, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	join := func(name, person string) *syncNode {
		token, err := h.MakeToken(ctx, person, false, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		pub, key, _ := ed25519.GenerateKey(nil)
		rep, err := hubapi.Join(ctx, base, cert.Fingerprint, token, name, pub)
		if err != nil {
			t.Fatal(err)
		}
		n := &syncNode{id: rep.Node, config: t.TempDir(), home: t.TempDir()}
		// The node pins ada's passkey for ada, and (as a node may hold
		// pins of a person it does not answer to) bob's for bob.
		st := team.State{Hub: base, OrgKey: orgPub, Node: rep.Node, Person: rep.Person, HubPin: cert.Fingerprint,
			Pins: passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{s.ada.Pinned(t), s.bob.Pinned(t)}}}
		if err := team.WriteState(n.config, st); err != nil {
			t.Fatal(err)
		}
		s.bundle(n, 1, "mode_cap = \"auto\"\n")
		if n.db, err = store.Open(ctx, filepath.Join(t.TempDir(), store.FileName)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.db.Close() })
		if err := n.db.SetChain(ctx, true); err != nil {
			t.Fatal(err)
		}
		rctx, stop := context.WithCancel(ctx)
		n.client = hubapi.NewClient(base, cert.Fingerprint, rep.Node, key)
		relay := &team.Relay{Hub: n.client, DB: n.db, Cards: &gateway.Cards{DB: n.db}, Config: n.config, State: st,
			Every: 30 * time.Millisecond, BundleEvery: time.Hour}
		done := make(chan struct{})
		n.relay = relay
		go func() { defer close(done); relay.Run(rctx) }()
		n.stop = func() { stop(); <-done }
		t.Cleanup(n.stop)
		return n
	}
	s.a = join("ada-laptop", "ada")
	s.b = join("ada-build", "ada")
	bobNode := join("bob-laptop", "bob")
	bobNode.stop()
	s.bobNode = bobNode
	for _, id := range []struct {
		node int64
		to   *int64
	}{{s.a.id, &s.adaID}, {bobNode.id, &s.bobID}} {
		n, err := h.NodeByID(ctx, id.node)
		if err != nil {
			t.Fatal(err)
		}
		*id.to = n.Person
	}
	return s
}

// bundle hands node n the org's bundle seq, as the relay would take it.
func (s *syncTeam) bundle(n *syncNode, seq uint64, policyFile string) {
	s.t.Helper()
	now := time.Now()
	signed, err := bundle.Sign(s.orgKey, bundle.Body{Org: "acme", Seq: seq, Issued: now.Add(-time.Minute), Expires: now.Add(time.Hour), Policy: policyFile})
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := team.Take(n.config, signed, now); err != nil {
		s.t.Fatal(err)
	}
}

// decide is the node's decision on a push in the project, as a hook of
// Claude Code asks it in auto.
func (s *syncTeam) decide(n *syncNode, command string) policy.Decision {
	s.t.Helper()
	d := &gateway.Decider{DB: n.db, Home: n.home, ConfigDir: n.config, Walls: hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: n.home}}
	dec, diag, err := d.Decide(s.ctx, client.Step{Agent: "claude", Event: "PreToolUse", Session: "sync-session", Tool: "Bash", Kind: client.KindShell, Command: command, Cwd: s.project})
	if err != nil {
		s.t.Fatalf("decide %s: %v", command, err)
	}
	s.t.Logf("%s: %v %v", command, dec, diag.Reasons)
	return dec
}

func (s *syncTeam) rule(pattern string) store.Rule {
	return store.Rule{Tool: "Bash", Unit: "command", Pattern: pattern, Cwd: s.project}
}

func (s *syncTeam) hasRule(n *syncNode, pattern string) bool {
	s.t.Helper()
	rs, err := n.db.Rules(s.ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, r := range rs {
		if r.Pattern == pattern {
			return true
		}
	}
	return false
}

// offered waits for the change the machines offered for ada whose bytes
// hold text, and returns it.
func (s *syncTeam) offered(text string) hub.Change {
	s.t.Helper()
	var found hub.Change
	waitFor(s.t, "a change offered holding "+text, func() bool {
		cs, err := s.h.OfferedChanges(s.ctx, s.adaID)
		if err != nil {
			s.t.Fatal(err)
		}
		for _, c := range cs {
			if strings.Contains(string(c.Body), text) {
				found = c
				return true
			}
		}
		return false
	})
	return found
}

// sign is ada signing change c on the hub's page with her passkey.
func (s *syncTeam) sign(c hub.Change) []byte {
	s.t.Helper()
	a := s.ada.Assert(s.t, rpID, origin, passkey.ChangeChallenge(c.Body))
	if err := s.h.SignChange(s.ctx, s.adaID, c.ID, [][]byte{a}); err != nil {
		s.t.Fatal(err)
	}
	return a
}

// refused waits for node n's ledger to say it refused change id.
func (s *syncTeam) refused(n *syncNode, id int64, why string) { s.refusedTimes(n, id, why, 1) }

// refusedTimes waits for the times-th row of n's ledger refusing change
// id: the change was read and refused that often.
func (s *syncTeam) refusedTimes(n *syncNode, id int64, why string, times int) {
	s.t.Helper()
	waitFor(s.t, fmt.Sprintf("change %d refused %d times", id, times), func() bool {
		es, err := n.db.Log(s.ctx, store.LogFilter{})
		if err != nil {
			s.t.Fatal(err)
		}
		seen := 0
		for _, e := range es {
			if e.Kind == store.KindChangeRefused && strings.Contains(e.Summary, fmt.Sprintf("change %d refused", id)) {
				if !strings.Contains(e.Summary, why) {
					s.t.Errorf("change %d refused for another reason than %q: %s", id, why, e.Summary)
				}
				seen++
			}
		}
		return seen >= times
	})
}

// byHand writes a change for ada and a signature of it straight into the
// hub's database, as its owner: what a hostile hub or admin can do.
func (s *syncTeam) byHand(body, assertion []byte) int64 {
	s.t.Helper()
	d := sha256.Sum256(body)
	var id int64
	if err := s.owner.QueryRow(s.ctx, "INSERT INTO changes (person_id, node_id, body, digest) VALUES ($1, $2, $3, $4) RETURNING id",
		s.adaID, s.a.id, body, d[:]).Scan(&id); err != nil {
		s.t.Fatal(err)
	}
	s.signByHand(id, assertion)
	return id
}

func (s *syncTeam) signByHand(id int64, assertion []byte) {
	s.t.Helper()
	if _, err := s.owner.Exec(s.ctx, "INSERT INTO change_signatures (change_id, assertion) VALUES ($1, $2)", id, assertion); err != nil {
		s.t.Fatal(err)
	}
}

func (s *syncTeam) ruleChange(person, pattern string, keep bool) []byte {
	s.t.Helper()
	b, err := json.Marshal(team.ChangeBody{Person: person, Node: s.a.id, Version: time.Now().UnixNano(),
		Rule: &team.RuleBody{Tool: "Bash", Unit: "command", Pattern: pattern, Cwd: s.project}, Keep: keep})
	if err != nil {
		s.t.Fatal(err)
	}
	return b
}

// TestSyncRulesAndNote: a rule kept on ada's laptop decides on her build
// machine once she signs it, and not before; a forget and the note travel
// the same way; the org's deny still beats the rule; leaving keeps it.
// Each is judged by the machine's decision on the step.
func TestSyncRulesAndNote(t *testing.T) {
	s := newSyncTeam(t)
	const push = "git push origin feature/login"

	// A rule kept on the laptop decides there, and on the build machine
	// not yet: it stays local until the person signs it.
	if _, err := s.a.db.AddRule(s.ctx, s.rule("git push origin feature/*")); err != nil {
		t.Fatal(err)
	}
	if d := s.decide(s.a, push); d != policy.Allow {
		t.Fatalf("the laptop's own rule: %v, want allow", d)
	}
	c := s.offered("feature/*")
	turned(t, s.a, s.b)
	if d := s.decide(s.b, push); d == policy.Allow || s.hasRule(s.b, "git push origin feature/*") {
		t.Fatalf("a rule not signed decides on the build machine: %v", d)
	}

	// Signed at the hub: the build machine takes it.
	s.sign(c)
	waitFor(t, "the build machine to take the signed rule", func() bool { return s.hasRule(s.b, "git push origin feature/*") })
	if d := s.decide(s.b, push); d != policy.Allow {
		t.Fatalf("the signed rule on the build machine: %v, want allow", d)
	}

	// The environment note, set on the build machine.
	if err := s.b.db.SetNote(s.ctx, "production is the eu-west-1 account"); err != nil {
		t.Fatal(err)
	}
	s.sign(s.offered("eu-west-1"))
	waitFor(t, "the laptop to take the signed note", func() bool {
		n, _ := s.a.db.Note(s.ctx)
		return n == "production is the eu-west-1 account"
	})

	// A rule forgotten on the build machine: offered as a forget, and
	// once signed, gone from the laptop too.
	if _, err := s.a.db.AddRule(s.ctx, s.rule("git push origin gone/*")); err != nil {
		t.Fatal(err)
	}
	s.sign(s.offered("gone/*"))
	waitFor(t, "the build machine to take the second rule", func() bool { return s.hasRule(s.b, "git push origin gone/*") })
	rs, _ := s.b.db.Rules(s.ctx)
	for _, r := range rs {
		if r.Pattern == "git push origin gone/*" {
			if err := s.b.db.ForgetRule(s.ctx, r.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	forget := s.offered(`"pattern":"git push origin gone/*","cwd":"` + s.project + `"}}`)
	if strings.Contains(string(forget.Body), `"keep":true`) {
		t.Fatalf("the forget was offered as a keep: %s", forget.Body)
	}
	if d := s.decide(s.a, "git push origin gone/x"); d != policy.Allow {
		t.Fatalf("before the forget is signed, the laptop's rule: %v, want allow", d)
	}
	s.sign(forget)
	waitFor(t, "the laptop to take the signed forget", func() bool { return !s.hasRule(s.a, "git push origin gone/*") })
	if d := s.decide(s.a, "git push origin gone/x"); d == policy.Allow {
		t.Fatal("a forgotten rule still decides on the laptop")
	}

	// A rule kept on the laptop and forgotten there while its keep
	// waits for the person: signing the keep afterwards does not bring
	// it back on the laptop (its own forget is newer), and the forget,
	// offered in turn and signed, takes it from the build machine too.
	if _, err := s.a.db.AddRule(s.ctx, s.rule("git push origin brief/*")); err != nil {
		t.Fatal(err)
	}
	keep := s.offered("brief/*")
	rs, _ = s.a.db.Rules(s.ctx)
	for _, r := range rs {
		if r.Pattern == "git push origin brief/*" {
			if err := s.a.db.ForgetRule(s.ctx, r.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	forget = s.offered(`"pattern":"git push origin brief/*","cwd":"` + s.project + `"}}`)
	s.sign(keep)
	s.refused(s.a, keep.ID, "waits for the person")
	if s.hasRule(s.a, "git push origin brief/*") {
		t.Fatal("a keep signed after the laptop forgot the rule brought it back there")
	}
	waitFor(t, "the build machine to take the keep", func() bool { return s.hasRule(s.b, "git push origin brief/*") })
	s.sign(forget)
	waitFor(t, "the build machine to take the forget", func() bool { return !s.hasRule(s.b, "git push origin brief/*") })
	if s.hasRule(s.a, "git push origin brief/*") {
		t.Fatal("the laptop holds the rule it forgot")
	}

	// The org's deny beats the person's synced rule.
	s.bundle(s.b, 2, "[[deny]]\nclass = \"remote-write\"\n")
	if d := s.decide(s.b, push); d != policy.Deny {
		t.Fatalf("the org's deny against a synced rule: %v, want deny", d)
	}

	// Leaving: single-machine mode again, the synced rule kept as local.
	s.b.stop()
	if err := s.b.db.SetChain(s.ctx, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{team.BundleFile, team.StateFile, team.KeyFile} {
		os.Remove(filepath.Join(s.b.config, f))
	}
	if d := s.decide(s.b, push); d != policy.Allow {
		t.Fatalf("after leaving, the synced rule: %v, want allow", d)
	}
}

// TestAttackSyncedChanges: what the hub, or anyone with its database,
// can make of the person's changes. Each is judged on the build machine:
// the step it would let through still asks, and the rule is not there.
func TestAttackSyncedChanges(t *testing.T) {
	s := newSyncTeam(t)
	asks := func(name, pattern string) {
		t.Helper()
		if s.hasRule(s.b, pattern) {
			t.Errorf("%s: the build machine took the rule %s", name, pattern)
		}
		cmd := strings.TrimSuffix(pattern, "*") + "x"
		if d := s.decide(s.b, cmd); d == policy.Allow {
			t.Errorf("%s: %s allowed on the build machine", name, cmd)
		}
	}

	t.Run("sec-change-by-hand", func(t *testing.T) {
		id := s.byHand(s.ruleChange("ada", "git push origin hand/*", true), []byte(`{"id":"x","type":"public-key"}`))
		s.refused(s.b, id, "not the person")
		asks("a change inserted by hand", "git push origin hand/*")
	})
	t.Run("sec-signature-over-other-bytes", func(t *testing.T) {
		signed := s.ruleChange("ada", "git push origin docs/*", true)
		a := s.ada.Assert(t, rpID, origin, passkey.ChangeChallenge(signed))
		id := s.byHand(s.ruleChange("ada", "git push origin other/*", true), a)
		s.refused(s.b, id, "not the person")
		asks("ada's signature over other bytes", "git push origin other/*")
	})
	t.Run("sec-another-persons-passkey", func(t *testing.T) {
		body := s.ruleChange("ada", "git push origin bob/*", true)
		id := s.byHand(body, s.bob.Assert(t, rpID, origin, passkey.ChangeChallenge(body)))
		s.refused(s.b, id, "no passkey of ada")
		asks("bob's passkey on ada's change", "git push origin bob/*")
	})
	t.Run("sec-rule-for-another-person", func(t *testing.T) {
		// bob's own change, signed by bob, routed to ada's machines.
		body := s.ruleChange("bob", "git push origin theirs/*", true)
		id := s.byHand(body, s.bob.Assert(t, rpID, origin, passkey.ChangeChallenge(body)))
		s.refused(s.b, id, "no passkey of ada")
		asks("bob's rule", "git push origin theirs/*")
		// And a change naming bob, signed by ada: not ada's rule.
		body = s.ruleChange("bob", "git push origin named/*", true)
		id = s.byHand(body, s.ada.Assert(t, rpID, origin, passkey.ChangeChallenge(body)))
		s.refused(s.b, id, `a change of "bob"`)
		asks("a change naming bob", "git push origin named/*")
	})
	t.Run("sec-answer-as-change", func(t *testing.T) {
		// ada's "always" to a card whose bytes are the change's: a yes
		// to a card is never a change.
		body := s.ruleChange("ada", "git push origin card/*", true)
		id := s.byHand(body, s.ada.Assert(t, rpID, origin, passkey.Challenge(body, card.AlwaysAllow)))
		s.refused(s.b, id, "not the person")
		asks("an answer's signature as a change's", "git push origin card/*")
	})
	t.Run("sec-version-from-the-future", func(t *testing.T) {
		// Bytes the hub made up and showed the person to sign: a keep
		// numbered past every later change, which no forget would undo.
		b, err := json.Marshal(team.ChangeBody{Person: "ada", Node: s.a.id, Version: math.MaxInt64,
			Rule: &team.RuleBody{Tool: "Bash", Unit: "command", Pattern: "git push origin forever/*", Cwd: s.project}, Keep: true})
		if err != nil {
			t.Fatal(err)
		}
		id := s.byHand(b, s.ada.Assert(t, rpID, origin, passkey.ChangeChallenge(b)))
		s.refused(s.b, id, "further ahead than any machine's clock")
		asks("a keep from the future", "git push origin forever/*")
	})
	t.Run("sec-bytes-read-two-ways", func(t *testing.T) {
		// The page shows the pattern it reads last of "pattern"; Go's
		// reader would take "Pattern" as well: the person signs one rule
		// and a node would read another.
		b := []byte(fmt.Sprintf(`{"person":"ada","node":%d,"version":%d,"rule":{"tool":"Bash","unit":"command","pattern":"git status","Pattern":"git push origin twice/*","cwd":%q},"keep":true}`,
			s.a.id, time.Now().UnixNano(), s.project))
		id := s.byHand(b, s.ada.Assert(t, rpID, origin, passkey.ChangeChallenge(b)))
		s.refused(s.b, id, "not a change as a machine writes it")
		asks("a change read two ways", "git push origin twice/*")
	})
	t.Run("sec-node-of-another-person", func(t *testing.T) {
		// bob's node offers a change naming ada: it waits for bob, and
		// the hub hands bob's node none of ada's signed changes.
		if err := s.bobNode.client.OfferChange(s.ctx, s.ruleChange("ada", "git push origin via-bob/*", true)); err != nil {
			t.Fatal(err)
		}
		if cs, err := s.h.OfferedChanges(s.ctx, s.adaID); err != nil || slices.ContainsFunc(cs, func(c hub.Change) bool { return strings.Contains(string(c.Body), "via-bob") }) {
			t.Fatalf("a change bob's node offered is offered to ada: %v", err)
		}
		cs, err := s.bobNode.client.SignedChanges(s.ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if !strings.Contains(string(c.Body), `"person":"bob"`) {
				t.Errorf("the hub hands bob's node change %d: %s", c.ID, c.Body)
			}
		}
		asks("a change offered by bob's node", "git push origin via-bob/*")
	})
	t.Run("sec-rollback", func(t *testing.T) {
		const pattern = "git push origin roll/*"
		if _, err := s.a.db.AddRule(s.ctx, s.rule(pattern)); err != nil {
			t.Fatal(err)
		}
		keep := s.offered("roll/*")
		keepSig := s.sign(keep)
		waitFor(t, "the build machine to take the kept rule", func() bool { return s.hasRule(s.b, pattern) })
		waitFor(t, "the laptop to take its own kept rule, signed", func() bool {
			held, _ := s.a.db.SyncedAll(s.ctx)
			for subject, h := range held {
				if strings.Contains(subject, "roll/*") && h.Version > 0 {
					return true
				}
			}
			return false
		})
		rs, _ := s.a.db.Rules(s.ctx)
		for _, r := range rs {
			if r.Pattern == pattern {
				if err := s.a.db.ForgetRule(s.ctx, r.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		var forget hub.Change
		waitFor(t, "the forget offered", func() bool {
			cs, _ := s.h.OfferedChanges(s.ctx, s.adaID)
			for _, c := range cs {
				if strings.Contains(string(c.Body), "roll/*") && !strings.Contains(string(c.Body), `"keep":true`) {
					forget = c
					return true
				}
			}
			return false
		})
		s.sign(forget)
		waitFor(t, "the build machine to take the forget", func() bool { return !s.hasRule(s.b, pattern) })

		// The hub hands the keep out again, as it was signed.
		s.signByHand(keep.ID, keepSig)
		s.refused(s.b, keep.ID, "no newer")
		asks("the keep replayed after its forget", pattern)
		// And the person, shown the old keep again, signs it anew: its
		// version is still older than the forget's.
		s.sign(keep)
		s.refusedTimes(s.b, keep.ID, "no newer", 2)
		asks("the old keep signed anew", pattern)
	})
}

// BenchmarkTakeChange measures what a node spends on one signed change:
// the passkey's signature checked against its pins, the change read, and
// the rule written with its ledger row in one transaction.
func BenchmarkTakeChange(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ada := passkeytest.New(b, "ada")
	pins := passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{ada.Pinned(b)}}
	changes := make([]hubapi.Change, b.N)
	for i := range changes {
		body, _ := json.Marshal(team.ChangeBody{Person: "ada", Node: 1, Version: int64(i + 1),
			Rule: &team.RuleBody{Tool: "Bash", Unit: "command", Pattern: fmt.Sprintf("git push origin b%d/*", i), Cwd: "/w"}, Keep: true})
		changes[i] = hubapi.Change{ID: int64(i + 1), Body: body, Assertion: ada.Assert(b, rpID, origin, passkey.ChangeChallenge(body))}
	}
	b.ResetTimer()
	for _, c := range changes {
		if _, err := team.TakeChange(ctx, db, "ada", pins, c, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestUnpinToldToHub: a passkey removed on a machine is no longer one
// the person's page asks the authenticator for, once none of the
// person's machines pins it.
func TestUnpinToldToHub(t *testing.T) {
	s := newSyncTeam(t)
	routed := func() bool {
		ids, err := s.h.PasskeyIDs(s.ctx, s.adaID)
		if err != nil {
			t.Fatal(err)
		}
		return len(ids) == 1 && bytes.Equal(ids[0], s.ada.Pinned(t).CredentialID)
	}
	waitFor(t, "the hub to route ada's passkey", routed)
	id := team.KeyID(s.ada.Pinned(t))
	if _, err := team.Unpin(s.a.config, id); err != nil {
		t.Fatal(err)
	}
	turned(t, s.a, s.b)
	if !routed() {
		t.Fatal("removed on the laptop only, ada's passkey is no longer routed: the build machine still pins it")
	}
	if _, err := team.Unpin(s.b.config, id); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the hub to stop routing the passkey no machine pins", func() bool {
		ids, err := s.h.PasskeyIDs(s.ctx, s.adaID)
		return err == nil && len(ids) == 0
	})
}
