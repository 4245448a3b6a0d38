package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The quickstart's model asks for its steps in order — a shell step, a
// write, an edit (after a read), an MCP call, a sub-agent — the next once
// a result came back; it prints a line for each client, and serves the
// MCP tool it calls.
func TestServe(t *testing.T) {
	r, w := io.Pipe()
	stop := make(chan os.Signal)
	done := make(chan int)
	args := []string{"ls", "write:/demo/notes.txt", "edit:/demo/notes.txt", "mcp", "task:look around"}
	go func() { done <- serve(args, w, io.Discard, stop) }()
	lines := bufio.NewScanner(r)
	var printed []string
	for lines.Scan() {
		printed = append(printed, lines.Text())
		if strings.Contains(lines.Text(), "gemini -m") {
			break
		}
	}
	go io.Copy(io.Discard, r)
	out := strings.Join(printed, "\n")
	url := regexp.MustCompile(`ANTHROPIC_BASE_URL=(http://127\.0\.0\.1:\d+) `).FindStringSubmatch(out)
	if url == nil {
		t.Fatalf("no ANTHROPIC_BASE_URL line in:\n%s", out)
	}
	for _, want := range []string{"claude -p 'do the task' --mcp-config", "codex exec -s workspace-write ", `base_url="` + url[1] + `/v1"`,
		`"httpUrl":"` + url[1] + `/mcp"`, `"selectedType":"gemini-api-key"`, "> .gemini/settings.json",
		"GOOGLE_GEMINI_BASE_URL=" + url[1], "gemini -m gemini-2.5-pro --approval-mode yolo -p 'do the task'"} {
		if !strings.Contains(out, want) {
			t.Errorf("the printed lines lack %q:\n%s", want, out)
		}
	}
	post := func(path, body string) string {
		resp, err := http.Post(url[1]+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	conversation := `{"role":"user","content":"do the task"}`
	for i, want := range [][2]string{
		{`"name":"Bash"`, `\"command\":\"ls\"`},
		{`"name":"Write"`, `\"file_path\":\"/demo/notes.txt\"`},
		{`"name":"Read"`, `\"file_path\":\"/demo/notes.txt\"`},
		{`"name":"Edit"`, `\"new_string\":\"edited by the fake model\"`},
		{`"name":"mcp__demo__say_hello"`, `\"text\":\"sayso\"`},
		{`"name":"Agent"`, `look around`},
	} {
		got := post("/v1/messages", `{"model":"m","tools":[{"name":"mcp__demo__say_hello"}],"messages":[`+conversation+`]}`)
		if !strings.Contains(got, want[0]) || !strings.Contains(got, want[1]) {
			t.Errorf("call %d: the answer lacks %s and %s:\n%s", i+1, want[0], want[1], got)
		}
		conversation += `,{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"x","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}`
	}
	// Codex is asked for the shell and file steps, then the turn ends.
	input := `{"type":"message","role":"user","content":"do the task"}`
	for i, want := range []string{`\"cmd\":\"ls\"`, `"name":"apply_patch"`, `\"cmd\":\"cat '/demo/notes.txt'\"`, `*** Update File: /demo/notes.txt`, `"text":"DONE"`} {
		got := post("/v1/responses", `{"model":"m","input":[`+input+`]}`)
		if !strings.Contains(got, want) {
			t.Errorf("Codex's call %d: the answer lacks %s:\n%s", i+1, want, got)
		}
		input += `,{"type":"function_call_output","call_id":"c","output":"x"}`
	}
	// The MCP server: initialize, list, call.
	start := post("/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`)
	list := post("/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	call := post("/mcp", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"say_hello","arguments":{"text":"you"}}}`)
	var reply struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	if !strings.Contains(start, `"protocolVersion":"2025-06-18"`) || !strings.Contains(list, `"name":"say_hello"`) ||
		json.Unmarshal([]byte(call), &reply) != nil || len(reply.Result.Content) != 1 || !strings.Contains(reply.Result.Content[0].Text, "you") {
		t.Errorf("the MCP server answered:\n%s\n%s\n%s", start, list, call)
	}
	close(stop)
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, bad := range [][]string{nil, {"-h"}, {"write:notes.txt"}, {" "}} {
		if code := serve(bad, io.Discard, io.Discard, stop); code != 2 {
			t.Errorf("serve(%q): exit %d, want 2", bad, code)
		}
	}
}

// The README's quickstart starts this fake with a step of each kind, and
// shows the beginnings of the lines it prints.
func TestReadmeQuickstart(t *testing.T) {
	readme, err := os.ReadFile("../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(readme), "\\\n", "")
	m := regexp.MustCompile(`(?m)^\s*go run \./internal/client/fakemodel/serve (.*)$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README.md does not start the fake model with go run ./internal/client/fakemodel/serve")
	}
	args := regexp.MustCompile(`'[^']*'|\S+`).FindAllString(strings.ReplaceAll(m[1], "$HOME", "/home/you"), -1)
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "'", "")
	}
	calls, err := steps(args)
	if err != nil {
		t.Fatalf("README.md's steps %q: %v", args, err)
	}
	kinds := map[string]bool{}
	for _, c := range calls {
		switch {
		case c.Command != "":
			kinds["shell"] = true
		case c.Read != "":
			kinds["read"] = true
		case c.Old != "":
			kinds["edit"] = true
		case c.Path != "":
			kinds["write"] = true
		case c.MCP != "":
			kinds["mcp"] = true
		case c.Task != "":
			kinds["task"] = true
		}
	}
	if len(kinds) != 6 {
		t.Errorf("README.md's quickstart asks for %v, want a shell step, a write, a read, an edit, an MCP call and a sub-agent", kinds)
	}
	// What it shows of the printed lines is what serve prints.
	var out strings.Builder
	stop := make(chan os.Signal)
	close(stop)
	if code := serve(args, &out, io.Discard, stop); code != 0 {
		t.Fatalf("serve(%q) = %d", args, code)
	}
	for _, shown := range regexp.MustCompile(`(?m)^\s*# ((?:ANTHROPIC|FAKE|GOOGLE)\S*|mkdir -p \.gemini)(.*)$`).FindAllStringSubmatch(text, -1) {
		for _, part := range strings.Split(shown[0][strings.Index(shown[0], "#")+2:], "…") {
			part = regexp.MustCompile(`127\.0\.0\.1:\d+`).ReplaceAllString(strings.TrimSpace(part), "127.0.0.1:PORT")
			printed := regexp.MustCompile(`127\.0\.0\.1:\d+`).ReplaceAllString(out.String(), "127.0.0.1:PORT")
			if part != "" && !strings.Contains(printed, part) {
				t.Errorf("README.md shows %q; the fake prints:\n%s", part, out.String())
			}
		}
	}
}
