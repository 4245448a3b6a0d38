package hubserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/cli"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/passkey"
	"github.com/sayso-dev/sayso/internal/passkey/passkeytest"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestHookThroughHub: a hook on a node that joined asks about a push;
// its card reaches the person's cards at the hub; what the hub relays
// back decides the hook's answer only when the person signed it. Judged
// by what the client reads from the hook, and by the node's ledger.
func TestHookThroughHub(t *testing.T) {
	ctx := context.Background()
	dsn := hubtest.Database(t).Serve
	root := t.TempDir()
	out, _ := background(t, "hub", "--db", dsn, "--addr", "127.0.0.1:0", "--dir", filepath.Join(root, "hub"))
	m := waitOutput(t, out, regexp.MustCompile(`hub ready on (https://[0-9.:]+)/ \(certificate (sha256:[0-9a-f]{64})\)`))
	base, fp := m[1], m[2]
	_, token, _ := sayso(t, ctx, "hub", "token", "--db", dsn, "--dir", filepath.Join(root, "hub"), "--person", "ada")
	_, orgPub, _ := sayso(t, ctx, "policy", "keygen", filepath.Join(root, "org.key"))

	node := filepath.Join(root, "ada-laptop")
	config, state, project := filepath.Join(node, "config"), filepath.Join(node, "state"), filepath.Join(root, "proj")
	for _, d := range []string{config, state, filepath.Join(project, ".git")} {
		os.MkdirAll(d, 0o700)
	}
	if code, stdout, stderr := sayso(t, ctx, at(node, "team", "join", base, "--token", strings.TrimSpace(token), "--fingerprint", fp,
		"--org-key", strings.TrimSpace(orgPub), "--name", "ada-laptop")...); code != 0 {
		t.Fatalf("team join: %s %s", stdout, stderr)
	}
	// The person's passkey, as enrolment will pin it on the node.
	ada := passkeytest.New(t, "ada")
	const rpID, origin = "hub.example", "https://hub.example"
	st, _, err := team.ReadState(config)
	if err != nil {
		t.Fatal(err)
	}
	st.Pins = passkey.Pins{RPID: rpID, Origin: origin, Keys: []passkey.Key{ada.Pinned(t)}}
	if err := team.WriteState(config, st); err != nil {
		t.Fatal(err)
	}
	serveOut, _ := background(t, at(node, "serve", "--addr", "127.0.0.1:0", "--card-timeout", testenv.Hang.String())...)
	waitOutput(t, serveOut, regexp.MustCompile(`sayso: ready`))

	h, err := hub.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	hook := func(command string) chan string { return claudeHook(node, root, project, command) }
	atHub := func(command string) hub.Card { t.Helper(); return openCard(t, ctx, h, command) }
	answered := func(done chan string) string { t.Helper(); return answer(t, done) }

	// An allow the hub relays with no signature lets nothing through.
	done := hook("git push origin forged")
	c := atHub("git push origin forged")
	if err := h.AddAnswer(ctx, c.ID, "allow-once", nil); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, filepath.Join(state, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	testenv.Wait(t, "the node to refuse the forged allow", func() (bool, string) {
		es, err := db.Log(ctx, store.LogFilter{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Kind == store.KindAnswerRefused && strings.Contains(e.Summary, "git push origin forged") && strings.Contains(e.Summary, "no signature") {
				return true, ""
			}
		}
		return false, fmt.Sprintf("%d rows, none an answer-refused of the step", len(es))
	})
	// The step still waits: the person's deny, which needs no
	// signature, is the first answer the node takes.
	if err := h.AddAnswer(ctx, c.ID, "deny", nil); err != nil {
		t.Fatal(err)
	}
	if d := answered(done); d != "deny" {
		t.Fatalf("a forged allow relayed by the hub, then the person's deny: the client reads %q, want deny", d)
	}
	es, err := db.Log(ctx, store.LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Kind == store.KindAnswer && strings.Contains(e.Summary, "git push origin forged") && !strings.HasPrefix(e.Summary, "deny") {
			t.Fatalf("the node's ledger keeps an answer other than the person's deny: %s", e.Summary)
		}
	}

	// The person's own yes, signed over the node's card, lets it through
	// (a step no second confirmation guards: not a push, a ceiling).
	done = hook("curl https://example.com/signed")
	c = atHub("curl https://example.com/signed")
	if err := h.AddAnswer(ctx, c.ID, "allow-once", ada.Assert(t, rpID, origin, passkey.Challenge(c.Body, card.AllowOnce))); err != nil {
		t.Fatal(err)
	}
	if d := answered(done); d != "allow" {
		t.Fatalf("the person's signed yes: the client reads %q, want allow", d)
	}
}

// claudeHook runs 'sayso hook claude' in-process on the node whose
// folders are under node, as Claude Code would for a Bash step of command
// in project, and hands back the permission decision the client reads.
func claudeHook(node, root, project, command string) chan string {
	in, _ := json.Marshal(map[string]any{
		"session_id": "s1", "transcript_path": filepath.Join(root, "s1.jsonl"), "cwd": project, "prompt_id": "turn-1",
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]string{"command": command, "description": "push"}, "tool_use_id": "toolu_1",
	})
	done := make(chan string, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := cli.Main(at(node, "hook", "claude"), &cli.Env{Stdin: bytes.NewReader(in), Stdout: &stdout, Stderr: &stderr})
		var v struct {
			Out struct {
				Decision string `json:"permissionDecision"`
			} `json:"hookSpecificOutput"`
		}
		if code != 0 || json.Unmarshal(stdout.Bytes(), &v) != nil {
			done <- "unreadable: " + stdout.String() + stderr.String()
			return
		}
		done <- v.Out.Decision
	}()
	return done
}

// openCard waits for the step's card among ada's open cards at the hub
// (ada is the hub's first person).
func openCard(t *testing.T, ctx context.Context, h *hub.Hub, command string) hub.Card {
	t.Helper()
	var card hub.Card
	testenv.Wait(t, "the card about "+command+" at the hub", func() (bool, string) {
		cs, err := h.OpenCards(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if strings.Contains(string(c.Body), command) {
				card = c
				return true, ""
			}
		}
		return false, fmt.Sprintf("%d open cards", len(cs))
	})
	return card
}

// answer is the decision a hook hands back on done, within wait.
func answer(t *testing.T, done chan string) string {
	t.Helper()
	select {
	case d := <-done:
		return d
	case <-time.After(testenv.Hang):
		t.Fatalf("the hook did not answer within %s", testenv.Hang)
	}
	return ""
}

// denyAtHub is the person's deny of card c, relayed by the hub: it needs
// no signature, and ends a step the test wants unanswered by any yes.
func denyAtHub(t *testing.T, ctx context.Context, h *hub.Hub, c hub.Card) {
	t.Helper()
	if err := h.AddAnswer(ctx, c.ID, "deny", nil); err != nil {
		t.Fatal(err)
	}
}
