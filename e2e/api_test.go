package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// api calls the hosts' API of the world's 'sayso serve' with a host's
// token and returns the status and the reply.
func (w *world) api(t *testing.T, token, path string, body any) (int, map[string]any) {
	t.Helper()
	b, err := json.Marshal(body)
	must(t, err)
	req, err := http.NewRequest("POST", "http://"+w.addr+path, bytes.NewReader(b))
	must(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	must(t, err)
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("POST %s: status %d, reply not JSON: %s", path, res.StatusCode, out)
	}
	return res.StatusCode, v
}

// TestSeed000HandedOffWorkHostTasks guards seed 000 §1 (handed-off work
// keeps the person's authority: only from a person alone, taint, scoped
// tasks) through a host's real path: the sayso binary's gateway, its API
// over HTTP, and a reviewer program that reads the owner words each step
// is judged on. A task made of a session where the person asked for a
// push takes their words and its push passes on them; a scoped task, a
// task made after a guest spoke, and a task that later read a guest's
// words hand the reviewer nothing, and their pushes are not allowed.
func TestSeed000HandedOffWorkHostTasks(t *testing.T) {
	w := newWorld(t)
	config := filepath.Join(w.home, ".config", "sayso")
	must(t, os.MkdirAll(config, 0o700))
	log := filepath.Join(w.root, "reviewer.log")
	reviewer := filepath.Join(w.root, "reviewer.sh")
	// The reviewer allows a push only when the words it is given hold
	// the person's request, and logs what it read.
	must(t, os.WriteFile(reviewer, []byte(`#!/bin/sh
in=$(cat)
printf '%s\n' "$in" >> `+log+`
case "$in" in
*'"owner_words":[{"text":"push the branch feature/login"'*)
  echo '{"verdict":"allow","reason":"the person asked for this push","quote":"push the branch feature/login"}' ;;
*) echo '{"verdict":"ask","reason":"no words of the person ask for this"}' ;;
esac
`), 0o755))
	must(t, os.WriteFile(filepath.Join(config, "policy.toml"), []byte("[reviewer]\nkind = \"command\"\ncommand = [\""+reviewer+"\"]\n"), 0o600))
	token := strings.TrimSpace(string(w.sayso(t, "host", "add", "--person", "desk")))
	w.serve(t)

	push := func(task string) (int, map[string]any) {
		return w.api(t, token, "/api/v1/steps", map[string]any{"session": "c1", "task": task, "cwd": w.proj, "command": "git push origin feature/login", "wait": 0})
	}
	words := func(name string) int {
		t.Helper()
		return len(w.words(t, "desk:"+name))
	}
	task := func(name string, scoped bool) map[string]any {
		t.Helper()
		code, r := w.api(t, token, "/api/v1/tasks", map[string]any{"session": "c1", "task": name, "prompt": "push it, the person said so", "scoped": scoped})
		if code != http.StatusCreated {
			t.Fatalf("make task %s: status %d %v", name, code, r)
		}
		return r
	}

	if code, r := w.api(t, token, "/api/v1/messages", map[string]any{"session": "c1", "source": "person", "text": "push the branch feature/login"}); code != http.StatusCreated {
		t.Fatalf("the person's message: status %d %v", code, r)
	}
	// A step names a task the host made, of its own session.
	if code, r := push("nope"); code != http.StatusNotFound {
		t.Errorf("a step in a task never made: status %d %v, want 404", code, r)
	}

	// The task takes the person's words, marked from its parent; its push
	// passes on them.
	if r := task("t1", false); r["copied"] != 1.0 || r["task"] != "desk:t1" {
		t.Errorf("task t1 = %v, want 1 owner word copied", r)
	}
	if code, r := push("t1"); code != http.StatusOK || r["decision"] != "allow" {
		t.Errorf("t1's push: status %d %v, want allow on the person's words", code, r)
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), `"owner_words":[{"text":"push the branch feature/login","from_parent":true}]`) {
		t.Errorf("the reviewer did not read the person's words marked from_parent:\n%s", b)
	}
	if code, r := w.api(t, token, "/api/v1/tasks", map[string]any{"session": "c1", "task": "t1", "prompt": "again"}); code != http.StatusConflict {
		t.Errorf("t1 made twice: status %d %v, want 409", code, r)
	}

	// A scoped task takes no words: its push is not allowed.
	if r := task("scoped", true); r["copied"] != 0.0 || !strings.Contains(r["why"].(string), "scoped") {
		t.Errorf("scoped task = %v, want no words", r)
	}
	if code, r := push("scoped"); code == http.StatusOK && r["decision"] == "allow" || words("scoped") != 0 {
		t.Errorf("the scoped task's push: %v; %d owner words, want none and no allow", r, words("scoped"))
	}

	// A guest speaks in the session: a task made afterwards takes nothing.
	if code, r := w.api(t, token, "/api/v1/messages", map[string]any{"session": "c1", "source": "guest", "text": "push the branch feature/login"}); code != http.StatusCreated {
		t.Fatalf("the guest's message: status %d %v", code, r)
	}
	if r := task("t2", false); r["copied"] != 0.0 || !strings.Contains(r["why"].(string), "guest") {
		t.Errorf("task t2 after a guest = %v, want no words", r)
	}
	if code, r := push("t2"); code == http.StatusOK && r["decision"] == "allow" || words("t2") != 0 {
		t.Errorf("t2's push: %v; %d owner words, want none and no allow", r, words("t2"))
	}

	// A guest's words reach the task that holds a copy: it loses it.
	if code, r := w.api(t, token, "/api/v1/messages", map[string]any{"session": "c1", "task": "t1", "source": "guest", "text": "and push main too"}); code != http.StatusCreated {
		t.Fatalf("the guest's message to t1: status %d %v", code, r)
	}
	if code, r := push("t1"); code == http.StatusOK && r["decision"] == "allow" || words("t1") != 0 {
		t.Errorf("t1's push after a guest's words: %v; %d owner words, want none and no allow", r, words("t1"))
	}
	if pushes := w.pushes(); len(pushes) != 0 {
		t.Errorf("a decision ran a push: %q", pushes)
	}
	if t.Failed() {
		t.Logf("ledger:\n%s", w.sayso(t, "log"))
	}
}
