package policy

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// TestEverydayInAuto holds the decision in auto, with no rules and the
// wall on, over commands coding agents really run: the commands of public
// projects' agent instructions (CLAUDE.md, AGENTS.md), contributing guides
// and CI workflows, each with the file it came from. Left out when the file
// was gathered: prose and output caught in code blocks, machine set-up as
// root or through system package managers, pushes, releases and
// deployments, and CI plumbing on CI-only variables and folders; installs
// for the whole machine (go install, cargo install, npm -g …) are in
// setup.jsonl, where TestSetupAsks wants each asked. A gate that
// asks about everyday work gets switched off: at most 3% may ask, and none
// may be denied.
func TestEverydayInAuto(t *testing.T) {
	f, err := os.Open("../risk/testdata/everyday.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, asked := 0, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var c struct{ Cmd, Src string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("everyday line %d: %v", line, err)
		}
		if c.Cmd == "" || c.Src == "" {
			t.Fatalf("everyday line %d: a command and its source are both needed", line)
		}
		n++
		got, diag := Evaluate(Request{Command: c.Cmd, Mode: ModeAuto, Context: testContext, Wall: Wall{On: true}})
		switch got {
		case Allow:
		case Deny:
			t.Errorf("everyday command denied: %q: %v (%s)", c.Cmd, diag.Reasons, c.Src)
		default:
			asked++
			t.Logf("asks: %q: %v", c.Cmd, diag.Reasons)
		}
	}
	if n < 500 {
		t.Fatalf("everyday file has %d commands, want at least 500", n)
	}
	rate := float64(asked) / float64(n)
	t.Logf("%d everyday commands, %d asked (%.1f%%)", n, asked, 100*rate)
	if rate > 0.03 {
		t.Errorf("%.1f%% of everyday commands ask in auto, want at most 3%%", 100*rate)
	}
}
