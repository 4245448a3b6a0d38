package team

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/passkey/passkeytest"
	"github.com/sayso-dev/sayso/internal/testenv"
)

const (
	rpID   = "hub.example"
	origin = "https://hub.example"
)

// TestOnlyThePersonSaysYes: the hub carries answers to a node's card; the
// node lets a step through only on the card's person's own passkey over
// exactly that card and verdict, once. Everything else the hub or its
// database could send allows nothing; a deny needs no signature.
func TestOnlyThePersonSaysYes(t *testing.T) {
	ctx := context.Background()
	hdb := hubtest.Database(t)
	dsn := hdb.Super
	h, err := hub.Open(ctx, hdb.Serve)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ada, _ := h.AddPerson(ctx, "ada")
	node, err := h.AddNode(ctx, "ada-laptop", ada, false, make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	adaKey, bobKey := passkeytest.New(t, "ada"), passkeytest.New(t, "bob")
	taker := &Taker{Pins: passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{adaKey.Pinned(t), bobKey.Pinned(t)}}}

	waiting := func(id, step string) Waiting {
		w := Waiting{ID: id, Person: "ada", Body: []byte(`{"card":"` + id + `","node":"ada-laptop","step":"` + step + `"}`)}
		if err := h.PostCard(ctx, node, w.ID, w.Body); err != nil {
			t.Fatal(err)
		}
		return w
	}
	db, err := pgx.Connect(ctx, dsn) // the database's owner, editing by hand
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	byHand := func(w Waiting, verdict string, assertion []byte) {
		if _, err := db.Exec(ctx, "INSERT INTO answers (card_id, verdict, assertion) VALUES ($1, $2, $3)", w.ID, verdict, assertion); err != nil {
			t.Fatal(err)
		}
	}
	take := func(w Waiting) Say {
		as, err := h.Answers(ctx, w.ID)
		if err != nil {
			t.Fatal(err)
		}
		return taker.Take(w, as)
	}
	other := Waiting{ID: "c-other", Person: "ada", Body: []byte(`{"card":"c-other","step":"ls"}`)}
	for _, c := range []struct {
		name   string
		answer func(w Waiting)
		why    string
	}{
		{"no signature", func(w Waiting) { h.AddAnswer(ctx, w.ID, "allow-once", nil) }, "no signature"},
		{"another person's signature", func(w Waiting) {
			h.AddAnswer(ctx, w.ID, "allow-once", bobKey.Assert(t, rpID, origin, passkey.Challenge(w.Body, card.AllowOnce)))
		}, "no passkey of ada"},
		{"a signature over another card", func(w Waiting) {
			h.AddAnswer(ctx, w.ID, "allow-once", adaKey.Assert(t, rpID, origin, passkey.Challenge(other.Body, card.AllowOnce)))
		}, "challenge"},
		{"allow once made always", func(w Waiting) {
			h.AddAnswer(ctx, w.ID, "always", adaKey.Assert(t, rpID, origin, passkey.Challenge(w.Body, card.AllowOnce)))
		}, "challenge"},
		{"the card as the hub stores it, edited", func(w Waiting) {
			edited := []byte(strings.Replace(string(w.Body), "git push", "git push --force", 1))
			h.AddAnswer(ctx, w.ID, "allow-once", adaKey.Assert(t, rpID, origin, passkey.Challenge(edited, card.AllowOnce)))
		}, "challenge"},
		{"signed on another origin", func(w Waiting) {
			h.AddAnswer(ctx, w.ID, "allow-once", adaKey.Assert(t, rpID, "https://evil.example", passkey.Challenge(w.Body, card.AllowOnce)))
		}, "origin"},
		{"an answer row inserted by hand", func(w Waiting) { byHand(w, "allow-once", []byte(`{"id":"x"}`)) }, ""},
		{"a real signature copied by hand from another card", func(w Waiting) {
			byHand(w, "allow-once", adaKey.Assert(t, rpID, origin, passkey.Challenge(other.Body, card.AllowOnce)))
		}, "challenge"},
	} {
		w := waiting("c-"+strings.ReplaceAll(c.name, " ", "-"), "git push origin main")
		c.answer(w)
		s := take(w)
		if s.Taken || len(s.Refused) != 1 || !strings.Contains(s.Refused[0].Why, c.why) {
			t.Errorf("%s: took %q, refused %+v; want nothing taken and why (%q)", c.name, s.Answer, s.Refused, c.why)
		}
	}

	// The person's own yes is taken, once.
	w := waiting("c-yes", "git push origin main")
	yes := adaKey.Assert(t, rpID, origin, passkey.Challenge(w.Body, card.AlwaysAllow))
	if err := h.AddAnswer(ctx, w.ID, "always", yes); err != nil {
		t.Fatal(err)
	}
	if s := take(w); !s.Taken || s.Answer != card.AlwaysAllow {
		t.Fatalf("the person's own yes: took %q, refused %+v", s.Answer, s.Refused)
	}
	if s := take(w); s.Taken {
		t.Fatalf("the same signature replayed was taken again: %q", s.Answer)
	}
	// A deny needs no signature: the hub can always say no.
	w = waiting("c-no", "git push origin main")
	h.AddAnswer(ctx, w.ID, "deny", nil)
	if s := take(w); !s.Taken || s.Answer != card.Deny {
		t.Fatalf("a deny: took %q, refused %+v", s.Answer, s.Refused)
	}
}

// TestCardReachesThePageWithoutItsRing: the listener is killed, a card is
// posted while it is gone, and the listener that comes back reads it from
// the table: the ring was lost, the card was not.
func TestCardReachesThePageWithoutItsRing(t *testing.T) {
	ctx := context.Background()
	hdb := hubtest.Database(t)
	dsn := hdb.Super
	h, err := hub.Open(ctx, hdb.Serve)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ada, _ := h.AddPerson(ctx, "ada")
	node, _ := h.AddNode(ctx, "ada-laptop", ada, false, make([]byte, 32))

	// page is what the person's hub page shows: it re-reads the open cards
	// at every ring and at every (re)connection.
	var mu sync.Mutex
	var shown []string
	rings := make(chan string, 16)
	page := func(channel string) {
		cards, err := h.OpenCards(ctx, ada)
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		shown = shown[:0]
		for _, c := range cards {
			shown = append(shown, c.ID)
		}
		mu.Unlock()
		rings <- channel
	}
	listen := func() chan error {
		done := make(chan error, 1)
		go func() { done <- hub.Listen(ctx, dsn, page, hub.ChannelCards) }()
		if ch := <-rings; ch != "" {
			t.Fatalf("first ring %q, want the connection's own", ch)
		}
		return done
	}
	done := listen()
	if err := h.PostCard(ctx, node, "c1", []byte(`{"card":"c1"}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case ch := <-rings:
		if ch != hub.ChannelCards {
			t.Fatalf("ring on %q", ch)
		}
	case <-time.After(testenv.Hang):
		t.Fatal("no ring for a new card")
	}
	// Kill the listener's connection from the server's side.
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the listener ended without an error")
		}
	case <-time.After(testenv.Hang):
		t.Fatal("the killed listener did not notice")
	}
	if err := h.PostCard(ctx, node, "c2", []byte(`{"card":"c2"}`)); err != nil {
		t.Fatal(err)
	}
	listen() // back: it reads the table first
	mu.Lock()
	defer mu.Unlock()
	if len(shown) != 2 || shown[1] != "c2" {
		t.Fatalf("after the reconnect the page shows %v, want c1 and c2", shown)
	}
}
