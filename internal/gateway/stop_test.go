package gateway_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/gateway"
)

// Steps keep arriving, from hosts and hooks, while the gateway starts
// and stops again and again: every reply is a decision, a refusal that
// says sayso serve is stopping, or no connection at all; a push is never
// let through unanswered; a card left waiting ends as "the gateway
// stopped"; no card outlives its gateway. Under -race this is also the
// test that the shutdown never races the steps waiting on it.
func TestStopWhileDeciding(t *testing.T) {
	const rounds, workers = 12, 4
	f := startGateway(t, 20*time.Second)
	token := f.addHost("chat", false)

	var mu sync.Mutex
	seen := map[string]int{}
	note := func(k string) {
		mu.Lock()
		seen[k]++
		mu.Unlock()
	}
	for round := range rounds {
		if round > 0 {
			f.start()
		}
		base, socket := f.base, f.socket
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					// Mostly reads, decided at once; now and then a push,
					// which waits for the person. The first hook worker's
					// and the first API worker's second step is a push in
					// every round, so that one waits on its card when the
					// gateway stops, and the API is asked, however slowly
					// the steps go on a loaded machine.
					step := fmt.Sprintf("ls r%d-w%d-%d", round, w, i)
					if i%4 == 3 || w <= 1 && i == 1 {
						step = fmt.Sprintf("git push origin r%d-w%d-%d", round, w, i)
					}
					var got string
					if w%2 == 0 {
						got = apiStep(t, base, token, step)
					} else {
						got = hookStep(t, f, socket, step)
					}
					note(got)
					if strings.HasSuffix(got, "no connection") {
						time.Sleep(time.Millisecond) // the gateway is down
					}
				}
			})
		}
		time.Sleep(20 * time.Millisecond) // steps flow
		// A card waits on an open hook when the gateway stops, and
		// another, handed over by the terminal's PreToolUse, waits for
		// the PermissionRequest of the client's dialog.
		held := fmt.Sprintf("git push origin held-%d", round)
		conn := f.openHook("held", held)
		f.waitCard(held)
		handed := fmt.Sprintf("git push origin handed-%d", round)
		dialog := f.sendHook("PreToolUse", "handed", handed)
		readReply(t, dialog, 10*time.Second)
		dialog.Close()
		f.waitCard(handed)
		f.stop()
		close(stop)
		wg.Wait()
		// The hook that waited is told the gateway stopped.
		if out := readReply(t, conn, 10*time.Second); !strings.Contains(out, "sayso serve stopped while the card waited") {
			t.Errorf("round %d: the waiting hook was answered %s; want the gateway stopping named", round, out)
		}
		conn.Close()
		if n := len(f.g.Cards.List()); n != 0 {
			t.Errorf("round %d: %d cards outlived the gateway", round, n)
		}
	}
	f.start()
	stopped := map[string]int{}
	for _, e := range f.expiries() {
		for _, k := range []string{"held", "handed"} {
			if strings.HasPrefix(e, "card expired: git push origin "+k+"-") && strings.Contains(e, "sayso serve stopped while the card waited") {
				stopped[k]++
			}
		}
	}
	if stopped["held"] != rounds || stopped["handed"] != rounds {
		t.Errorf("cards recorded as ended by the gateway stopping: %v, want %d of each; expiries: %q", stopped, rounds, f.expiries())
	}
	t.Logf("outcomes over %d rounds: %v", rounds, seen)
	for _, k := range []string{"api: allow", "api: ask", "hook: allow", "hook: ask, card ended by the stop"} {
		if seen[k] == 0 {
			t.Errorf("no %q: the test did not submit what it means to", k)
		}
	}
}

// apiStep submits a step through the hosts' API and names the outcome;
// it fails the test on any reply that is not a decision or a refusal,
// and on a push let through.
func apiStep(t *testing.T, base, token, command string) string {
	body, _ := json.Marshal(map[string]any{"session": "s", "cwd": "/tmp", "command": command, "wait": 0.2})
	req, _ := http.NewRequest("POST", base+"/api/v1/steps", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "api: no connection"
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var v struct {
		Decision string `json:"decision"`
		Error    string `json:"error"`
	}
	if json.Unmarshal(b, &v) != nil {
		t.Errorf("api %q: status %d, body not JSON: %s", command, res.StatusCode, b)
		return "api: broken"
	}
	switch {
	case res.StatusCode == http.StatusServiceUnavailable && strings.Contains(v.Error, "sayso serve is stopping"):
		return "api: refused, stopping"
	case (res.StatusCode == http.StatusOK || res.StatusCode == http.StatusAccepted) && (v.Decision == "ask" || v.Decision == "deny"):
		return "api: " + v.Decision
	case res.StatusCode == http.StatusOK && v.Decision == "allow" && strings.HasPrefix(command, "ls "):
		return "api: allow"
	}
	t.Errorf("api %q: status %d %s; want ask, deny or a refusal while stopping", command, res.StatusCode, b)
	return "api: wrong"
}

// hookStep hands a step to the hooks' socket, as sayso-hook does.
func hookStep(t *testing.T, f *gw, socket, command string) string {
	r, err := gateway.Ask(socket, gateway.Request{Agent: "claude", Input: f.claudeInput("h", command)}, 5*time.Second)
	if err != nil {
		return "hook: no connection"
	}
	switch d := permission(r.Stdout); {
	case r.Exit != 0 && len(r.Stdout) == 0:
		return "hook: exit without answer"
	case d == "deny" && strings.Contains(string(r.Stdout), "sayso serve is stopping"):
		return "hook: refused, stopping"
	case (d == "ask" || d == "deny") && strings.Contains(string(r.Stdout), "sayso serve stopped while the card waited"):
		return "hook: ask, card ended by the stop"
	case d == "ask" || d == "deny":
		return "hook: " + d
	case d == "allow" && strings.HasPrefix(command, "ls "):
		return "hook: allow"
	default:
		t.Errorf("hook %q: %q (exit %d, %s); want ask or deny", command, r.Stdout, r.Exit, r.Stderr)
		return "hook: wrong"
	}
}
