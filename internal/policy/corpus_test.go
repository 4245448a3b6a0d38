package policy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

var testContext = risk.Context{
	Root: "/home/user/project", Home: "/home/user", TempDir: "/tmp",
	Roots:     []string{"/home/user/project-fix"}, // a work tree of the project's repository
	Protected: []string{"/home/user/.config/sayso", "/home/user/.local/state/sayso", "/usr/local/bin/sayso"},
	Packages:  risk.TestPackages,
	Compose:   risk.TestCompose,
}

type corpusCase struct {
	Cmd  string   `json:"cmd"`
	Want []string `json:"want"`
	Why  string   `json:"why"`
}

func loadCorpus(t testing.TB) []corpusCase {
	f, err := os.Open("../risk/testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// loadKnown reads the commands of risk's known misses.
func loadKnown(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile("../risk/testdata/known.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var k struct{ Cmd string }
		if err := json.Unmarshal(line, &k); err != nil {
			t.Fatal(err)
		}
		out[k.Cmd] = true
	}
	return out
}

// TestCorpusInAuto holds the decision in auto, with no rules, to the
// design's promise: no risky case is allowed, and at most 3% of the plainly
// safe ones ask. A case labelled with both safe and risky classes may go
// either way and is not scored here.
func TestCorpusInAuto(t *testing.T) {
	safe, asked := 0, 0
	known := loadKnown(t)
	for _, c := range loadCorpus(t) {
		if known[c.Cmd] {
			continue // risk's known misses: their test holds them
		}
		var want risk.Set
		for _, w := range c.Want {
			cl, err := risk.ParseClass(w)
			if err != nil {
				t.Fatal(err)
			}
			want = want.Add(cl)
		}
		got, diag := Evaluate(Request{Command: c.Cmd, Mode: ModeAuto, Context: testContext, Wall: Wall{On: true}})
		if want&risk.Of(risk.Read, risk.LocalWrite) == 0 {
			if got == Allow {
				t.Errorf("Evaluate(%q) in auto = allow, want ask or deny: %v (%s)", c.Cmd, diag.Reasons, c.Why)
			}
			continue
		}
		if !risk.Safe(want) {
			continue
		}
		safe++
		if got != Allow {
			asked++
			t.Logf("safe case asks: %q: %v", c.Cmd, diag.Reasons)
		}
	}
	rate := float64(asked) / float64(safe)
	t.Logf("%d plainly safe cases, %d asked (%.1f%%)", safe, asked, 100*rate)
	if rate > 0.03 {
		t.Errorf("%.1f%% of plainly safe cases ask, want at most 3%%", 100*rate)
	}
}
