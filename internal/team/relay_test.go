package team_test

import (
	"context"
	"crypto/ed25519"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/hubserver"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/passkey/passkeytest"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/testenv"
)

const (
	rpID   = "hub.example"
	origin = "https://hub.example"
)

// hubAt is the hub's server on a fixed address, which the test stops and
// starts again: the hub down and back.
type hubAt struct {
	t      *testing.T
	h      *hub.Hub
	addr   string
	cert   hubserver.Cert
	cancel context.CancelFunc
	done   chan error
}

func (s *hubAt) start() {
	s.t.Helper()
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		s.t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan error, 1)
	go func() { s.done <- (&hubserver.Server{Hub: s.h}).Serve(ctx, ln, s.cert) }()
}

func (s *hubAt) stop() {
	if s.cancel != nil {
		s.cancel()
		<-s.done
		s.cancel = nil
	}
}

// aNode is a node that joined the hub through its API, with its own store
// and the gateway's cards, the relay running beside them as in sayso
// serve.
type aNode struct {
	db     *store.DB
	cards  *gateway.Cards
	config string
	state  team.State
}

// TestRelay: a node's relay posts its card for the person, takes an
// answer only with the person's passkey over exactly that card, takes
// the org's bundle only when newer and signed by the pinned key, and
// keeps deciding, closed, while the hub is down. Each case is judged by
// the step's decision and the node's ledger.
func TestRelay(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hdb := hubtest.Database(t)
	dsn := hdb.Super
	h, err := hub.Open(ctx, hdb.Serve)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	cert, err := hubserver.OwnCert(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := &hubAt{t: t, h: h, addr: "127.0.0.1:0", cert: cert}
	srv.start()
	defer srv.stop()
	base := "https://" + srv.addr

	orgPub, orgKey, _ := ed25519.GenerateKey(nil)
	ada, bob := passkeytest.New(t, "ada"), passkeytest.New(t, "bob")
	adaCopy := ada.Clone() // a copy of ada's authenticator, made before it signs
	token, err := h.MakeToken(ctx, "ada", false, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	nodePub, nodeKey, _ := ed25519.GenerateKey(nil)
	rep, err := hubapi.Join(ctx, base, cert.Fingerprint, token, "ada-laptop", nodePub)
	if err != nil {
		t.Fatal(err)
	}
	n := aNode{config: t.TempDir()}
	n.state = team.State{Hub: base, OrgKey: orgPub, Node: rep.Node, Person: rep.Person, HubPin: cert.Fingerprint,
		Pins: passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{ada.Pinned(t), bob.Pinned(t)}}}
	if err := team.WriteState(n.config, n.state); err != nil {
		t.Fatal(err)
	}
	if n.db, err = store.Open(ctx, filepath.Join(t.TempDir(), store.FileName)); err != nil {
		t.Fatal(err)
	}
	defer n.db.Close()
	if err := n.db.SetChain(ctx, true); err != nil {
		t.Fatal(err)
	}
	// A card waits as long as a hang would: the test ends the one it
	// wants unanswered itself, once what it checks has happened.
	n.cards = &gateway.Cards{DB: n.db, Timeout: testenv.Hang}
	clock := &testClock{}
	relay := &team.Relay{Hub: hubapi.NewClient(base, cert.Fingerprint, rep.Node, nodeKey), DB: n.db, Cards: n.cards, Config: n.config, State: n.state,
		Every: 50 * time.Millisecond, BundleEvery: 100 * time.Millisecond, Now: clock.Now}
	relayDone := make(chan struct{})
	go func() { defer close(relayDone); relay.Run(ctx) }()
	defer func() { cancel(); <-relayDone }()

	adaID, err := h.NodeByID(ctx, rep.Node)
	if err != nil {
		t.Fatal(err)
	}
	// The person's page: a listener that re-reads ada's open cards.
	var pageMu sync.Mutex
	page := map[string][]byte{}
	rang := make(chan struct{}, 64)
	go hub.Listen(ctx, dsn, func(string) {
		cs, err := h.OpenCards(ctx, adaID.Person)
		if err != nil {
			return
		}
		pageMu.Lock()
		clear(page)
		for _, c := range cs {
			page[c.ID] = c.Body
		}
		pageMu.Unlock()
		select {
		case rang <- struct{}{}:
		default:
		}
	}, hub.ChannelCards)

	// ask makes a step wait for the person on the node, as the gateway
	// does for a hook, and returns the card's id once the person's page
	// at the hub shows it, and the step's decision once it is made.
	// Ending a card unanswered is the test's: expire[id] ends its wait as
	// its timeout would.
	type outcome struct {
		dec  policy.Decision
		diag policy.Diagnostic
		err  error
	}
	expire := map[string]func(){}
	session := "s1"
	if _, err := n.db.Decide(ctx, store.Step{Session: store.NewSession{ID: session, Mode: store.ModeAuto}, Cwd: "/w", Tool: "Bash", Summary: "ls"},
		func(*store.State) store.Outcome { return store.Outcome{Decision: store.DecisionAllow, Reason: "read"} }); err != nil {
		t.Fatal(err)
	}
	ask := func(command string, reach bool, classes ...risk.Class) (string, []byte, chan outcome) {
		t.Helper()
		done := make(chan outcome, 1)
		wctx, end := context.WithCancelCause(ctx)
		asked := policy.Diagnostic{Reasons: []string{"ask: it pushes to a remote"}}
		for _, c := range classes {
			asked.Assessment.Classes = asked.Assessment.Classes.Add(c)
		}
		go func() {
			s := client.Step{Agent: "claude", Event: "PreToolUse", Session: session, Tool: "Bash", Kind: client.KindShell, Command: command, Cwd: "/w"}
			dec, diag, err := n.cards.Wait(wctx, s, store.Step{Session: store.NewSession{ID: session, Mode: store.ModeAuto}, Cwd: "/w", Tool: "Bash", Summary: command},
				policy.Ask, asked)
			done <- outcome{dec, diag, err}
		}()
		var id string
		waitFor(t, "the card of "+command+" on the node", func() bool {
			for _, c := range n.cards.List() {
				if c.Step == command {
					id = c.ID
				}
			}
			return id != ""
		})
		expire[id] = func() { end(context.DeadlineExceeded) }
		if !reach {
			return id, nil, done
		}
		var body []byte
		waitFor(t, "card "+id+" ("+command+") on the person's page at the hub", func() bool {
			pageMu.Lock()
			defer pageMu.Unlock()
			var ok bool
			body, ok = page[id]
			return ok
		})
		return id, body, done
	}
	decided := func(done chan outcome) outcome {
		t.Helper()
		select {
		case o := <-done:
			if o.err != nil {
				t.Fatalf("the step's wait: %v", o.err)
			}
			return o
		case <-time.After(testenv.Hang):
			t.Fatalf("the step was not decided within %s", testenv.Hang)
		}
		return outcome{}
	}
	ledgerSays := func(kind, text string) bool {
		es, err := n.db.Log(ctx, store.LogFilter{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Kind == kind && strings.Contains(e.Summary, text) {
				return true
			}
		}
		return false
	}
	owner, err := pgx.Connect(ctx, dsn) // the hub database's owner, by hand
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)

	// Forged answers relayed by the hub: the step stays asked, and the
	// node's ledger says why.
	other := []byte(`{"card":"elsewhere"}`)
	for _, c := range []struct {
		name, command, why string
		forge              func(id string, body []byte)
	}{
		{"no signature", "git push origin a", "no signature", func(id string, _ []byte) { h.AddAnswer(ctx, id, "allow-once", nil) }},
		{"another person's passkey", "git push origin b", "no passkey of ada", func(id string, body []byte) {
			h.AddAnswer(ctx, id, "allow-once", bob.Assert(t, rpID, origin, passkey.Challenge(body, card.AllowOnce)))
		}},
		{"the person's signature over another card, inserted by hand", "git push origin c", "challenge", func(id string, _ []byte) {
			if _, err := owner.Exec(ctx, "INSERT INTO answers (card_id, verdict, assertion) VALUES ($1, 'allow-once', $2)", id,
				ada.Assert(t, rpID, origin, passkey.Challenge(other, card.AllowOnce))); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		id, body, done := ask(c.command, true)
		c.forge(id, body)
		waitFor(t, c.name+": the forged answer refused", func() bool { return ledgerSays(store.KindAnswerRefused, c.why) })
		turns := relay.Turns()
		waitFor(t, "two more turns of the relay, each reading the forged answer", func() bool { return relay.Turns() >= turns+2 })
		expire[id]()
		o := decided(done)
		if o.dec != policy.Ask || o.diag.Answered {
			t.Errorf("%s: the step was decided %v (answered %v), want it still asked", c.name, o.dec, o.diag.Answered)
		}
		if !ledgerSays(store.KindAnswerRefused, c.why) {
			t.Errorf("%s: the node's ledger holds no refused answer saying %q", c.name, c.why)
		}
		if !ledgerSays(store.KindCardExpired, c.command) {
			t.Errorf("%s: the node's ledger holds no expired card", c.name)
		}
		if ledgerSays(store.KindAnswer, c.command) {
			t.Errorf("%s: the node's ledger records an answer to the step", c.name)
		}
	}

	// The person's own yes over exactly the card lets it through; a deny
	// needs no signature.
	id, body, done := ask("git push origin yes", true)
	if err := h.AddAnswer(ctx, id, "allow-once", ada.Assert(t, rpID, origin, passkey.Challenge(body, card.AllowOnce))); err != nil {
		t.Fatal(err)
	}
	if o := decided(done); o.dec != policy.Allow || !ledgerSays(store.KindAnswer, "allow-once: git push origin yes") {
		t.Fatalf("the person's own yes: %v, %v", o.dec, o.diag.Reasons)
	}
	id, _, done = ask("git push origin no", true)
	h.AddAnswer(ctx, id, "deny", nil)
	if o := decided(done); o.dec != policy.Deny {
		t.Fatalf("the hub's deny: %v, %v", o.dec, o.diag.Reasons)
	}
	// A copy of the person's authenticator signs a yes over exactly the
	// card, its counter behind the one the node saw of the original:
	// refused, and the step stays asked.
	id, body, done = ask("git push origin cloned", true)
	if err := h.AddAnswer(ctx, id, "allow-once", adaCopy.Assert(t, rpID, origin, passkey.Challenge(body, card.AllowOnce))); err != nil {
		t.Fatal(err)
	}
	if o := decided(done); o.dec != policy.Ask || o.diag.Answered || ledgerSays(store.KindAnswer, "git push origin cloned") {
		t.Fatalf("a cloned authenticator's yes: the step was decided %v (answered %v), want it still asked", o.dec, o.diag.Answered)
	}
	if !ledgerSays(store.KindAnswerRefused, "signature counter") {
		t.Error("a cloned authenticator's yes: the node's ledger holds no refused answer saying its counter did not grow")
	}
	// A severe step asks twice, as on the node's own page: the person's
	// yes alone lets nothing through; the node asks for a confirmation
	// with a challenge of its own and takes one over it only within its
	// own window, by its own clock.
	id, body, done = ask("git push --force origin main", true, risk.ForceRemote)
	challengeAt := func(id string, want bool) []byte {
		t.Helper()
		var got []byte
		waitFor(t, "the node's ask for a confirmation", func() bool {
			cs, _ := h.OpenCards(ctx, adaID.Person)
			for _, c := range cs {
				if c.ID == id {
					got = c.Confirm
				}
			}
			return (got != nil) == want
		})
		return got
	}
	confirm := func(id string, body, challenge []byte) {
		t.Helper()
		if err := h.AddAnswer(ctx, id, passkey.VerdictConfirm, ada.Assert(t, rpID, origin, passkey.ConfirmChallenge(body, challenge))); err != nil {
			t.Fatal(err)
		}
	}
	clock.freeze()
	if err := h.AddAnswer(ctx, id, "allow-once", ada.Assert(t, rpID, origin, passkey.Challenge(body, card.AllowOnce))); err != nil {
		t.Fatal(err)
	}
	first := challengeAt(id, true)
	// At once (a double press): refused.
	confirm(id, body, first)
	waitFor(t, "the early confirmation refused", func() bool { return ledgerSays(store.KindAnswerRefused, "sooner than") })
	clock.thaw(0)
	time.Sleep(card.ConfirmAfter) // a window of the node's own clock, not a condition
	// Over a challenge of the page's own: refused.
	confirm(id, body, []byte("a challenge the node never made"))
	waitFor(t, "the confirmation over another challenge refused", func() bool { return ledgerSays(store.KindAnswerRefused, "(confirm): not the person") })
	// Too late: the node forgets the yes and withdraws its challenge;
	// a confirmation over it then confirms nothing.
	clock.thaw(card.ConfirmLapse + time.Second)
	challengeAt(id, false)
	clock.thaw(0)
	confirm(id, body, first)
	waitFor(t, "the late confirmation refused", func() bool { return ledgerSays(store.KindAnswerRefused, "no first yes") })
	select {
	case o := <-done:
		t.Fatalf("a severe step was decided %v before its confirmation", o.dec)
	default:
	}
	// The person presses again, and confirms in time: allowed.
	if err := h.AddAnswer(ctx, id, "allow-once", ada.Assert(t, rpID, origin, passkey.Challenge(body, card.AllowOnce))); err != nil {
		t.Fatal(err)
	}
	second := challengeAt(id, true)
	time.Sleep(card.ConfirmAfter) // a window of the node's own clock, not a condition
	confirm(id, body, second)
	if o := decided(done); o.dec != policy.Allow || !ledgerSays(store.KindAnswer, "allow-once: git push --force origin main") {
		t.Fatalf("a severe step, allowed and confirmed: %v, %v", o.dec, o.diag.Reasons)
	}

	// Once its step is decided, the card is closed at the hub.
	waitFor(t, "the answered cards closed at the hub", func() bool {
		cs, _ := h.OpenCards(ctx, adaID.Person)
		return len(cs) == 0
	})

	// The org's bundle: taken when newer and signed by the pinned key.
	sign := func(key ed25519.PrivateKey, seq uint64) {
		now := time.Now()
		s, err := bundle.Sign(key, bundle.Body{Org: "acme", Seq: seq, Issued: now.Add(-time.Minute), Expires: now.Add(time.Hour), Policy: "mode_cap = \"auto\"\n"})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.PublishBundle(ctx, hub.Bundle{Seq: int64(seq), Body: s.Body, Signature: s.Signature, Expires: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := team.Load(n.config, time.Now()); got.Org != nil {
		t.Fatalf("a bundle before any was published: %+v", got.Org)
	}
	sign(orgKey, 1)
	waitFor(t, "the node to take bundle #1", func() bool {
		got := team.Load(n.config, time.Now())
		return got.Org != nil && got.Org.Seq == 1
	})
	_, stranger, _ := ed25519.GenerateKey(nil)
	sign(stranger, 2) // not the org key: refused, #1 kept
	since, turns := time.Now(), relay.Turns()
	waitFor(t, "two bundle fetches of the relay since #2", func() bool {
		return relay.Turns() >= turns+2 && time.Since(since) > 2*relay.BundleEvery
	})
	if got := team.Load(n.config, time.Now()); got.Org == nil || got.Org.Seq != 1 {
		t.Fatalf("after a bundle signed by another key the node holds %+v (%s), want #1", got.Org, got.Why)
	}

	// The hub down: the step's card stays on the node, the step stays
	// asked, and ledger rows wait in the outbox.
	srv.stop()
	id, _, done = ask("git push origin offline", false)
	turns = relay.Turns()
	waitFor(t, "two turns of the relay with the hub down", func() bool { return relay.Turns() >= turns+2 })
	expire[id]()
	if o := decided(done); o.dec != policy.Ask {
		t.Fatalf("offline: the step was decided %v, want it asked", o.dec)
	}
	pending, err := n.db.Outbox(ctx, 1000)
	if err != nil || len(pending) == 0 {
		t.Fatalf("offline: the outbox holds %d rows, %v; want the rows written since", len(pending), err)
	}
	// And back: the outbox drains into the node's chain at the hub, and
	// new cards reach the page again.
	srv.start()
	id, body, done = ask("git push origin back", true)
	h.AddAnswer(ctx, id, "allow-once", ada.Assert(t, rpID, origin, passkey.Challenge(body, card.AllowOnce)))
	if o := decided(done); o.dec != policy.Allow {
		t.Fatalf("back online, the person's yes: %v, %v", o.dec, o.diag.Reasons)
	}
	waitFor(t, "every ledger row at the hub", func() bool {
		local, _ := n.db.Log(ctx, store.LogFilter{})
		held, _ := h.Ledger(ctx, adaID.Person, 10000)
		out, _ := n.db.Outbox(ctx, 1)
		return len(out) == 0 && len(held) == len(local)
	})
	held, _ := h.Ledger(ctx, adaID.Person, 10000)
	chain := make([]hubapi.Row, len(held))
	for _, e := range held {
		chain[e.Row.Seq-1] = e.Row
	}
	if err := hubapi.Verify(0, hubapi.Genesis, chain); err != nil {
		t.Fatalf("the node's rows at the hub do not chain: %v", err)
	}
}

// testClock is the relay's clock: the wall clock, frozen or moved on.
type testClock struct {
	mu     sync.Mutex
	frozen *time.Time
	skew   time.Duration
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen != nil {
		return *c.frozen
	}
	return time.Now().Add(c.skew)
}

func (c *testClock) freeze() {
	now := c.Now()
	c.mu.Lock()
	c.frozen = &now
	c.mu.Unlock()
}

// thaw runs the clock again, skew ahead of the wall clock.
func (c *testClock) thaw(skew time.Duration) {
	c.mu.Lock()
	c.frozen, c.skew = nil, skew
	c.mu.Unlock()
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	testenv.Wait(t, what, func() (bool, string) { return ok(), "not yet" })
}
