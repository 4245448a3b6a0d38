package gateway_test

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/web"
)

// attended is what Claude Code's interactive terminal tells its hooks.
var attended = map[string]string{"CLAUDE_CODE_SESSION_ATTENDED": "1", "CLAUDE_CODE_ENTRYPOINT": "cli"}

// claudeEvent is Claude Code's JSON for event about a Bash command.
func (f *gw) claudeEvent(event, session, command string) []byte {
	in := map[string]any{
		"session_id": session, "transcript_path": "/t.jsonl", "cwd": f.project, "prompt_id": "turn-1",
		"permission_mode": "default", "hook_event_name": event, "tool_name": "Bash",
		"tool_input": map[string]string{"command": command, "description": "x"},
	}
	if event == "PreToolUse" {
		in["tool_use_id"] = "toolu_1"
	} else {
		in["permission_suggestions"] = []any{}
	}
	b, _ := json.Marshal(in)
	return b
}

// sendHook sends a hook request from Claude Code's attended terminal and
// leaves the connection open, as a waiting hook does.
func (f *gw) sendHook(event, session, command string) net.Conn {
	f.t.Helper()
	conn, err := net.Dial("unix", f.socket)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := json.NewEncoder(conn).Encode(gateway.Request{Agent: "claude", Input: f.claudeEvent(event, session, command), Env: attended}); err != nil {
		f.t.Fatal(err)
	}
	return conn
}

// joined waits until a PermissionRequest took card c on: the one card
// left lives as long as the PermissionRequest waits.
func (f *gw) joined(c card.Card) {
	f.t.Helper()
	testenv.Wait(f.t, "the PermissionRequest to take card "+c.ID+" on", func() (bool, string) {
		cs := f.g.Cards.List()
		if len(cs) != 1 || cs[0].ID != c.ID {
			f.t.Fatalf("cards = %+v, want the one card %s", cs, c.ID)
		}
		return cs[0].Expires.After(c.Expires), "its expiry unchanged"
	})
}

// readReply reads the gateway's reply on conn. within is how long the
// reply may take by design; a reply due at once gets a hang's wait.
func readReply(t *testing.T, conn net.Conn, within time.Duration) string {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(max(within, testenv.Hang)))
	var r gateway.Reply
	if err := json.NewDecoder(conn).Decode(&r); err != nil {
		t.Fatalf("no reply within %v: %v", within, err)
	}
	return string(r.Stdout)
}

// In Claude Code's terminal, a step that asks has one card: its
// PreToolUse answers "ask" at once (the client's dialog shows, naming the
// page), and the PermissionRequest the client fires while the dialog
// shows takes the same card on. The person's answer on the page closes
// the dialog.
func TestOneCardPerStepInTheTerminal(t *testing.T) {
	f := startGateway(t, 0)
	const step = "git push origin one/x"
	pre := f.sendHook("PreToolUse", "s-one", step)
	defer pre.Close()
	out := readReply(t, pre, 5*time.Second)
	if permission([]byte(out)) != "ask" || !strings.Contains(out, "answer in this terminal or on "+f.base+"/") {
		t.Fatalf("PreToolUse = %s, want an ask at once naming the page", out)
	}
	c := f.waitCard(step)
	pr := f.sendHook("PermissionRequest", "s-one", step)
	defer pr.Close()
	// The PermissionRequest is decided, and joins the card.
	f.joined(c)
	if _, err := f.g.Cards.Answer(context.Background(), c.ID, card.AllowOnce); err != nil {
		t.Fatal(err)
	}
	if got := readReply(t, pr, 5*time.Second); !strings.Contains(got, `"behavior":"allow"`) || !strings.Contains(got, `"PermissionRequest"`) {
		t.Errorf("PermissionRequest = %s, want allow", got)
	}
	if ex := f.expiries(); len(ex) != 0 {
		t.Errorf("expiry rows = %q, want none", ex)
	}
	if as := f.answers(); len(as) != 1 {
		t.Errorf("answers = %q, want one", as)
	}
}

// The person answers in the terminal: the client ends the
// PermissionRequest's hook and the card goes, one row saying so.
func TestTerminalAnswerEndsTheCard(t *testing.T) {
	f := startGateway(t, 0)
	const step = "git push origin term/x"
	pre := f.sendHook("PreToolUse", "s-term", step)
	defer pre.Close()
	readReply(t, pre, 5*time.Second)
	c := f.waitCard(step)
	pr := f.sendHook("PermissionRequest", "s-term", step)
	f.joined(c)
	pr.Close()
	f.gone(c)
	if _, err := f.g.Cards.Answer(context.Background(), c.ID, card.AlwaysAllow); err == nil {
		t.Error("a card answered in the terminal was answered again on the page")
	}
	missed, err := f.db.MissedCards(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(missed) != 1 || missed[0].Card != c.ID || missed[0].Cause != store.MissedLeft || !strings.Contains(missed[0].Why, "an answer in the terminal") {
		t.Errorf("missed = %+v, want the one card, left", missed)
	}
	if rs := f.rules(); len(rs) != 0 {
		t.Errorf("rules kept: %q", rs)
	}
}

// No PermissionRequest comes (the client's mode showed no dialog): the
// handed-over card ends and is missed; a PermissionRequest that comes
// later posts a card of its own.
func TestHandedOverCardNobodyTakes(t *testing.T) {
	old := gateway.Handover
	gateway.Handover = 300 * time.Millisecond
	t.Cleanup(func() { gateway.Handover = old })
	f := startGateway(t, 0)
	const step = "git push origin alone/x"
	pre := f.sendHook("PreToolUse", "s-alone", step)
	defer pre.Close()
	readReply(t, pre, 5*time.Second)
	c := f.waitCard(step)
	f.gone(c)
	missed, err := f.db.MissedCards(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(missed) != 1 || missed[0].Cause != store.MissedLeft || !strings.Contains(missed[0].Why, "showed no dialog") {
		t.Errorf("missed = %+v", missed)
	}
	pr := f.sendHook("PermissionRequest", "s-alone", step)
	defer pr.Close()
	if c2 := f.waitCard(step); c2.ID == c.ID {
		t.Error("a card that ended was taken on again")
	}
}

// The page finds the missed cards two ways: the ledger filtered by the
// decision "missed", and the backend's list with each one's cause.
func TestThePageListsMissedCards(t *testing.T) {
	f := startGateway(t, 0)
	conn := f.openHook("s-tray", "git push origin tray/x")
	c := f.waitCard("git push origin tray/x")
	conn.Close()
	f.gone(c)
	b := &gateway.Backend{DB: f.db, Waiting: f.g.Cards}
	rows, err := b.Ledger(context.Background(), web.LedgerFilter{Decision: gateway.Missed})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Kind != store.KindCardExpired || !strings.Contains(rows[0].Summary, "tray/x") {
		t.Errorf("ledger rows decided %q = %+v, want the one card", gateway.Missed, rows)
	}
	missed, err := b.MissedCards(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(missed) != 1 || missed[0].Card != c.ID || missed[0].Cause != store.MissedLeft {
		t.Errorf("missed = %+v", missed)
	}
}

// Codex's approval prompt shows only once its PermissionRequest hook has
// answered: a person who allows the step on its card is not asked again.
func TestCodexPermissionRequestTakesThePagesAnswer(t *testing.T) {
	f := startGateway(t, 0)
	const step = "git push origin codex/x"
	in, _ := json.Marshal(map[string]any{
		"session_id": "s-codex", "turn_id": "turn-1", "transcript_path": "/t.jsonl", "cwd": f.project,
		"hook_event_name": "PermissionRequest", "model": "fake-model", "permission_mode": "default",
		"tool_name": "Bash", "tool_input": map[string]string{"command": step, "description": "push"},
	})
	conn, err := net.Dial("unix", f.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := json.NewEncoder(conn).Encode(gateway.Request{Agent: "codex", Input: in}); err != nil {
		t.Fatal(err)
	}
	c := f.waitCard(step)
	if life := c.Expires.Sub(c.Created); life > 30*time.Second {
		t.Errorf("a Codex PermissionRequest card lives %v: it holds Codex's own prompt back", life)
	}
	if _, err := f.g.Cards.Answer(context.Background(), c.ID, card.AllowOnce); err != nil {
		t.Fatal(err)
	}
	if got := readReply(t, conn, 5*time.Second); !strings.Contains(got, `"behavior":"allow"`) {
		t.Errorf("PermissionRequest = %s, want allow", got)
	}
}
