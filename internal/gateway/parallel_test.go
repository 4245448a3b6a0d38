package gateway_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSeed004ParallelizeHostTasks: a host's tasks count against
// max_parallel from POST /api/v1/tasks to POST /api/v1/tasks/end; a spawn
// past the limit asks, autopilot or not (seed 004 §1).
func TestSeed004ParallelizeHostTasks(t *testing.T) {
	f := startGateway(t, 20*time.Second)
	if err := os.WriteFile(filepath.Join(f.config, "policy.toml"), []byte("max_parallel = 1\ndefault_mode = \"autopilot\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	token := f.addHost("orch", false)
	spawn := func() (int, map[string]any) {
		return f.api("POST", "/api/v1/steps", token, map[string]any{"session": "c1", "cwd": f.project, "tool": "Agent", "input": map[string]any{"prompt": "look"}, "wait": 0}, nil)
	}
	if code, body := spawn(); code != http.StatusOK || body["decision"] != "allow" {
		t.Fatalf("first spawn: %d %v", code, body)
	}
	if code, body := f.api("POST", "/api/v1/tasks", token, map[string]any{"session": "c1", "task": "t1", "prompt": "look"}, nil); code != http.StatusCreated {
		t.Fatalf("make t1: %d %v", code, body)
	}
	code, body := spawn()
	if code != http.StatusAccepted || body["decision"] != "ask" || !strings.Contains(strings.Join(anyStrings(body["classes"]), " "), "parallelize") {
		t.Errorf("a spawn while t1 runs: %d %v", code, body)
	}
	if code, body := f.api("POST", "/api/v1/tasks/end", token, map[string]any{"session": "c1", "task": "t1"}, nil); code != http.StatusOK || body["ended"] != true {
		t.Fatalf("end t1: %d %v", code, body)
	}
	if code, body := spawn(); code != http.StatusOK || body["decision"] != "allow" {
		t.Errorf("a spawn after t1 ended: %d %v", code, body)
	}
	// another host cannot end this host's task, nor a task nobody made
	other := f.addHost("other", false)
	if code, _ := f.api("POST", "/api/v1/tasks/end", other, map[string]any{"session": "c1", "task": "t1"}, nil); code != http.StatusNotFound {
		t.Errorf("another host ended orch's task: %d", code)
	}
	if code, _ := f.api("POST", "/api/v1/tasks/end", token, map[string]any{"session": "c1", "task": "nobody"}, nil); code != http.StatusNotFound {
		t.Errorf("ending a task nobody made: %d", code)
	}
}

func anyStrings(v any) []string {
	var out []string
	if xs, ok := v.([]any); ok {
		for _, x := range xs {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
