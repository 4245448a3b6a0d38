package hubserver_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hub/pgtest"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/hubserver"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// running is a hub serving its API over TLS on 127.0.0.1, as sayso hub
// does, over a fresh database of the test PostgreSQL.
type running struct {
	h    *hub.Hub
	dsn  string // the superuser's
	db   hubtest.DB
	base string
	pin  string
	dir  string
}

func startHub(t testing.TB) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db := hubtest.Database(t)
	dsn := db.Super
	h, err := hub.Open(ctx, db.Serve)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert, err := hubserver.OwnCert(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- (&hubserver.Server{Hub: h}).Serve(ctx, ln, cert) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		h.Close()
	})
	return &running{h: h, dsn: dsn, db: db, base: "https://" + ln.Addr().String(), pin: cert.Fingerprint, dir: dir}
}

// joined is a node that joined the hub through its API.
type joined struct {
	c      *hubapi.Client
	reply  hubapi.JoinReply
	key    ed25519.PrivateKey
	person int64
}

func (r *running) join(t testing.TB, person, name string) joined {
	t.Helper()
	ctx := context.Background()
	token, err := r.h.MakeToken(ctx, person, false, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	pub, priv, _ := ed25519.GenerateKey(nil)
	rep, err := hubapi.Join(ctx, r.base, r.pin, token, name, pub)
	if err != nil {
		t.Fatalf("join %s: %v", name, err)
	}
	n, err := r.h.NodeByID(ctx, rep.Node)
	if err != nil {
		t.Fatal(err)
	}
	return joined{c: hubapi.NewClient(r.base, r.pin, rep.Node, priv), reply: rep, key: priv, person: n.Person}
}

func refusedWith(err error, code int) bool {
	var ref *hubapi.Refused
	return errors.As(err, &ref) && ref.Status == code
}

// TestJoinTokenOnce: a join token joins one node; used again, unknown or
// expired, it joins none.
func TestJoinTokenOnce(t *testing.T) {
	r := startHub(t)
	ctx := context.Background()
	token, err := r.h.MakeToken(ctx, "ada", false, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _ := ed25519.GenerateKey(nil)
	rep, err := hubapi.Join(ctx, r.base, r.pin, token, "ada-laptop", pub)
	if err != nil || rep.Person != "ada" || rep.Node == 0 || rep.CI {
		t.Fatalf("first join: %+v, %v", rep, err)
	}
	// A name already taken is refused, and the token it came with is
	// left unused.
	spare, _ := r.h.MakeToken(ctx, "ada", false, time.Hour)
	if _, err := hubapi.Join(ctx, r.base, r.pin, spare, "ada-laptop", pub); !refusedWith(err, http.StatusConflict) {
		t.Errorf("a second node named ada-laptop: %v, want 409", err)
	}
	if _, err := hubapi.Join(ctx, r.base, r.pin, spare, "ada-desktop", pub); err != nil {
		t.Errorf("the token refused with a taken name, used again under a free one: %v", err)
	}
	other, _, _ := ed25519.GenerateKey(nil)
	if _, err := hubapi.Join(ctx, r.base, r.pin, token, "mallory-box", other); !refusedWith(err, http.StatusForbidden) {
		t.Errorf("the token used twice: %v, want 403", err)
	}
	if _, err := hubapi.Join(ctx, r.base, r.pin, "no-such-token", "mallory-box", other); !refusedWith(err, http.StatusForbidden) {
		t.Errorf("an unknown token: %v, want 403", err)
	}
	stale, _ := r.h.MakeToken(ctx, "bob", true, -time.Second)
	if _, err := hubapi.Join(ctx, r.base, r.pin, stale, "build-1", other); !refusedWith(err, http.StatusForbidden) {
		t.Errorf("an expired token: %v, want 403", err)
	}
	// Two joins at once with one token: exactly one node.
	token, _ = r.h.MakeToken(ctx, "bob", true, time.Hour)
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep, err := hubapi.Join(ctx, r.base, r.pin, token, fmt.Sprint("build-", 10+i), other)
			if err == nil {
				mu.Lock()
				won++
				mu.Unlock()
				if !rep.CI {
					t.Errorf("a node joined with a CI token is not CI: %+v", rep)
				}
			}
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("one token joined %d nodes at once, want 1", won)
	}
	var nodes int
	conn := pgConn(t, r.dsn)
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM nodes").Scan(&nodes); err != nil {
		t.Fatal(err)
	}
	if nodes != 3 {
		t.Fatalf("the hub holds %d nodes, want ada-laptop, ada-desktop and one build node", nodes)
	}
}

// TestPinnedCertificate: a node that pinned another certificate sends the
// hub nothing: its token stays unused and joins the node afterwards.
func TestPinnedCertificate(t *testing.T) {
	r := startHub(t)
	ctx := context.Background()
	token, _ := r.h.MakeToken(ctx, "ada", false, time.Hour)
	pub, _, _ := ed25519.GenerateKey(nil)
	wrong := "sha256:" + strings.Repeat("ab", 32)
	if _, err := hubapi.Join(ctx, r.base, wrong, token, "ada-laptop", pub); !errors.Is(err, hubapi.ErrPin) {
		t.Fatalf("join to a hub whose certificate is not the pinned one: %v, want ErrPin", err)
	}
	if _, err := hubapi.Join(ctx, r.base, r.pin, token, "ada-laptop", pub); err != nil {
		t.Fatalf("the token after a refused handshake: %v", err)
	}
	// The hub keeps its certificate across starts: the pin holds.
	again, err := hubserver.OwnCert(r.dir, nil)
	if err != nil || again.Fingerprint != r.pin {
		t.Fatalf("the certificate made again: %s, %v; want the kept %s", again.Fingerprint, err, r.pin)
	}
	// The fingerprint read from the certificate's file, as 'sayso hub
	// token --cert' prints it, is the one served.
	if fp, err := hubserver.CertFingerprint(filepath.Join(r.dir, hubserver.CertFile)); err != nil || fp != r.pin {
		t.Fatalf("CertFingerprint = %s, %v; want %s", fp, err, r.pin)
	}
}

// rawRequest is a node request made by hand: what an intruder can send.
func rawRequest(t *testing.T, r *running, method, path string, body []byte) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, r.base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func send(t *testing.T, r *running, req *http.Request) int {
	t.Helper()
	if req.GetBody != nil {
		req.Body, _ = req.GetBody()
	}
	resp, err := (&http.Client{Transport: &http.Transport{TLSClientConfig: hubapi.PinnedTLS(r.pin)}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestUnsignedRefused: a request with no signature, another key's, a
// replayed one, one signed long ago, or a body changed after signing is
// refused, and the hub holds nothing of it.
func TestUnsignedRefused(t *testing.T) {
	r := startHub(t)
	ada := r.join(t, "ada", "ada-laptop")
	bob := r.join(t, "bob", "bob-laptop")
	card := []byte(`{"id":"c1","body":"eyJjYXJkIjoiYzEifQ=="}`)
	_, stranger, _ := ed25519.GenerateKey(nil)
	now := time.Now()
	for _, c := range []struct {
		name string
		make func() *http.Request
	}{
		{"no signature", func() *http.Request { return rawRequest(t, r, "POST", hubapi.PathCards, card) }},
		{"a key the hub never saw", func() *http.Request {
			req := rawRequest(t, r, "POST", hubapi.PathCards, card)
			hubapi.Sign(req, ada.reply.Node, stranger, card, now)
			return req
		}},
		{"another node's key", func() *http.Request {
			req := rawRequest(t, r, "POST", hubapi.PathCards, card)
			hubapi.Sign(req, ada.reply.Node, bob.key, card, now)
			return req
		}},
		{"a node that does not exist", func() *http.Request {
			req := rawRequest(t, r, "POST", hubapi.PathCards, card)
			hubapi.Sign(req, 999, ada.key, card, now)
			return req
		}},
		{"signed ten minutes ago", func() *http.Request {
			req := rawRequest(t, r, "POST", hubapi.PathCards, card)
			hubapi.Sign(req, ada.reply.Node, ada.key, card, now.Add(-10*time.Minute))
			return req
		}},
		{"a body changed after signing", func() *http.Request {
			req := rawRequest(t, r, "POST", hubapi.PathCards, bytes.Replace(card, []byte("c1"), []byte("c2"), 1))
			hubapi.Sign(req, ada.reply.Node, ada.key, card, now)
			return req
		}},
		{"another path than the one signed", func() *http.Request {
			req := rawRequest(t, r, "POST", hubapi.PathCards, card)
			hubapi.Sign(req, ada.reply.Node, ada.key, card, now)
			req.URL.Path = hubapi.PathLedger
			return req
		}},
	} {
		if code := send(t, r, c.make()); code != http.StatusUnauthorized {
			t.Errorf("%s: %d, want 401", c.name, code)
		}
	}
	// A good request, sent twice: the second is a replay.
	req := rawRequest(t, r, "POST", hubapi.PathCards, card)
	hubapi.Sign(req, ada.reply.Node, ada.key, card, now)
	if code := send(t, r, req); code != http.StatusNoContent {
		t.Fatalf("the node's own signed request: %d, want 204", code)
	}
	if code := send(t, r, req); code != http.StatusUnauthorized {
		t.Errorf("the same request again: %d, want 401", code)
	}
	var cards int
	if err := pgConn(t, r.dsn).QueryRow(context.Background(), "SELECT count(*) FROM cards").Scan(&cards); err != nil {
		t.Fatal(err)
	}
	if cards != 1 {
		t.Fatalf("the hub holds %d cards, want only the one its node signed", cards)
	}
}

// hookSteps decides n steps on a node's own store, as its hooks do, each
// chained into the outbox.
func hookSteps(t *testing.T, path string, n int, what string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SetChain(ctx, true); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, err := db.Decide(ctx, store.Step{Session: store.NewSession{ID: "s-" + what, Mode: store.ModeAuto}, Cwd: "/w", Tool: "Bash", Summary: fmt.Sprintf("%s %d", what, i)},
			func(*store.State) store.Outcome {
				return store.Outcome{Decision: store.DecisionAllow, Reason: "auto allows local work"}
			}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTwoNodesShip: two people's nodes ship their ledgers through the API;
// each lands on its own node's chain, each person reads only their own,
// and a node's rows sent again or out of order are refused.
func TestTwoNodesShip(t *testing.T) {
	r := startHub(t)
	ctx := context.Background()
	nodes := []joined{r.join(t, "ada", "ada-laptop"), r.join(t, "bob", "bob-laptop")}
	want := []int{23, 9}
	for i, n := range nodes {
		path := filepath.Join(t.TempDir(), store.FileName)
		hookSteps(t, path, want[i], n.reply.Person)
		db, err := store.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		sent, err := team.Ship(ctx, db, n.c, n.reply.Node, 5)
		if err != nil || sent != want[i] {
			t.Fatalf("%s ships %d, %v; want %d", n.reply.Person, sent, err, want[i])
		}
		// Shipped once, the same rows again are not this chain's next.
		rows, _ := r.h.Ledger(ctx, n.person, 1)
		if err := n.c.Append(ctx, n.reply.Node, []hubapi.Row{rows[0].Row}); !errors.Is(err, hubapi.ErrChain) {
			t.Errorf("%s: a row shipped again: %v, want ErrChain", n.reply.Person, err)
		}
		db.Close()
	}
	for i, n := range nodes {
		held, err := r.h.Ledger(ctx, n.person, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(held) != want[i] {
			t.Fatalf("%s reads %d rows at the hub, want %d", n.reply.Person, len(held), want[i])
		}
		chain := make([]hubapi.Row, len(held))
		for _, e := range held {
			if e.Node != n.reply.Node || !strings.Contains(string(e.Row.Body), n.reply.Person) {
				t.Fatalf("%s reads a row of node %d: %s", n.reply.Person, e.Node, e.Row.Body)
			}
			chain[e.Row.Seq-1] = e.Row
		}
		if err := hubapi.Verify(0, hubapi.Genesis, chain); err != nil {
			t.Fatalf("%s's rows at the hub do not chain: %v", n.reply.Person, err)
		}
	}
}

// TestCardToListener: a card a node posts through the API reaches its
// person's page listener and no one else's; another node can neither read
// the answers to it nor close it.
func TestCardToListener(t *testing.T) {
	r := startHub(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ada := r.join(t, "ada", "ada-laptop")
	bob := r.join(t, "bob", "bob-laptop")
	got := make(chan []hub.Card, 16)
	go hub.Listen(ctx, r.dsn, func(string) {
		cs, err := r.h.OpenCards(ctx, ada.person)
		if err == nil {
			got <- cs
		}
	}, hub.ChannelCards)
	<-got // connected
	if err := ada.c.PostCard(ctx, "c1", []byte(`{"card":"c1","step":"git push origin main"}`)); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(testenv.Hang)
	for seen := false; !seen; {
		select {
		case cs := <-got:
			seen = len(cs) == 1 && cs[0].ID == "c1" && cs[0].Node == ada.reply.Node
		case <-deadline:
			t.Fatal("the card never reached the person's listener")
		}
	}
	if cs, _ := r.h.OpenCards(ctx, bob.person); len(cs) != 0 {
		t.Fatalf("bob's page holds ada's card: %+v", cs)
	}
	r.h.AddAnswer(ctx, "c1", "deny", nil)
	if _, err := bob.c.Answers(ctx, "c1"); !refusedWith(err, http.StatusNotFound) {
		t.Errorf("another node reads the answers to ada's card: %v, want 404", err)
	}
	if err := bob.c.CloseCard(ctx, "c1"); !refusedWith(err, http.StatusNotFound) {
		t.Errorf("another node closes ada's card: %v, want 404", err)
	}
	as, err := ada.c.Answers(ctx, "c1")
	if err != nil || len(as) != 1 || as[0].Verdict != "deny" {
		t.Fatalf("ada's node reads %+v, %v; want the one deny", as, err)
	}
	if err := ada.c.CloseCard(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if cs, _ := r.h.OpenCards(ctx, ada.person); len(cs) != 0 {
		t.Fatalf("a closed card still waits: %+v", cs)
	}
}

// TestBundleServed: the hub hands a node the newest bundle exactly as it
// was signed; with none, it says so.
func TestBundleServed(t *testing.T) {
	r := startHub(t)
	ctx := context.Background()
	ada := r.join(t, "ada", "ada-laptop")
	if _, err := ada.c.Bundle(ctx); !errors.Is(err, hubapi.ErrNoBundle) {
		t.Fatalf("no bundle yet: %v, want ErrNoBundle", err)
	}
	_, org, _ := ed25519.GenerateKey(nil)
	now := time.Now()
	var last bundle.Signed
	for seq := uint64(1); seq <= 2; seq++ {
		s, err := bundle.Sign(org, bundle.Body{Org: "acme", Seq: seq, Issued: now, Expires: now.Add(time.Hour), Policy: "mode_cap = \"auto\"\n"})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.h.PublishBundle(ctx, hub.Bundle{Seq: int64(seq), Body: s.Body, Signature: s.Signature, Expires: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		last = s
	}
	got, err := ada.c.Bundle(ctx)
	if err != nil || !bytes.Equal(got.Body, last.Body) || !bytes.Equal(got.Signature, last.Signature) {
		t.Fatalf("the node fetched %s, %v; want bundle #2 as signed", got.Body, err)
	}
}

// TestReplayAfterRestart: a node's signed request, captured and sent
// again within its time after the hub restarted, is refused as it is
// while the hub runs: the replay reads none of the card's answers. A
// request the node signs afresh is still answered.
func TestReplayAfterRestart(t *testing.T) {
	ctx := context.Background()
	db := hubtest.Database(t)
	dir := t.TempDir()
	cert, err := hubserver.OwnCert(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	// serve starts a hub on the database; stop ends it and closes its
	// connections, as a restart does.
	serve := func() (r *running, stop func()) {
		sctx, cancel := context.WithCancel(ctx)
		h, err := hub.Open(sctx, db.Serve)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- (&hubserver.Server{Hub: h}).Serve(sctx, ln, cert) }()
		return &running{h: h, dsn: db.Super, db: db, base: "https://" + ln.Addr().String(), pin: cert.Fingerprint, dir: dir}, func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
			h.Close()
		}
	}
	first, stop := serve()
	ada := first.join(t, "ada", "ada-laptop")
	if err := ada.c.PostCard(ctx, "c1", []byte(`{"card":"c1"}`)); err != nil {
		t.Fatal(err)
	}
	const secret = "the-person-s-assertion"
	if err := first.h.AddAnswer(ctx, "c1", "deny", []byte(secret)); err != nil {
		t.Fatal(err)
	}
	path := hubapi.PathCards + "/c1/answers"
	req := rawRequest(t, first, "GET", path, nil)
	hubapi.Sign(req, ada.reply.Node, ada.key, nil, time.Now())
	read := func(r *running, req *http.Request) (int, string) {
		t.Helper()
		u := *req.URL
		req = req.Clone(ctx)
		req.URL, _ = url.Parse(r.base + u.RequestURI())
		req.Host = req.URL.Host
		resp, err := (&http.Client{Transport: &http.Transport{TLSClientConfig: hubapi.PinnedTLS(r.pin)}}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := read(first, req); code != http.StatusOK || !strings.Contains(body, base64.StdEncoding.EncodeToString([]byte(secret))) {
		t.Fatalf("the node's own signed request: %d %s; want 200 with the answer", code, body)
	}
	if code, _ := read(first, req); code != http.StatusUnauthorized {
		t.Fatalf("the same request again, while the hub runs: %d, want 401", code)
	}
	stop()

	second, stop := serve()
	defer stop()
	code, body := read(second, req)
	if code != http.StatusUnauthorized || strings.Contains(body, base64.StdEncoding.EncodeToString([]byte(secret))) {
		t.Errorf("the request replayed after the hub restarted: %d %s; want 401 and none of the answers", code, body)
	}
	// The node itself, signing afresh, is answered by the restarted hub.
	again := hubapi.NewClient(second.base, second.pin, ada.reply.Node, ada.key)
	if as, err := again.Answers(ctx, "c1"); err != nil || len(as) != 1 || string(as[0].Assertion) != secret {
		t.Fatalf("a fresh request after the restart: %+v, %v", as, err)
	}
}
