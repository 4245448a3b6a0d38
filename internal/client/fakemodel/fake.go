// Package fakemodel is the scripted model server of sayso's end-to-end
// tests and quickstart: it speaks each client's model API on 127.0.0.1 and
// asks for the steps it is given, one after the other.
package fakemodel

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

// Call is one tool call the fake model makes: a shell command, a file
// read, write or edit with the client's file tools, a call of the fake's
// own MCP tool, or a sub-agent whose prompt is Task and whose own calls
// are Sub.
type Call struct {
	Command string // a shell command line
	Path    string // a file to write, with Content; or to edit, Old to New
	Content string
	Old     string
	New     string
	Read    string // a file to read (Codex, which has no read tool: cat)
	MCP     string // a tool of the fake's MCP server (MCPServer), with Text
	Text    string
	Task    string // a sub-agent's prompt; it must hold SubagentMark
	Sub     []Call
}

// MCPServer is the name the clients are told to give the fake's own MCP
// server, which serves MCPTool at URL/mcp.
const (
	MCPServer = "demo"
	MCPTool   = "say_hello"
)

// SubagentMark in a conversation's first words tells the fake it talks to
// a sub-agent.
const SubagentMark = "E2E-SUBTASK"

// Fake is a model server on 127.0.0.1 speaking the Anthropic Messages,
// OpenAI Responses and Gemini APIs. It makes its scripted calls one after
// the other, the next once the client sends the last one's result back,
// then ends the turn. Every result it got is kept.
type Fake struct {
	URL      string
	calls    []Call
	srv      *httptest.Server
	mu       sync.Mutex
	hook     func(i int)
	before   map[int]bool
	results  []string
	onResult func(string)
	mains    int // turns ended in the main conversation
	subs     int // in sub-agents' conversations
	closed   bool
	done     chan struct{}
}

// Done is closed once the fake has ended the main conversation's turn and
// every sub-agent's (a sub-agent may run in the background).
func (f *Fake) Done() <-chan struct{} { return f.done }

// NewFake starts a fake model that makes calls, one per turn of the
// conversation.
func NewFake(calls ...Call) *Fake {
	f := &Fake{calls: calls, before: map[int]bool{}, done: make(chan struct{})}
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
	case r.URL.Path == "/mcp":
		f.mcp(w, r, raw)
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

// next returns the call to make after n results in the main
// conversation (sub false) or the sub-agent's, and false when the turn is
// over. It runs Before once per main call.
func (f *Fake) next(n int, sub bool) (Call, bool) { return f.nextOf(n, sub, nil) }

// nextOf is next over the calls skip leaves: those the client cannot
// make.
func (f *Fake) nextOf(n int, sub bool, skip func(Call) bool) (Call, bool) {
	var calls []Call
	tasks := 0 // the sub-agents the main conversation starts
	for _, c := range f.calls {
		if skip == nil || !skip(c) {
			calls = append(calls, c)
			if c.Task != "" {
				tasks++
			}
		}
	}
	if sub {
		calls = nil
		for _, c := range f.calls {
			calls = append(calls, c.Sub...)
		}
	}
	if n >= len(calls) {
		f.mu.Lock()
		if sub {
			f.subs++
		} else {
			f.mains++
		}
		if f.mains > 0 && f.subs >= tasks && !f.closed {
			f.closed = true
			close(f.done)
		}
		f.mu.Unlock()
		return Call{}, false
	}
	if !sub {
		f.mu.Lock()
		hook, run := f.hook, !f.before[n]
		f.before[n] = true
		f.mu.Unlock()
		if hook != nil && run {
			hook(n)
		}
	}
	return calls[n], true
}

// Before sets a function that runs once before the fake answers with call
// i of the main conversation; the client waits meanwhile.
func (f *Fake) Before(hook func(i int)) {
	f.mu.Lock()
	f.hook = hook
	f.mu.Unlock()
}

// Ends counts the turns the fake ended in the main conversation.
func (f *Fake) Ends() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mains
}

// OnResult sets a function that sees each tool result as it arrives.
func (f *Fake) OnResult(see func(result string)) {
	f.mu.Lock()
	f.onResult = see
	f.mu.Unlock()
}

func (f *Fake) got(result string) {
	f.mu.Lock()
	f.results = append(f.results, result)
	see := f.onResult
	f.mu.Unlock()
	if see != nil {
		see(result)
	}
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
	result, n := anthropicResults(body)
	if n > 0 {
		f.got(result)
	}
	call, more := f.next(n, anthropicSub(body))
	done := !more
	w.Header().Set("content-type", "text/event-stream")
	usage := map[string]any{"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_e2e", "type": "message", "role": "assistant", "model": body["model"], "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	stop := "end_turn"
	if done {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "DONE"}})
	} else {
		name, input := "Bash", map[string]any{"command": call.Command, "description": "e2e"}
		switch {
		case call.Task != "":
			name, input = "Agent", map[string]any{"description": "e2e task", "prompt": call.Task, "subagent_type": "general-purpose", "run_in_background": false}
		case call.Read != "":
			name, input = "Read", map[string]any{"file_path": call.Read}
		case call.MCP != "":
			name, input = offered(body, "mcp__"+MCPServer+"__"+call.MCP, call.MCP), map[string]any{"text": call.Text}
		case call.Path != "" && call.Old != "":
			name, input = "Edit", map[string]any{"file_path": call.Path, "old_string": call.Old, "new_string": call.New}
		case call.Path != "":
			name, input = "Write", map[string]any{"file_path": call.Path, "content": call.Content}
		}
		in, _ := json.Marshal(input)
		stop = "tool_use"
		id := fmt.Sprintf("toolu_e2e%d", n+1)
		if anthropicSub(body) {
			id = fmt.Sprintf("toolu_e2esub%d", n+1)
		}
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// anthropicResults counts the tool results of the conversation and returns
// the last one. Claude Code 2.1.3xx puts system entries after tool
// results: they hold none and are skipped.
func anthropicResults(body map[string]any) (last string, n int) {
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		m, _ := m.(map[string]any)
		cs, _ := m["content"].([]any)
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			if cm["type"] == "tool_result" {
				b, _ := json.Marshal(cm["content"])
				last, n = string(b), n+1
			}
		}
	}
	return last, n
}

// geminiSub reports whether the conversation is a Gemini sub-agent's: it
// is offered complete_task, the tool that ends it.
func geminiSub(body map[string]any) bool {
	tools, _ := body["tools"].([]any)
	for _, t := range tools {
		tm, _ := t.(map[string]any)
		fds, _ := tm["functionDeclarations"].([]any)
		for _, fd := range fds {
			if fm, _ := fd.(map[string]any); fm["name"] == "complete_task" {
				return true
			}
		}
	}
	return false
}

// anthropicSub reports whether the conversation is a sub-agent's: its
// first user message holds SubagentMark.
func anthropicSub(body map[string]any) bool {
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		m, _ := m.(map[string]any)
		if m["role"] != "user" {
			continue
		}
		b, _ := json.Marshal(m["content"])
		return strings.Contains(string(b), SubagentMark)
	}
	return false
}

// openai answers /v1/responses as a stream.
func (f *Fake) openai(w http.ResponseWriter, body map[string]any) {
	w.Header().Set("content-type", "text/event-stream")
	var result string
	n := 0
	items, _ := body["input"].([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		if m["type"] == "function_call_output" || m["type"] == "custom_tool_call_output" {
			b, _ := json.Marshal(m["output"])
			result, n = string(b), n+1
		}
	}
	if n > 0 {
		f.got(result)
	}
	var item map[string]any
	// Codex offers this fake no sub-agent tool, and its MCP tools only
	// through a search: those calls are not made.
	codexCannot := func(c Call) bool { return c.Task != "" || c.MCP != "" }
	if call, more := f.nextOf(n, false, codexCannot); !more {
		item = map[string]any{"type": "message", "id": "msg_e2e", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "DONE", "annotations": []any{}}}}
	} else {
		name, input := "exec_command", map[string]any{"cmd": call.Command}
		switch {
		case call.Command != "":
		case call.Read != "":
			input = map[string]any{"cmd": "cat " + shellQuote(call.Read)}
		case call.Path != "":
			item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_e2e%d", n+1), "call_id": fmt.Sprintf("call_e2e%d", n+1),
				"name": "apply_patch", "input": patch(call), "status": "completed"}
		}
		if item == nil {
			args, _ := json.Marshal(input)
			item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_e2e%d", n+1), "call_id": fmt.Sprintf("call_e2e%d", n+1), "name": name, "arguments": string(args), "status": "completed"}
		}
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
	n := 0
	contents, _ := body["contents"].([]any)
	for _, c := range contents {
		cm, _ := c.(map[string]any)
		parts, _ := cm["parts"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			if fr, ok := pm["functionResponse"]; ok {
				b, _ := json.Marshal(fr)
				result, n = string(b), n+1
			}
		}
	}
	if n > 0 {
		f.got(result)
	}
	sub := geminiSub(body)
	var part map[string]any
	if call, more := f.next(n, sub); !more && sub {
		// A Gemini sub-agent ends by handing its report back.
		part = map[string]any{"functionCall": map[string]any{"name": "complete_task", "args": map[string]any{"report": map[string]any{
			"SummaryOfFindings": "SUB-DONE", "ExplorationTrace": []any{}, "RelevantLocations": []any{}}}}}
	} else if !more {
		part = map[string]any{"text": "DONE"}
	} else if call.Task != "" {
		part = map[string]any{"functionCall": map[string]any{"name": "invoke_agent", "args": map[string]any{"agent_name": "codebase_investigator", "prompt": call.Task}}}
	} else if call.Read != "" {
		part = map[string]any{"functionCall": map[string]any{"name": "read_file", "args": map[string]any{"file_path": call.Read}}}
	} else if call.MCP != "" {
		part = map[string]any{"functionCall": map[string]any{"name": offered(body, "mcp_"+MCPServer+"_"+call.MCP, call.MCP), "args": map[string]any{"text": call.Text}}}
	} else if call.Path != "" && call.Old != "" {
		part = map[string]any{"functionCall": map[string]any{"name": "replace", "args": map[string]any{"file_path": call.Path, "old_string": call.Old, "new_string": call.New, "instruction": "e2e edit"}}}
	} else if call.Path != "" {
		part = map[string]any{"functionCall": map[string]any{"name": "write_file", "args": map[string]any{"file_path": call.Path, "content": call.Content}}}
	} else {
		part = map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": call.Command, "description": "e2e"}}}
	}
	sse(w, "", map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}})
}

// patch is Codex's apply_patch input for a write (Content) or an edit
// (Old to New) of call.Path.
func patch(call Call) string {
	lines := func(prefix, text string) string {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			b.WriteString(prefix + l + "\n")
		}
		return b.String()
	}
	if call.Old != "" {
		return "*** Begin Patch\n*** Update File: " + call.Path + "\n@@\n" + lines("-", call.Old) + lines("+", call.New) + "*** End Patch\n"
	}
	return "*** Begin Patch\n*** Add File: " + call.Path + "\n" + lines("+", call.Content) + "*** End Patch\n"
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// offered is the name under which the client offers the fake's MCP tool
// (each names MCP tools its own way): the first tool name in the request
// that ends with tool and names the server, else fallback.
func offered(body map[string]any, fallback, tool string) string {
	var found string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if n, ok := v["name"].(string); ok && found == "" && strings.HasSuffix(n, tool) && strings.Contains(n, MCPServer) {
				found = n
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(body["tools"])
	if found == "" {
		return fallback
	}
	return found
}

// mcp serves the fake's MCP server over streamable HTTP: one tool,
// MCPTool, that says hello with the text it is given.
func (f *Fake) mcp(w http.ResponseWriter, r *http.Request, raw []byte) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name            string         `json:"name"`
			Arguments       map[string]any `json:"arguments"`
			ProtocolVersion string         `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &req) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if len(req.ID) == 0 { // a notification
		w.WriteHeader(http.StatusAccepted)
		return
	}
	var result any
	switch req.Method {
	case "initialize":
		version := req.Params.ProtocolVersion
		if version == "" {
			version = "2025-06-18"
		}
		result = map[string]any{"protocolVersion": version, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": MCPServer, "version": "1.0.0"}}
	case "tools/list":
		result = map[string]any{"tools": []any{map[string]any{"name": MCPTool, "description": "Says hello with the given text.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}}}}
	case "tools/call":
		text, _ := req.Params.Arguments["text"].(string)
		result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "hello from the fake MCP server: " + text}}}
	case "ping":
		result = map[string]any{}
	default:
		writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "fake: no method " + req.Method}})
		return
	}
	writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
}
