package rule

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

// testCwd is the work folder every table row runs in.
const testCwd = "/home/dev/project"

var testCtx = risk.Context{Root: testCwd, Cwd: testCwd, Home: "/home/dev"}

// matchCase is one row: a rule, a command, and whether the rule is
// refused, matches or does not.
type matchCase struct {
	Rule   string `json:"rule"`
	Cmd    string `json:"cmd"`
	Expect string `json:"expect"` // invalid, match, no-match, either
	Unit   string `json:"unit,omitempty"`
}

func loadCases(t testing.TB, name string) []matchCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []matchCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var c matchCase
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func testRule(t testing.TB, pattern, unit string) Rule {
	u := UnitCommand
	if unit != "" {
		var err error
		if u, err = ParseUnit(unit); err != nil {
			t.Fatal(err)
		}
	}
	return Rule{Tool: "Bash", Unit: u, Pattern: pattern, Cwd: testCwd}
}

func checkCases(t *testing.T, cases []matchCase) (scored int) {
	for _, c := range cases {
		if c.Expect == "either" {
			continue
		}
		scored++
		r := testRule(t, c.Rule, c.Unit)
		err := Validate(r)
		if c.Expect == "invalid" {
			if err == nil {
				t.Errorf("Validate(%q, %s) = nil, want an error", c.Rule, r.Unit)
			}
			continue
		}
		if err != nil {
			t.Errorf("Validate(%q, %s) = %v, want nil", c.Rule, r.Unit, err)
			continue
		}
		got := Match(r, NewStep(c.Cmd, testCtx))
		if want := c.Expect == "match"; got != want {
			t.Errorf("Match(%q, %s, %q) = %v, want %v", c.Rule, r.Unit, c.Cmd, got, want)
		}
	}
	return scored
}

func TestCorpus(t *testing.T) {
	n := checkCases(t, loadCases(t, "rules-dev.jsonl"))
	if n < 50 {
		t.Errorf("scored %d rows of rules-dev.jsonl, want all of them", n)
	}
}

func TestMatchTable(t *testing.T) {
	n := checkCases(t, loadCases(t, "match.jsonl"))
	if n < 300 {
		t.Errorf("scored %d rows, want at least 300", n)
	}
}
