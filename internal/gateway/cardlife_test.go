package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/web"
)

// openHook sends a hook request on a raw connection and leaves it open,
// as a waiting hook does; closing it is the hook going away.
func (f *gw) openHook(session, command string) net.Conn {
	f.t.Helper()
	conn, err := net.Dial("unix", f.socket)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := json.NewEncoder(conn).Encode(gateway.Request{Agent: "claude", Input: f.claudeInput(session, command)}); err != nil {
		f.t.Fatal(err)
	}
	return conn
}

// expiries are the ledger's card-expired rows.
func (f *gw) expiries() []string {
	f.t.Helper()
	rows, err := f.db.Log(context.Background(), store.LogFilter{})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		if r.Kind == store.KindCardExpired {
			out = append(out, r.Summary)
		}
	}
	return out
}

// gone waits until the card is off the list.
func (f *gw) gone(c card.Card) {
	f.t.Helper()
	testenv.Wait(f.t, "card "+c.ID+" off the list once its hook went away", func() (bool, string) {
		_, err := f.g.Cards.Get(c.ID)
		return err != nil, "still listed"
	})
}

// A hook the client gave up on (its connection closed) takes its card
// with it: the card leaves the page, the ledger says so, and a late
// "always" is refused and keeps no rule.
func TestCardEndsWithItsHook(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	conn := f.openHook("s-left", "git push origin feature/login")
	c := f.waitCard("git push origin feature/login")
	if len(c.Offer) == 0 {
		t.Fatalf("the card offers no rule: %+v", c)
	}
	person, csrf := f.login()
	conn.Close()
	f.gone(c)
	if code, body := f.post(person, "/cards/"+c.ID+"/answer", answerForm(csrf, "always"), nil); code != http.StatusNotFound && code != http.StatusGone {
		t.Errorf("always on a card whose hook left: status %d %s, want 404 or 410", code, body)
	}
	if rs := f.rules(); len(rs) != 0 {
		t.Errorf("rules kept: %q", rs)
	}
	if as := f.answers(); len(as) != 0 {
		t.Errorf("answers kept: %q", as)
	}
	if ex := f.expiries(); len(ex) != 1 || !strings.Contains(ex[0], "git push origin feature/login") || !strings.Contains(ex[0], "stopped waiting") {
		t.Errorf("expiry rows = %q, want one for the push", ex)
	}
}

// A hook's own timeout: the client's wait passes, the hook stops, the
// card ends.
func TestCardEndsWithTheClientsTimeout(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	done := make(chan error, 1)
	go func() {
		_, err := gateway.Ask(f.socket, gateway.Request{Agent: "claude", Input: f.claudeInput("s-timeout", "git push origin feature/t")}, 500*time.Millisecond)
		done <- err
	}()
	c := f.waitCard("git push origin feature/t")
	if err := <-done; err == nil {
		t.Fatal("the hook got an answer nobody gave")
	}
	f.gone(c)
	if _, err := f.g.Cards.Answer(context.Background(), c.ID, card.AlwaysAllow); err == nil {
		t.Error("an answer to the card after its hook's timeout was taken")
	}
	if rs := f.rules(); len(rs) != 0 {
		t.Errorf("rules kept: %q", rs)
	}
	if ex := f.expiries(); len(ex) != 1 {
		t.Errorf("expiry rows = %q, want one", ex)
	}
}

// The card's own timeout leaves a ledger row too.
func TestCardTimeoutIsARow(t *testing.T) {
	f := startGateway(t, 300*time.Millisecond)
	if got := f.hook("s-slow", "git push origin feature/slow"); got == "allow" {
		t.Fatalf("an unanswered card allowed the step")
	}
	if ex := f.expiries(); len(ex) != 1 || !strings.Contains(ex[0], "did not answer within") {
		t.Errorf("expiry rows = %q", ex)
	}
}

// An answer racing the hook's going away is either taken by the hook —
// and then kept — or refused and keeps nothing: never a rule the hook did
// not act on.
func TestAnswerRacingTheHookLeaving(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	taken := 0
	for i := range 24 {
		step := fmt.Sprintf("git push origin f%d/x", i)
		conn := f.openHook("s-race", step)
		c := f.waitCard(step)
		var wg sync.WaitGroup
		var err error
		wg.Add(2)
		go func() { defer wg.Done(); _, err = f.g.Cards.Answer(context.Background(), c.ID, card.AlwaysAllow) }()
		go func() {
			defer wg.Done()
			if i%3 == 0 {
				time.Sleep(time.Millisecond)
			}
			conn.Close()
		}()
		wg.Wait()
		f.gone(c)
		kept := false
		for _, r := range f.rules() {
			kept = kept || r == fmt.Sprintf("git push origin f%d/*", i)
		}
		switch {
		case err == nil && !kept:
			t.Errorf("%s: the answer was taken and no rule kept", step)
		case err != nil && kept:
			t.Errorf("%s: the answer was refused (%v) and a rule kept", step, err)
		case err != nil && !errors.Is(err, card.ErrExpired) && !errors.Is(err, web.ErrNotFound):
			t.Errorf("%s: refused with %v", step, err)
		}
		if err == nil {
			taken++
		}
	}
	t.Logf("%d of 24 answers were taken by their hook before it left", taken)
}

// pinWait records a hook definition for agent's event with the timeout
// its client was given (seconds; milliseconds for gemini), as sayso
// install pins it.
func (f *gw) pinWait(agent, event string, timeout int) {
	f.t.Helper()
	entry := fmt.Sprintf(`{"hooks":[{"command":"sayso hook %s","timeout":%d,"type":"command"}],"matcher":"*"}`, agent, timeout)
	pins := client.FilePins{Path: filepath.Join(f.state, "pins.json")}
	all, err := pins.Load()
	if err != nil {
		f.t.Fatal(err)
	}
	all = append(all, client.Pin{Agent: agent, Scope: "user", Kind: client.PinDefinition, Path: "/settings.json", Event: event, SHA256: "x", Entry: json.RawMessage(entry)})
	if err := pins.Save(all); err != nil {
		f.t.Fatal(err)
	}
}

// A card waits as long as the client waits for the hook, as sayso install
// pinned it, less the margin that lets sayso answer first; with no pin, as
// long as the shortest wait sayso ever wrote.
func TestCardLivesAsLongAsItsClientWaits(t *testing.T) {
	f := startGateway(t, 0)
	life := func(session, step string) time.Duration {
		conn := f.openHook(session, step)
		defer conn.Close()
		c := f.waitCard(step)
		return c.Expires.Sub(c.Created)
	}
	if got := life("s-unpinned", "git push origin a/x"); got > time.Duration(client.HookTimeout)*time.Second-client.CardMargin || got < 20*time.Second {
		t.Errorf("with no pin a card lives %v, want just under %ds", got, client.HookTimeout)
	}
	f.pinWait("claude", "PreToolUse", client.DecideTimeout)
	f.pinWait("gemini", "BeforeTool", 7000)
	if got := life("s-pinned", "git push origin b/x"); got < 590*time.Second || got > time.Duration(client.DecideTimeout)*time.Second-client.CardMargin {
		t.Errorf("with a %ds pin a card lives %v", client.DecideTimeout, got)
	}
	// Two scopes pinned: the shorter wait wins.
	f.pinWait("claude", "PreToolUse", 12)
	if got := life("s-two", "git push origin c/x"); got > 7*time.Second || got < 5*time.Second {
		t.Errorf("with a 12s pin beside a %ds one a card lives %v, want about 7s", client.DecideTimeout, got)
	}
}

// sayso's own timeout and the agent that stopped waiting are told apart,
// in the ledger and in the missed cards; the agent is told where the
// page is.
func TestMissedCardsSayWhatHappened(t *testing.T) {
	f := startGateway(t, 0)
	f.pinWait("claude", "PreToolUse", 7) // the card lives 2 s
	start := time.Now()
	reply, err := f.ask("claude", f.claudeInput("s-missed", "git push origin late/x"))
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 7*time.Second-time.Second {
		t.Errorf("sayso answered after %v: the client, waiting 7s, would have timed the hook out", took)
	}
	// A -p run cannot ask: the question is a deny in the client's words.
	if permission(reply.Stdout) != "deny" || !strings.Contains(string(reply.Stdout), "Claude Code cannot ask here") || !strings.Contains(string(reply.Stdout), "did not answer within 2s on "+f.base+"/") {
		t.Errorf("reply = %s, want the question denied, naming the page %s", reply.Stdout, f.base)
	}
	conn := f.openHook("s-missed", "git push origin left/x")
	c := f.waitCard("git push origin left/x")
	conn.Close()
	f.gone(c)

	missed, err := f.db.MissedCards(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(missed) != 2 {
		t.Fatalf("missed = %+v, want two", missed)
	}
	left, late := missed[0], missed[1] // newest first
	if late.Cause != store.MissedTimeout || late.Step != "git push origin late/x" || !strings.Contains(late.Why, "did not answer within 2s") {
		t.Errorf("timed out card: %+v", late)
	}
	if left.Cause != store.MissedLeft || left.Card != c.ID || left.Agent != "claude" || !strings.Contains(left.Why, "the agent stopped waiting") {
		t.Errorf("card whose hook left: %+v", left)
	}
	if !left.Deadline.Equal(c.Expires) || !left.Posted.Equal(c.Created) || left.Session == "" {
		t.Errorf("card whose hook left: %+v, card %+v", left, c)
	}
}

// A card waiting when sayso serve stops is missed because sayso stopped,
// not because the agent stopped waiting.
func TestMissedWhenTheGatewayStops(t *testing.T) {
	f := startGateway(t, 0)
	conn := f.openHook("s-stop", "git push origin stop/x")
	defer conn.Close()
	f.waitCard("git push origin stop/x")
	f.stop()
	db, err := store.Open(context.Background(), filepath.Join(f.state, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	missed, err := db.MissedCards(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(missed) != 1 || missed[0].Cause != store.MissedStopped {
		t.Errorf("missed = %+v, want one, stopped", missed)
	}
}
