package gateway_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
)

// Seed 000 §3: "Always allow" is offered in Auto (and autopilot), never on
// a card in an ask-mode session, and never for someone else's words: a
// session holding a guest's message offers no rule. The same push offers
// one in an auto session.
func TestSeed000s3OfferOnlyInAutoNeverForAGuest(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	const push = "git push origin feature/login"

	// auto: the card offers the rule.
	conn := f.openHook("s-auto", push)
	c := f.waitCard(push)
	if len(c.Offer) == 0 {
		t.Fatalf("an auto session's card offers no rule: %q", c.NoOffer)
	}
	conn.Close()
	f.gone(c)

	// ask: the person answers each step; no rule is offered.
	if got := f.hook("s-ask", "ls"); got != "allow" {
		t.Fatalf("ls in a new session = %q", got)
	}
	sessions, err := f.db.Sessions(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, s := range sessions {
		if strings.HasSuffix(s.ID, "s-ask") {
			id = s.ID
		}
	}
	if err := f.db.SetMode(t.Context(), id, store.ModeAsk); err != nil {
		t.Fatal(err)
	}
	conn = f.openHook("s-ask", push)
	c = f.waitCard(push)
	if len(c.Offer) != 0 || !strings.Contains(c.NoOffer, "ask") {
		t.Errorf("an ask session's card offers %v (no offer: %q), want none, saying why", c.Offer, c.NoOffer)
	}
	conn.Close()
	f.gone(c)

	// a guest's words in the session: no rule is offered.
	chat := f.addHost("chat", false)
	if code, body := f.api("POST", "/api/v1/messages", chat, map[string]any{"session": "g1", "source": "guest", "text": "please push my branch"}, nil); code != 201 {
		t.Fatalf("guest message: %d %v", code, body)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.api("POST", "/api/v1/steps", chat, map[string]any{"session": "g1", "cwd": f.project, "command": push, "wait": 2}, nil)
	}()
	c = f.waitCard(push)
	if len(c.Offer) != 0 || !strings.Contains(c.NoOffer, "someone else") {
		t.Errorf("a card in a session holding a guest's words offers %v (no offer: %q), want none, saying why", c.Offer, c.NoOffer)
	}
	<-done
}

// Seed 000 §3, "words shown each time": a class the person lists in
// show_each_time is never offered "always" and never lifted by a rule,
// even one they kept before they listed it.
func TestSeed000s3ShowEachTime(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	const push = "git push origin feature/login"

	// The person keeps the push rule from a card.
	got := make(chan string, 1)
	go func() { got <- f.hook("s-each", push) }()
	c := f.waitCard(push)
	if len(c.Offer) == 0 {
		t.Fatalf("the card offers no rule: %q", c.NoOffer)
	}
	person, csrf := f.login()
	if code, body := f.answer(person, c.ID, answerForm(csrf, "always")); code != http.StatusSeeOther {
		t.Fatalf("always: status %d %s", code, body)
	}
	if d := <-got; d != "allow" {
		t.Fatalf("the pressed push = %q", d)
	}
	if d := f.hook("s-each", push); d != "allow" {
		t.Fatalf("the kept rule does not lift the next push: %q", d)
	}

	// Then lists remote-write as shown each time: the rule no longer
	// lifts it, and the card offers none.
	if err := os.WriteFile(filepath.Join(f.config, "policy.toml"), []byte("show_each_time = [\"remote-write\", \"network\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	go func() { got <- f.hook("s-each", push) }()
	c = f.waitCard(push)
	if len(c.Offer) != 0 || !strings.Contains(c.NoOffer, "each time") {
		t.Errorf("a class shown each time: the card offers %v (no offer: %q), want none, saying why", c.Offer, c.NoOffer)
	}
	if code, body := f.post(person, "/cards/"+c.ID+"/answer", answerForm(csrf, "deny"), nil); code != http.StatusSeeOther {
		t.Fatalf("deny: status %d %s", code, body)
	}
	if d := <-got; d != "deny" {
		t.Errorf("the push after show_each_time = %q, want the card's deny", d)
	}
}

// A task made from a session holding a guest's words is itself tainted:
// the card of its own step offers no rule, saying why, while the same step
// in a task made from a clean session offers one.
func TestTaskOfAGuestSessionOffersNoRule(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	chat := f.addHost("chat", true) // it may label the person's own words
	for _, m := range []map[string]any{
		{"session": "clean", "source": "person", "text": "push my branch when the tests pass"},
		{"session": "g1", "source": "person", "text": "push my branch when the tests pass"},
		{"session": "g1", "source": "guest", "text": "please push my branch"},
	} {
		if code, body := f.api("POST", "/api/v1/messages", chat, m, nil); code != 201 {
			t.Fatalf("message %v: %d %v", m, code, body)
		}
	}
	for _, tc := range []struct {
		parent, task string
		offers       bool
	}{
		{"clean", "clean-task", true},
		{"g1", "g1-task", false},
	} {
		if code, body := f.api("POST", "/api/v1/tasks", chat, map[string]any{"session": tc.parent, "task": tc.task, "prompt": "push it"}, nil); code != 201 {
			t.Fatalf("make %s: %d %v", tc.task, code, body)
		}
		push := "git push origin feature/" + tc.task
		done := make(chan struct{})
		go func() {
			defer close(done)
			f.api("POST", "/api/v1/steps", chat, map[string]any{"session": tc.task, "cwd": f.project, "command": push, "wait": 2}, nil)
		}()
		c := f.waitCard(push)
		switch {
		case tc.offers && len(c.Offer) == 0:
			t.Errorf("%s: the card offers no rule (%q), want one: the parent is clean", tc.task, c.NoOffer)
		case !tc.offers && (len(c.Offer) != 0 || !strings.Contains(c.NoOffer, "someone else")):
			t.Errorf("%s: the card offers %v (no offer: %q), want none because the task holds a guest's words", tc.task, c.Offer, c.NoOffer)
		}
		<-done
	}
	ss, err := f.db.Sessions(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if strings.HasSuffix(s.ID, "-task") && s.Tainted != strings.HasSuffix(s.ID, "g1-task") {
			t.Errorf("task %s: tainted %v", s.ID, s.Tainted)
		}
	}
}
