package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

const helloSrc = `package main

import (
	"io"
	"os"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
	os.Stdout.WriteString("hello\n")
}
`

// TestHookLatency times the hook end to end — process start, stdin, the
// decision, stdout — against a Go program that only reads stdin and prints
// a fixed answer, the two run alternately, SAYSO_BENCH_RUNS times each
// (default 1000). It runs only with SAYSO_BENCH=1:
//
//	SAYSO_BENCH=1 go test ./e2e -run TestHookLatency -v
func TestHookLatency(t *testing.T) {
	if os.Getenv("SAYSO_BENCH") != "1" {
		t.Skip("SKIP: set SAYSO_BENCH=1 to time the hook")
	}
	runs := 1000
	if n, err := time.ParseDuration(os.Getenv("SAYSO_BENCH_RUNS") + "ns"); err == nil && n > 0 {
		runs = int(n)
	}
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "hello.go"), []byte(helloSrc), 0o644))
	hello := filepath.Join(dir, "hello")
	build := exec.Command("go", "build", "-o", hello, filepath.Join(dir, "hello.go"))
	build.Env = append(os.Environ(), "GO111MODULE=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build hello: %v\n%s", err, out)
	}
	w := newWorld(t)
	w.install(t, "claude")
	input := []byte(`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"` + w.proj + `","prompt_id":"p1","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status && go test ./...","description":"x"},"tool_use_id":"toolu_1"}`)
	time1 := func(bin string, args ...string) time.Duration {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = w.proj, w.env
		cmd.Stdin = bytes.NewReader(input)
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v", bin, err)
		}
		d := time.Since(start)
		if out.Len() == 0 {
			t.Fatalf("%s printed nothing", bin)
		}
		return d
	}
	if out, _ := exec.Command(sayso, "hook", "claude").Output(); len(out) == 0 {
		t.Fatal("hook printed nothing")
	}
	var hook, floor []time.Duration
	for range 20 { // warm the page cache
		time1(sayso, "hook", "claude")
		time1(hello)
	}
	for range runs {
		hook = append(hook, time1(sayso, "hook", "claude"))
		floor = append(floor, time1(hello))
	}
	hm, hp := stats(hook)
	fm, fp := stats(floor)
	t.Logf("runs=%d each, alternating", runs)
	t.Logf("hello: median %v p99 %v", fm, fp)
	t.Logf("hook:  median %v p99 %v", hm, hp)
	t.Logf("hook median / hello median = %.2f; hook p99 / hook median = %.2f", float64(hm)/float64(fm), float64(hp)/float64(hm))
}

func stats(ds []time.Duration) (median, p99 time.Duration) {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)*99/100]
}
