package risk

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// Case is one labelled command of the corpus.
type Case struct {
	Cmd  string   `json:"cmd"`
	Want []string `json:"want"`
	Why  string   `json:"why"`
	Src  string   `json:"src"`
}

// TestContext is the context the corpus is labelled for.
var TestContext = Context{
	Root: "/home/user/project", Home: "/home/user", TempDir: "/tmp",
	Roots:     []string{"/home/user/project-fix"}, // a work tree of the project's repository (git worktree add ../project-fix)
	Protected: []string{"/home/user/.config/sayso", "/home/user/.local/state/sayso", "/usr/local/bin/sayso"},
	Packages:  TestPackages,
	Compose:   TestCompose,
}

func loadCorpus(t testing.TB) []Case {
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Case
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var c Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("corpus line %d: %v", n, err)
		}
		out = append(out, c)
	}
	return out
}

// wantSet parses the labels of a case.
func wantSet(t testing.TB, c Case) Set {
	var s Set
	for _, w := range c.Want {
		cl, err := ParseClass(w)
		if err != nil {
			t.Fatalf("%q: %v", c.Cmd, err)
		}
		s = s.Add(cl)
	}
	return s
}

// loadKnown reads the cases sayso does not yet get right, each with a note.
func loadKnown(t testing.TB) map[string]string {
	f, err := os.Open("testdata/known.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var k struct{ Cmd, Note string }
		if err := json.Unmarshal(sc.Bytes(), &k); err != nil {
			t.Fatal(err)
		}
		out[k.Cmd] = k.Note
	}
	return out
}

// TestCorpus checks every labelled case. A case listed in known.jsonl must
// still fail: when it passes, it leaves that list.
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	known := loadKnown(t)
	if len(cases) < 600 {
		t.Fatalf("corpus has %d cases, want at least 600", len(cases))
	}
	failed := 0
	for _, c := range cases {
		want := wantSet(t, c)
		got := Command(c.Cmd, TestContext)
		ok := true
		if Safe(want) {
			ok = Safe(got.Classes)
		} else {
			ok = got.Classes&want != 0
		}
		if _, isKnown := known[c.Cmd]; isKnown {
			if ok {
				t.Errorf("known case %q now passes: remove it from known.jsonl", c.Cmd)
			}
			continue
		}
		if !ok {
			failed++
			t.Errorf("Classify(%q) = %v, want one of %v (%s)\n%s", c.Cmd, got.Classes, c.Want, c.Why, findings(got))
		}
	}
	t.Logf("%d cases, %d known, %d failed", len(cases), len(known), failed)
}

func findings(a Assessment) string {
	s := ""
	for _, f := range a.Findings {
		s += "\t" + f.Class.String() + ": " + f.Why() + "\n"
	}
	return s
}
