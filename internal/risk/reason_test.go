package risk

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReasonKindsHaveWords: every kind has an identifier of its own and
// words, and its identifier reads back as the kind.
func TestReasonKindsHaveWords(t *testing.T) {
	seen := map[string]ReasonKind{}
	for k := ReasonKind(0); k < numReasonKinds; k++ {
		e := reasonTable[k]
		if e.id == "" || e.words == "" {
			t.Errorf("reason kind %d has no identifier or no words: %+v", k, e)
		}
		if o, dup := seen[e.id]; dup {
			t.Errorf("reason kinds %d and %d share the identifier %q", o, k, e.id)
		}
		seen[e.id] = k
		back, err := ParseReasonKind(e.id)
		if err != nil || back != k {
			t.Errorf("ParseReasonKind(%q) = %v, %v, want %v", e.id, back, err, k)
		}
		var u ReasonKind
		if err := u.UnmarshalText([]byte(k.String())); err != nil || u != k {
			t.Errorf("UnmarshalText(%q) = %v, %v", k.String(), u, err)
		}
	}
	if _, err := ParseReasonKind("no-such-reason"); err == nil {
		t.Error("ParseReasonKind accepts an unknown identifier")
	}
	if got := (Reason{}).Kind; got != ReasonUnknown {
		t.Errorf("the zero reason is %v, want %v", got, ReasonUnknown)
	}
}

// TestReasonWords: the words come from the kind's entry, with the
// program, the verb and the object in their places.
func TestReasonWords(t *testing.T) {
	for _, tt := range []struct {
		r    Reason
		want string
	}{
		{PushesForce.By("git", "push", ""), "git push overwrites remote history"},
		{PushesForce.By("git", "push", "+main"), "git push overwrites remote history: +main"},
		{PushesProtected.By("git", "push", "main"), "git push updates the protected branch main"},
		{DeletesPath.By("", "", "~/work"), "deletes ~/work"},
		{DeletesPath.By("rm", "-rf", "/"), "rm -rf deletes /"},
		{OnlyReads.By("kubectl", "", ""), "kubectl only reads"},
		{OnlyReads.By("kubectl ", " ", ""), "kubectl only reads"},
		{Reason{Kind: PathCredential, Verb: "read", Object: "~/.ssh/id_rsa", What: "an ssh key"}, "reads an ssh key: ~/.ssh/id_rsa"},
		{Reason{Kind: DeletesPath, Object: "build"}, "deletes build"},
		{Reason{Kind: DeletesPath, Object: "~", What: "outside the project"}, "deletes ~, outside the project"},
		{Words("git stash drop throws saved work away"), "git stash drop throws saved work away"},
		{Reason{}, "gives no reason"},
		{Reason{Kind: numReasonKinds + 3, Object: "x"}, "gives no reason: x"},
	} {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.r, got, tt.want)
		}
	}
}

// corpusCommands are the commands of every corpus in testdata.
func corpusCommands(t *testing.T) []string {
	var out []string
	for _, c := range loadCorpus(t) {
		out = append(out, c.Cmd)
	}
	for _, name := range []string{"testdata/everyday.jsonl", "testdata/setup.jsonl"} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var c struct{ Cmd string }
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, c.Cmd)
		}
		f.Close()
	}
	return out
}

// TestCorpusFindingsHaveKinds: no finding of any corpus comes without a
// kind, and none is only words (Worded): every reason risk gives has a
// kind and words from the table.
func TestCorpusFindingsHaveKinds(t *testing.T) {
	total, worded := 0, 0
	kinds := map[ReasonKind]int{}
	for _, cmd := range corpusCommands(t) {
		for _, f := range Command(cmd, TestContext).Findings {
			total++
			kinds[f.Reason.Kind]++
			switch f.Reason.Kind {
			case ReasonUnknown:
				t.Errorf("Classify(%q): a %v finding has no reason kind", cmd, f.Class)
			case Worded:
				worded++
			}
			if f.Why() == "" {
				t.Errorf("Classify(%q): a %v finding has no words", cmd, f.Class)
			}
		}
	}
	t.Logf("%d findings, %d of %d kinds used, %d only words", total, len(kinds), numReasonKinds, worded)
	if worded > 0 {
		t.Errorf("%d findings are only words, want none", worded)
	}
}

// TestWordedCallsCounted counts the places in the package that make a
// reason of words alone (Words, the fallback left to callers outside it
// that compose their own sentences): there are none, so a reason the
// classifier gives always has a kind, even on a path no corpus takes.
func TestWordedCallsCounted(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	byFile := map[string]int{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(x ast.Node) bool {
			if call, ok := x.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "Words" {
					n++
					byFile[name]++
				}
			}
			return true
		})
	}
	t.Logf("%d calls of Words: %v", n, byFile)
	if n > 0 {
		t.Errorf("%d calls of Words in the package, want none: give the reason a kind", n)
	}
}
