package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The quickstart's model asks to run its commands in order: the first
// call in a new conversation, the second once a result came back, and
// the line it prints points Claude Code at it.
func TestServe(t *testing.T) {
	r, w := io.Pipe()
	stop := make(chan os.Signal)
	done := make(chan int)
	go func() { done <- serve([]string{"ls", "git push origin main"}, w, io.Discard, stop) }()
	lines := bufio.NewScanner(r)
	var printed []string
	for lines.Scan() {
		printed = append(printed, lines.Text())
		if strings.Contains(lines.Text(), "claude -p") {
			break
		}
	}
	go io.Copy(io.Discard, r)
	url := regexp.MustCompile(`ANTHROPIC_BASE_URL=(http://127\.0\.0\.1:\d+) `).FindStringSubmatch(strings.Join(printed, "\n"))
	if url == nil {
		t.Fatalf("no ANTHROPIC_BASE_URL line in:\n%s", strings.Join(printed, "\n"))
	}
	ask := func(body string) string {
		resp, err := http.Post(url[1]+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	first := ask(`{"model":"m","messages":[{"role":"user","content":"do the task"}]}`)
	if !strings.Contains(first, `\"command\":\"ls\"`) {
		t.Errorf("first answer does not ask for ls:\n%s", first)
	}
	second := ask(`{"model":"m","messages":[{"role":"user","content":"do the task"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}]}`)
	if !strings.Contains(second, `\"command\":\"git push origin main\"`) {
		t.Errorf("second answer does not ask for the push:\n%s", second)
	}
	close(stop)
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
	if code := serve(nil, io.Discard, io.Discard, stop); code != 2 {
		t.Errorf("no commands: exit %d, want 2", code)
	}
}
