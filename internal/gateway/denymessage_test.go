package gateway_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/cli"
	"github.com/sayso-dev/sayso/internal/testenv"
)

const denyMessage = "push to a branch instead"

// TestBrowserDenyMessage: the person denies a push on the page with a
// message, and Claude Code's hook answer carries it as its deny reason.
func TestBrowserDenyMessage(t *testing.T) {
	b := newBrowser(t)
	f := startGateway(t, 40*time.Second)
	login(b, f)
	out := make(chan string, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		cli.Main([]string{"hook", "claude"}, &cli.Env{Stdin: bytes.NewReader(f.claudeInput("s-msg", "git push origin main")), Stdout: &stdout, Stderr: &stderr})
		out <- stdout.String()
	}()
	c := f.waitCard("git push origin main")
	sel := "#card-" + c.ID
	b.WaitFor("the card", `document.querySelector("`+sel+`") !== null`)
	b.Do("type the message", chromedp.SendKeys(chromedp.CSS(sel+` input[name=message]`), denyMessage))
	b.Submit("deny", `document.querySelector("`+sel+`") === null`, chromedp.Click(chromedp.CSS(sel+" button[value=deny]")))
	var got string
	select {
	case got = <-out:
	case <-time.After(testenv.Hang):
		t.Fatal("the hook never answered")
	}
	var v struct {
		Out struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatalf("the hook answered %q: %v", got, err)
	}
	if v.Out.Decision != "deny" || !strings.HasPrefix(v.Out.Reason, "sayso: deny: the person denied this step, and says: "+denyMessage) {
		t.Errorf("the hook answered %s %q, want deny with the person's message first", v.Out.Decision, v.Out.Reason)
	}
	b.Clean()
}

// TestDenyMessageEachClient: a deny's message reaches Codex and Gemini
// in their own deny formats.
func TestDenyMessageEachClient(t *testing.T) {
	f := startGateway(t, 40*time.Second)
	for _, c := range []struct {
		agent, input string
		reason       func(out []byte) (string, string)
	}{
		{"codex", `{"session_id":"s-codex","turn_id":"t1","transcript_path":"/t","cwd":"` + f.project + `","model":"m","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin main"},"tool_use_id":"c1"}`,
			func(out []byte) (string, string) {
				var v struct {
					Out struct {
						Decision string `json:"permissionDecision"`
						Reason   string `json:"permissionDecisionReason"`
					} `json:"hookSpecificOutput"`
				}
				_ = json.Unmarshal(out, &v)
				return v.Out.Decision, v.Out.Reason
			}},
		{"gemini", `{"session_id":"s-gemini","transcript_path":"/t","cwd":"` + f.project + `","timestamp":"2026-11-30T16:06:02.359Z","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push origin main"}}`,
			func(out []byte) (string, string) {
				var v struct {
					Decision string `json:"decision"`
					Reason   string `json:"reason"`
				}
				_ = json.Unmarshal(out, &v)
				return v.Decision, v.Reason
			}},
	} {
		out := make(chan []byte, 1)
		go func() {
			var stdout, stderr bytes.Buffer
			cli.Main([]string{"hook", c.agent}, &cli.Env{Stdin: strings.NewReader(c.input), Stdout: &stdout, Stderr: &stderr})
			out <- stdout.Bytes()
		}()
		var waiting card.Card
		testenv.Wait(t, "the card of "+c.agent, func() (bool, string) {
			for _, w := range f.g.Cards.List() {
				if w.Agent == c.agent {
					waiting = w
				}
			}
			return waiting.ID != "", fmt.Sprintf("%d cards", len(f.g.Cards.List()))
		})
		if _, err := f.g.Cards.AnswerSaying(t.Context(), waiting.ID, card.Deny, denyMessage); err != nil {
			t.Fatalf("%s: answer: %v", c.agent, err)
		}
		var got []byte
		select {
		case got = <-out:
		case <-time.After(testenv.Hang):
			t.Fatalf("%s: the hook did not answer within %s", c.agent, testenv.Hang)
		}
		if d, r := c.reason(got); d != "deny" || !strings.Contains(r, "and says: "+denyMessage) {
			t.Errorf("%s answered %s", c.agent, got)
		}
	}
}
