package policy

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// TestSetupAsks holds the installs for the whole machine — a global
// package, a tool, a binary: go install, cargo install, npm -g, gem
// install, uv tool, pipx, a tool copied into the home — gathered with the
// everyday commands from the same projects and session logs (a session
// log's command judged in its project), to a question in auto. They write
// where the person's programs live, outside the project, which a walled
// step cannot write: let through by the mode, each would fail; asked, the
// person's yes runs it as approved.
func TestSetupAsks(t *testing.T) {
	projects := loadEverydayProjects(t)
	f, err := os.Open("../risk/testdata/setup.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var c everydayCommand
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil || c.Cmd == "" || c.Src == "" {
			t.Fatalf("setup line %d: want a command and its source: %v", line, err)
		}
		n++
		got, diag := Evaluate(Request{Command: c.Cmd, Mode: ModeAuto, Context: c.context(t, projects), Wall: Wall{On: true}})
		if got != Ask || len(diag.OutOfScope) == 0 {
			t.Errorf("%q: %v, out of scope %v; want ask for a write outside the project\n%v", c.Cmd, got, diag.OutOfScope, diag.Reasons)
		}
	}
	if n < 20 {
		t.Fatalf("setup file has %d commands, want at least 20", n)
	}
}
