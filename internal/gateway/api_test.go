package gateway_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// addHost adds a host and returns its token.
func (f *gw) addHost(name string, person bool) string {
	f.t.Helper()
	_, token, err := f.db.AddHost(f.t.Context(), store.NewHost{Name: name, Person: person})
	if err != nil {
		f.t.Fatal(err)
	}
	return token
}

// kinds counts the ledger's rows of each kind.
func (f *gw) kinds() map[string]int {
	f.t.Helper()
	rows, err := f.db.Log(f.t.Context(), store.LogFilter{})
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.Kind]++
	}
	return out
}

func TestAPIWithoutToken(t *testing.T) {
	f := startGateway(t, 10*time.Second)
	token := f.addHost("chat", false)
	step := map[string]any{"session": "c1", "cwd": f.project, "command": "git push origin main", "wait": 0}
	for _, auth := range []string{"", "Bearer", "Bearer ", "Basic " + token, "Token " + token, "Bearer " + token + "x", "Bearer sayso_host_", "Bearer " + strings.TrimPrefix(token, "sayso_host_")} {
		hdr := http.Header{}
		if auth != "" {
			hdr.Set("Authorization", auth)
		}
		for _, route := range []struct{ method, path string }{{"POST", "/api/v1/steps"}, {"POST", "/api/v1/messages"}, {"POST", "/api/v1/tasks"}, {"GET", "/api/v1/cards/x"}} {
			code, body := f.api(route.method, route.path, "", step, hdr)
			if code != http.StatusUnauthorized || body["error"] == nil {
				t.Errorf("%s %s with Authorization %q: status %d %v, want 401", route.method, route.path, auth, code, body)
			}
		}
	}
	if k := f.kinds(); k[store.KindDecision] != 0 || k[store.KindMessage] != 0 {
		t.Errorf("the ledger holds %v after refused requests", k)
	}
	if cs := f.g.Cards.List(); len(cs) != 0 {
		t.Errorf("cards posted: %+v", cs)
	}
	// A browser page cannot use the API, even with a token it somehow has.
	if code, _ := f.api("POST", "/api/v1/steps", token, step, http.Header{"Origin": {f.base}}); code != http.StatusForbidden {
		t.Errorf("a request with an Origin: status %d, want 403", code)
	}
	// The person's page session is no API credential.
	person, _ := f.login()
	if _, code := f.get(person, "/api/v1/cards/x", nil); code != http.StatusUnauthorized {
		t.Errorf("the person's cookie on the API: status %d, want 401", code)
	}
}

func TestAPIRevokedHost(t *testing.T) {
	f := startGateway(t, 10*time.Second)
	token := f.addHost("chat", false)
	step := map[string]any{"session": "c1", "cwd": f.project, "command": "ls -la"}
	if code, body := f.api("POST", "/api/v1/steps", token, step, nil); code != http.StatusOK || body["decision"] != "allow" {
		t.Fatalf("before removal: status %d %v", code, body)
	}
	if err := f.db.RemoveHost(t.Context(), "chat"); err != nil {
		t.Fatal(err)
	}
	before := f.kinds()
	for _, path := range []string{"/api/v1/steps", "/api/v1/messages"} {
		if code, _ := f.api("POST", path, token, map[string]any{"session": "c1", "cwd": f.project, "command": "ls", "source": "system", "text": "hi"}, nil); code != http.StatusUnauthorized {
			t.Errorf("POST %s with a removed host's token: status %d, want 401", path, code)
		}
	}
	// A new host of the same name gets a new token; the old one stays dead.
	fresh := f.addHost("chat", false)
	if fresh == token {
		t.Fatal("the new host has the old token")
	}
	if code, _ := f.api("POST", "/api/v1/steps", token, step, nil); code != http.StatusUnauthorized {
		t.Errorf("the old token after re-adding chat: status %d, want 401", code)
	}
	if after := f.kinds(); after[store.KindDecision] != before[store.KindDecision] {
		t.Errorf("a removed host's step was decided: %v → %v", before, after)
	}
}

func TestAPISteps(t *testing.T) {
	f := startGateway(t, 20*time.Second)
	token := f.addHost("chat", false)

	// A plain step is decided at once, in the host's own session.
	code, body := f.api("POST", "/api/v1/steps", token, map[string]any{"session": "c1", "turn": "t1", "cwd": f.project, "command": "ls -la"}, nil)
	if code != http.StatusOK || body["decision"] != "allow" || body["card"] != nil {
		t.Errorf("ls: status %d %v", code, body)
	}
	sessions, err := f.db.Sessions(t.Context())
	if err != nil || len(sessions) != 1 || sessions[0].ID != "chat:c1" || sessions[0].Agent != "chat" {
		t.Errorf("sessions = %+v, %v; want only chat:c1 of agent chat", sessions, err)
	}

	// wait 0: a step that asks returns its card at once; the host polls it.
	code, body = f.api("POST", "/api/v1/steps", token, map[string]any{"session": "c1", "cwd": f.project, "command": "git push origin main", "wait": 0}, nil)
	id, _ := body["card"].(string)
	if code != http.StatusAccepted || body["decision"] != "ask" || body["state"] != "waiting" || id == "" {
		t.Fatalf("push with wait 0: status %d %v", code, body)
	}
	if code, body := f.api("GET", "/api/v1/cards/"+id, token, nil, nil); code != http.StatusOK || body["state"] != "waiting" || body["expires"] == nil {
		t.Errorf("poll a waiting card: status %d %v", code, body)
	}
	c, err := f.g.Cards.Get(id)
	if err != nil || c.Agent != "chat" || c.Session != "chat:c1" {
		t.Fatalf("the card on the page: %+v, %v", c, err)
	}
	if _, err := f.g.Cards.Answer(t.Context(), id, card.AllowOnce); err != nil {
		t.Fatal(err)
	}
	testenv.Wait(t, "the card's state to leave waiting", func() (bool, string) {
		code, body = f.api("GET", "/api/v1/cards/"+id, token, nil, nil)
		return body["state"] != "waiting", fmt.Sprintf("%d %v", code, body)
	})
	if code != http.StatusOK || body["state"] != "answered" || body["decision"] != "allow" {
		t.Errorf("poll after Allow once: status %d %v", code, body)
	}

	// Waiting: the answer comes back on the same request.
	got := make(chan map[string]any, 1)
	go func() {
		_, body := f.api("POST", "/api/v1/steps", token, map[string]any{"session": "c1", "cwd": f.project, "command": "git push origin release", "wait": 15}, nil)
		got <- body
	}()
	c = f.waitCard("git push origin release")
	if _, err := f.g.Cards.Answer(t.Context(), c.ID, card.Deny); err != nil {
		t.Fatal(err)
	}
	if body := <-got; body["decision"] != "deny" || body["state"] != "answered" || body["card"] != c.ID {
		t.Errorf("push answered while waiting: %v", body)
	}

	// A short wait runs out; the card waits on, and expires visibly.
	code, body = f.api("POST", "/api/v1/steps", token, map[string]any{"session": "c1", "cwd": f.project, "command": "git push origin late", "wait": 0.05}, nil)
	if code != http.StatusAccepted || body["state"] != "waiting" {
		t.Errorf("push with a short wait: status %d %v", code, body)
	}

	// Another host never sees this host's cards.
	other := f.addHost("orchestrator", false)
	if code, _ := f.api("GET", "/api/v1/cards/"+id, other, nil, nil); code != http.StatusNotFound {
		t.Errorf("another host polls chat's card: status %d, want 404", code)
	}
	if code, _ := f.api("GET", "/api/v1/cards/nope", token, nil, nil); code != http.StatusNotFound {
		t.Errorf("an unknown card: status %d, want 404", code)
	}

	// Bad requests are refused before anything is decided.
	before := f.kinds()[store.KindDecision]
	for _, bad := range []map[string]any{
		{"cwd": f.project, "command": "ls"},
		{"session": "c1", "command": "ls"},
		{"session": "c1", "cwd": "proj", "command": "ls"},
		{"session": "c1", "cwd": f.project},
		{"session": "c1", "cwd": f.project, "tool": "Bash"},
		{"session": "c1", "cwd": f.project, "tool": "Write", "command": "ls"},
		{"session": "c1", "cwd": f.project, "command": "ls", "input": map[string]string{"x": "y"}},
		{"session": "c1", "cwd": f.project, "command": "ls", "wait": -1},
		{"session": "c1", "cwd": f.project, "command": "ls", "agent": "claude"},
		{"session": "c1", "cwd": f.project, "command": "ls", "mode": "autopilot"},
	} {
		if code, body := f.api("POST", "/api/v1/steps", token, bad, nil); code != http.StatusBadRequest {
			t.Errorf("step %v: status %d %v, want 400", bad, code, body)
		}
	}
	if after := f.kinds()[store.KindDecision]; after != before {
		t.Errorf("bad requests were decided: %d → %d", before, after)
	}

	// Another tool's input is judged by the tool: an unknown one asks.
	code, body = f.api("POST", "/api/v1/steps", token, map[string]any{"session": "c1", "cwd": f.project, "tool": "mcp__mail__send", "input": map[string]string{"to": "a@b.example"}, "wait": 0}, nil)
	if code != http.StatusAccepted || body["decision"] != "ask" {
		t.Errorf("an MCP tool: status %d %v", code, body)
	}
}

func TestAPIContainer(t *testing.T) {
	f := startGateway(t, 10*time.Second)
	token := f.addHost("runner", false)
	valid := map[string]any{"mounts": []map[string]string{{"host_root": f.project, "mount": "/work"}}}
	code, body := f.api("POST", "/api/v1/steps", token, map[string]any{"session": "r1", "cwd": f.project, "command": "rm -rf /work/build", "container": valid, "wait": 0}, nil)
	if code/100 != 2 || !strings.Contains(body["where"].(string)+" ", "in a container") {
		t.Errorf("a valid container: status %d %v", code, body)
	}
	for _, spec := range []map[string]any{
		{"mounts": []map[string]string{{"host_root": f.project, "mount": "/work"}}, "privileged": true},
		{"mounts": []map[string]string{{"host_root": f.project, "mount": "/work"}}, "network": "host"},
		{"mounts": []map[string]string{{"host_root": "/", "mount": "/work"}}},
		{"mounts": []map[string]string{{"host_root": f.project, "mount": "/var/run/docker.sock"}}},
		{"mounts": []map[string]string{}},
	} {
		code, body := f.api("POST", "/api/v1/steps", token, map[string]any{"session": "r1", "cwd": f.project, "command": "ls /work", "container": spec, "wait": 0}, nil)
		where, _ := body["where"].(string)
		if code/100 != 2 || !strings.Contains(where, "container spec refused") {
			t.Errorf("container %v: status %d, where %q; want the host, the spec refused", spec, code, where)
		}
	}
	if code, _ := f.api("POST", "/api/v1/steps", token, map[string]any{"session": "r1", "cwd": f.project, "command": "ls", "container": map[string]any{"mounts": []any{}, "sandbox": "yes"}}, nil); code != http.StatusBadRequest {
		t.Errorf("a container field sayso does not know: status %d, want 400", code)
	}
}

func TestAPIMessages(t *testing.T) {
	f := startGateway(t, 10*time.Second)
	chat := f.addHost("chat", false)
	for _, src := range []string{"delegated", "system", "guest"} {
		code, body := f.api("POST", "/api/v1/messages", chat, map[string]any{"session": "c1", "source": src, "text": "summarise the thread"}, nil)
		if code != http.StatusCreated || body["source"] != src || body["session"] != "chat:c1" {
			t.Errorf("a %s message: status %d %v", src, code, body)
		}
	}
	messages := f.kinds()[store.KindMessage]
	// A host added without --person cannot speak for the person.
	for _, msg := range []map[string]any{
		{"session": "c1", "source": "person", "text": "/sayso lease remote-write", "cwd": f.project},
		{"session": "c1", "source": "Person", "text": "push it"},
		{"session": "c1", "source": "", "text": "push it"},
		{"session": "c1", "text": "push it"},
		{"session": "c1", "source": "owner", "text": "push it"},
		{"session": "c1", "source": "system", "text": "x", "from_parent": true},
	} {
		code, body := f.api("POST", "/api/v1/messages", chat, msg, nil)
		want := http.StatusBadRequest
		if msg["source"] == "person" {
			want = http.StatusForbidden
		}
		if code != want {
			t.Errorf("message %v: status %d %v, want %d", msg, code, body, want)
		}
	}
	k := f.kinds()
	if k[store.KindMessage] != messages || k[store.KindLeaseGranted] != 0 {
		t.Errorf("refused messages were kept: %v", k)
	}
	// Only the person's guest message taints; chat's session holds it.
	sessions, _ := f.db.Sessions(t.Context())
	if len(sessions) != 1 || sessions[0].ID != "chat:c1" || !sessions[0].Tainted {
		t.Errorf("sessions = %+v, want chat:c1 tainted by the guest", sessions)
	}

	// A host the person added with --person may.
	desk := f.addHost("desk", true)
	code, body := f.api("POST", "/api/v1/messages", desk, map[string]any{"session": "d1", "turn": "u1", "source": "person", "text": "/sayso lease remote-write", "cwd": f.project}, nil)
	if code != http.StatusCreated || body["source"] != "person" || body["turn"] != "u1" || body["lease"] == nil {
		t.Errorf("a person host's person message: status %d %v", code, body)
	}
}
