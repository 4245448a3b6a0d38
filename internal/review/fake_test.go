package review

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestMain lets the test binary play the fake reviewer command: run as
// "review.test fake-reviewer REPLY", it answers as REPLY says.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "fake-reviewer" {
		os.Exit(fakeCommand(os.Args[2]))
	}
	os.Exit(m.Run())
}

// reply scripts a fake reviewer, the same for the two HTTP shapes and the
// command.
type reply struct {
	Text   string `json:"text,omitempty"`   // the answer text
	Judge  bool   `json:"judge,omitempty"`  // answer as a careful model would
	Status int    `json:"status,omitempty"` // an HTTP status, or the command's exit code
	Hang   bool   `json:"hang,omitempty"`   // never answer
	Huge   bool   `json:"huge,omitempty"`   // answer with 10 MB
	Refuse bool   `json:"refuse,omitempty"` // the API's refusal
	Record string `json:"record,omitempty"` // the command writes its stdin here
}

const tenMB = 10 << 20

func fakeCommand(spec string) int {
	var rp reply
	if err := json.Unmarshal([]byte(spec), &rp); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	stdin, err := io.ReadAll(os.Stdin)
	if err != nil {
		return 2
	}
	if rp.Record != "" {
		if err := os.WriteFile(rp.Record, stdin, 0o600); err != nil {
			return 2
		}
	}
	var req commandRequest
	if err := json.Unmarshal(stdin, &req); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	switch {
	case rp.Hang:
		time.Sleep(testenv.Hang) // a hang: the reviewer's timeout kills it long before
	case rp.Huge:
		os.Stdout.WriteString(`{"verdict":"allow","reason":"` + strings.Repeat("a", tenMB) + `"}`)
	case rp.Status != 0:
		fmt.Fprintln(os.Stderr, "the fake reviewer broke")
		return rp.Status
	case rp.Refuse:
		os.Stdout.WriteString("I can't help with that.")
	case rp.Judge:
		os.Stdout.WriteString(judge(req.Message))
	default:
		os.Stdout.WriteString(rp.Text)
	}
	return 0
}

// recorded is one request a fake server saw.
type recorded struct {
	path   string
	header http.Header
	body   []byte
}

// fakeServer is a fake endpoint of one shape on 127.0.0.1.
type fakeServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []recorded
}

func newFakeServer(t *testing.T, kind Kind, rp reply) *fakeServer {
	t.Helper()
	f := &fakeServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.seen = append(f.seen, recorded{r.URL.Path, r.Header.Clone(), body})
		f.mu.Unlock()
		switch {
		case rp.Hang:
			<-r.Context().Done()
			return
		case rp.Status != 0:
			http.Error(w, `{"error":"the fake reviewer broke"}`, rp.Status)
			return
		case rp.Huge:
			w.Write([]byte(`{"content":[{"type":"text","text":"`))
			w.Write([]byte(strings.Repeat("a", tenMB)))
			w.Write([]byte(`"}]}`))
			return
		}
		text := rp.Text
		if rp.Judge {
			text = judge(userMessage(t, body))
		}
		w.Header().Set("Content-Type", "application/json")
		switch kind {
		case KindAnthropic:
			stop := "end_turn"
			if rp.Refuse {
				stop, text = "refusal", ""
			}
			json.NewEncoder(w).Encode(map[string]any{
				"type": "message", "role": "assistant", "stop_reason": stop,
				"content": []map[string]string{{"type": "text", "text": text}},
			})
		case KindOpenAI:
			msg := map[string]any{"role": "assistant", "content": text}
			if rp.Refuse {
				msg = map[string]any{"role": "assistant", "content": nil, "refusal": "I can't help with that."}
			}
			json.NewEncoder(w).Encode(map[string]any{
				"object":  "chat.completion",
				"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": "stop"}},
			})
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.seen...)
}

// userMessage pulls the fenced message out of a request body.
func userMessage(t *testing.T, body []byte) string {
	var req struct {
		Messages []chatMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		t.Errorf("request body is not a chat: %v", err)
		return ""
	}
	return req.Messages[len(req.Messages)-1].Content
}

// fenced is one piece read back from a message.
type fenced struct {
	name, content string
}

// readFences reads a message as a model is told to: the boundary from the
// first line, then each piece between its begin and end lines. Text outside
// a fence is sayso's own; anything that breaks the shape is an error.
func readFences(msg string) (head []string, ps []fenced, err error) {
	first, rest, _ := strings.Cut(msg, "\n")
	const intro = "The fence boundary for this request is "
	if !strings.HasPrefix(first, intro) {
		return nil, nil, fmt.Errorf("no boundary line")
	}
	boundary, _, _ := strings.Cut(strings.TrimPrefix(first, intro), ".")
	head = append(head, first)
	begin, end := "[begin "+boundary+" ", "[end "+boundary+" "
	var cur *fenced
	var body []string
	for _, line := range strings.Split(strings.TrimSuffix(rest, "\n"), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, begin):
			cur = &fenced{name: strings.TrimSuffix(strings.TrimPrefix(line, begin), "]")}
			body = nil
		case cur == nil && line == "":
		case cur == nil:
			head = append(head, line)
		case line == end+cur.name+"]":
			cur.content = strings.Join(body, "\n")
			if len(body) > 0 {
				cur.content += "\n"
			}
			ps = append(ps, *cur)
			cur = nil
		case strings.Contains(line, boundary):
			return nil, nil, fmt.Errorf("boundary inside piece %s: %q", cur.name, line)
		default:
			body = append(body, line)
		}
	}
	if cur != nil {
		return nil, nil, fmt.Errorf("piece %s never closed", cur.name)
	}
	return head, ps, nil
}

// judge answers as a careful model would, from the message alone: a git
// push passes when the latest owner word about pushing asks for it, and a
// severe push only when the words say force. It quotes the words verbatim.
func judge(msg string) string {
	answer := func(v, reason, quote string) string {
		b, _ := json.Marshal(map[string]string{"verdict": v, "reason": reason, "quote": quote})
		return string(b)
	}
	head, ps, err := readFences(msg)
	if err != nil {
		return answer("ask", "the message is broken: "+err.Error(), "")
	}
	severe := strings.Contains(strings.Join(head, "\n"), "This step is severe")
	var step, quote, from string
	for _, p := range ps {
		switch {
		case p.name == "step":
			step = p.content
		case strings.HasPrefix(p.name, "owner-word "):
			lower := strings.ToLower(p.content)
			switch {
			case strings.Contains(lower, "don't push"), strings.Contains(lower, "do not push"),
				strings.Contains(lower, "not yet"), strings.Contains(lower, "stop"):
				quote, from = "", ""
			case strings.Contains(lower, "push"):
				quote = strings.TrimSpace(strings.SplitN(p.content, "\n", 2)[0])
				from = ""
				if strings.HasSuffix(p.name, " from_parent") {
					from = " (said in the parent session)"
				}
			}
		}
	}
	switch {
	case !strings.Contains(step, "command: git push"):
		return answer("ask", "the step is not a push", "")
	case quote == "":
		return answer("ask", "the person has not asked for a push", "")
	case severe && !strings.Contains(strings.ToLower(quote), "force"):
		return answer("ask", "a severe push the person did not name", "")
	}
	return answer("allow", "the person asked to push"+from, quote)
}
