package shell

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// corpusCommands reads the commands of the risk corpus, for seeds.
func corpusCommands(t testing.TB) []string {
	f, err := os.Open("../risk/testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c struct{ Cmd string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c.Cmd)
	}
	return out
}

// FuzzParse: Parse never panics, and input the parser refuses is opaque.
func FuzzParse(f *testing.F) {
	for _, c := range corpusCommands(f) {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s := Parse(src)
		if precheck(src) != "" {
			if len(s.Opaque) == 0 {
				t.Fatalf("Parse(%q): input refused by the limits is not opaque", src)
			}
			return
		}
		if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), ""); err != nil && len(s.Opaque) == 0 {
			t.Fatalf("Parse(%q): parse error %v but nothing opaque", src, err)
		}
	})
}
