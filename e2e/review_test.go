package e2e

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// judge is a fake OpenAI-compatible reviewer on 127.0.0.1. It allows a
// push when an owner word in the message it reads asks for it, quoting
// that word, and keeps every message it read.
type judge struct {
	srv  *httptest.Server
	said string
	mu   sync.Mutex
	read []string
}

func newJudge(t *testing.T, said string) *judge {
	j := &judge{said: said}
	j.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &req)
		msg := ""
		if len(req.Messages) > 0 {
			msg = req.Messages[len(req.Messages)-1].Content
		}
		j.mu.Lock()
		j.read = append(j.read, msg)
		j.mu.Unlock()
		verdict := map[string]string{"verdict": "ask", "reason": "the person did not ask for it"}
		if strings.Contains(msg, "\n"+j.said+"\n") && strings.Contains(msg, "git push") {
			verdict = map[string]string{"verdict": "allow", "reason": "the person asked for the push", "quote": j.said}
		}
		content, _ := json.Marshal(verdict)
		w.Header().Set("content-type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{
			"message": map[string]any{"role": "assistant", "content": string(content)}, "finish_reason": "stop"}}})
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	j.srv.Listener = ln
	j.srv.Start()
	t.Cleanup(j.srv.Close)
	return j
}

func (j *judge) messages() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.read...)
}

// TestClaudeCodeTaskReviewer: the person types "push my branch feature/x
// to origin" in Claude Code's terminal; the model hands the push to a
// sub-agent. The task took the person's words as a from_parent copy, the
// reviewer the person configured reads them there, and the sub-agent's
// push runs once, with no lease and no question.
func TestClaudeCodeTaskReviewer(t *testing.T) {
	for _, g := range gateways {
		t.Run(g.name, func(t *testing.T) { taskReviewer(t, g.serve) })
	}
}

func taskReviewer(t *testing.T, serve bool) {
	client(t, "claude")
	w := newWorld(t)
	const said = "push my branch feature/x to origin"
	j := newJudge(t, said)
	config := filepath.Join(w.home, ".config", "sayso")
	must(t, os.MkdirAll(config, 0o700))
	must(t, os.WriteFile(filepath.Join(config, "policy.toml"), []byte(`[reviewer]
kind = "openai"
base_url = "`+j.srv.URL+`"
model = "judge"
timeout = "10s"
`), 0o600))
	if serve {
		w.serve(t)
	}
	f := NewFake(Call{Task: SubagentMark + ": push the branch", Sub: []Call{{Command: "git push origin feature/x"}}})
	defer f.Close()
	out := w.driveTUI(t, f, said)
	if got := w.pushes(); len(got) != 1 {
		t.Errorf("pushes that ran: %q, want the sub-agent's one", got)
	}
	read := j.messages()
	if len(read) == 0 {
		t.Fatalf("the reviewer was never asked\nscreen:\n%s\nledger:\n%s", out, w.sayso(t, "log"))
	}
	if !strings.Contains(read[0], "from_parent]\n"+said+"\n") {
		t.Errorf("the reviewer did not read the person's words marked from_parent:\n%s", read[0])
	}
	if strings.Contains(read[0], SubagentMark) {
		t.Errorf("the reviewer read the sub-agent's own prompt:\n%s", read[0])
	}
	if t.Failed() {
		t.Logf("screen:\n%s\nledger:\n%s", out, w.sayso(t, "log"))
	}
}
