package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Call is the one tool call the fake model makes: a shell command, or a
// file write where the client has a file tool.
type Call struct {
	Command string // a shell command line
	Path    string // a file to write, with Content
	Content string
}

// Fake is a model server on 127.0.0.1 speaking the Anthropic Messages,
// OpenAI Responses and Gemini APIs. Its first answer is the scripted call;
// once the client sends the call's result back, it ends the turn quoting
// that result. Every result it got is kept.
type Fake struct {
	URL     string
	call    Call
	srv     *httptest.Server
	mu      sync.Mutex
	results []string
}

// NewFake starts a fake model that makes call.
func NewFake(call Call) *Fake {
	f := &Fake{call: call}
	f.srv = httptest.NewUnstartedServer(f)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	f.srv.Listener = ln
	f.srv.Start()
	f.URL = f.srv.URL
	return f
}

// Close stops the server.
func (f *Fake) Close() { f.srv.Close() }

// Results returns the tool results the clients sent back.
func (f *Fake) Results() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.results...)
}

func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	switch {
	case r.Method == http.MethodHead:
		w.WriteHeader(200)
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
		f.anthropic(w, body)
	case strings.HasSuffix(r.URL.Path, "/responses"):
		f.openai(w, body)
	case strings.Contains(r.URL.Path, ":streamGenerateContent"):
		f.gemini(w, body)
	case strings.HasSuffix(r.URL.Path, "/count_tokens") || strings.Contains(r.URL.Path, ":countTokens"):
		writeJSON(w, map[string]any{"input_tokens": 10, "totalTokens": 10})
	default:
		w.WriteHeader(404)
		writeJSON(w, map[string]any{"error": map[string]any{"message": "fake: " + r.URL.Path}})
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("content-type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (f *Fake) got(result string) {
	f.mu.Lock()
	f.results = append(f.results, result)
	f.mu.Unlock()
}

func sse(w io.Writer, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
}

// anthropic answers /v1/messages as a stream.
func (f *Fake) anthropic(w http.ResponseWriter, body map[string]any) {
	result, done := anthropicResult(body)
	w.Header().Set("content-type", "text/event-stream")
	usage := map[string]any{"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_e2e", "type": "message", "role": "assistant", "model": body["model"], "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	stop := "end_turn"
	if done {
		f.got(result)
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "DONE"}})
	} else {
		name, input := "Bash", map[string]any{"command": f.call.Command, "description": "e2e"}
		if f.call.Path != "" {
			name, input = "Write", map[string]any{"file_path": f.call.Path, "content": f.call.Content}
		}
		in, _ := json.Marshal(input)
		stop = "tool_use"
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": "toolu_e2e1", "name": name, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// anthropicResult finds a tool_result in the last message that is not a
// system entry (Claude Code 2.1.3xx appends those after tool results).
func anthropicResult(body map[string]any) (string, bool) {
	msgs, _ := body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if m["role"] == "system" {
			continue
		}
		cs, _ := m["content"].([]any)
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			if cm["type"] == "tool_result" {
				b, _ := json.Marshal(cm["content"])
				return string(b), true
			}
		}
		return "", false
	}
	return "", false
}

// openai answers /v1/responses as a stream.
func (f *Fake) openai(w http.ResponseWriter, body map[string]any) {
	w.Header().Set("content-type", "text/event-stream")
	var result string
	done := false
	items, _ := body["input"].([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		if m["type"] == "function_call_output" || m["type"] == "custom_tool_call_output" {
			b, _ := json.Marshal(m["output"])
			result, done = string(b), true
		}
	}
	var item map[string]any
	if done {
		f.got(result)
		item = map[string]any{"type": "message", "id": "msg_e2e", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "DONE", "annotations": []any{}}}}
	} else {
		args, _ := json.Marshal(map[string]any{"cmd": f.call.Command})
		item = map[string]any{"type": "function_call", "id": "fc_e2e", "call_id": "call_e2e", "name": "exec_command", "arguments": string(args), "status": "completed"}
	}
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_e2e",
		"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens": 5,
			"output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}}})
}

// gemini answers streamGenerateContent as a stream.
func (f *Fake) gemini(w http.ResponseWriter, body map[string]any) {
	w.Header().Set("content-type", "text/event-stream")
	var result string
	done := false
	contents, _ := body["contents"].([]any)
	for _, c := range contents {
		cm, _ := c.(map[string]any)
		parts, _ := cm["parts"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			if fr, ok := pm["functionResponse"]; ok {
				b, _ := json.Marshal(fr)
				result, done = string(b), true
			}
		}
	}
	var part map[string]any
	if done {
		f.got(result)
		part = map[string]any{"text": "DONE"}
	} else if f.call.Path != "" {
		part = map[string]any{"functionCall": map[string]any{"name": "write_file", "args": map[string]any{"file_path": f.call.Path, "content": f.call.Content}}}
	} else {
		part = map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": f.call.Command, "description": "e2e"}}}
	}
	sse(w, "", map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}})
}
