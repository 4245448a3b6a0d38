package rule

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

func TestLookup(t *testing.T) {
	rules := []Rule{
		{Tool: "Bash", Pattern: "git push origin feature/*", Cwd: testCwd},
		{Tool: "Bash", Pattern: "git status", Cwd: testCwd + "/sub"},
		{Tool: "Bash", Pattern: "curl https://example.com", Cwd: testCwd}, // refused: never broad
		{Tool: "Bash", Unit: UnitVerb, Pattern: "npm test *", Cwd: testCwd},
		{Tool: "Bash", Unit: UnitVerb, Pattern: "head -200", Cwd: testCwd},
		{Tool: "Bash", Unit: UnitVerb, Pattern: "go build *", Cwd: testCwd},
		{Tool: "Bash", Pattern: "cat .env", Cwd: testCwd},     // refused: secret
		{Tool: "Edit", Pattern: "git status", Cwd: testCwd},   // refused: not a shell tool
		{Tool: "Bash", Pattern: "git status", Cwd: "project"}, // refused: folder not absolute
	}
	set := NewSet(rules)
	if set.Len() != 5 || len(set.Problems()) != 4 {
		t.Fatalf("NewSet kept %d, refused %d; want 5 and 4", set.Len(), len(set.Problems()))
	}
	cases := []struct {
		cmd   string
		cwd   string
		edit  func(*Step)
		allow bool
		line  string
	}{
		{"git push origin feature/x", testCwd, nil, true, "covers the command"},
		{"git push origin feature/x", testCwd + "/deep/er", nil, true, ""},
		{"git push origin feature/x", "/home/dev", nil, false, "no command rule covers it"},
		{"git push origin feature/x", "/home/dev/project2", nil, false, ""},
		{"git push origin feature/x", testCwd + "/../other", nil, false, ""},
		{"git push origin feature/x", testCwd, func(s *Step) { s.Guest = true }, false, "guest words"},
		{"git push origin feature/x", testCwd, func(s *Step) { s.Held = true }, false, "held"},
		{"git push origin feature/x", testCwd, func(s *Step) { s.Tool = "Write" }, false, "shell steps"},
		{"git push origin feature/x", testCwd, func(s *Step) { s.EachTime = risk.Of(risk.RemoteWrite) }, false, "each time"},
		{"git push origin feature/x", testCwd, func(s *Step) { s.Assessment.Classes = s.Assessment.Classes.Add(risk.Secret) }, false, "no words lift"},
		{"git push origin feature/x", testCwd, func(s *Step) { s.Assessment.Classes = s.Assessment.Classes.Add(risk.Count) }, false, "count"},
		{"git push -f origin feature/x", testCwd, nil, false, "severe"},
		{"git status", testCwd, nil, false, ""},
		{"git status", testCwd + "/sub", nil, true, ""},
		{"npm test --watch 2>&1 | head -200", testCwd, nil, true, "cover every segment"},
		{"npm test && go build ./...", testCwd, nil, true, ""},
		{"npm test && rm -rf build", testCwd, nil, false, "no verb rule covers"},
		{"npm test && git push origin main", testCwd, nil, false, "never lifts"},
		{"npm test", "/elsewhere", nil, false, ""},
		{"curl https://example.com", testCwd, nil, false, ""},
		{"cat .env", testCwd, nil, false, ""},
	}
	for _, c := range cases {
		ctx := testCtx
		ctx.Cwd = c.cwd
		s := NewStep(c.cmd, ctx)
		if c.edit != nil {
			c.edit(&s)
		}
		f := set.Lookup(s)
		lines := strings.Join(f.Lines, "\n")
		if f.Allow != c.allow {
			t.Errorf("Lookup(%q in %s) = %v, want %v\n%s", c.cmd, c.cwd, f.Allow, c.allow, lines)
		}
		if !strings.Contains(lines, c.line) {
			t.Errorf("Lookup(%q in %s) lines do not say %q:\n%s", c.cmd, c.cwd, c.line, lines)
		}
		if !strings.Contains(lines, "rule 3 ignored: rule `curl https://example.com`") {
			t.Errorf("Lookup(%q) does not report the refused rule:\n%s", c.cmd, lines)
		}
	}
	var nilSet *Set
	if nilSet.Lookup(NewStep("git status", testCtx)).Allow {
		t.Error("a nil set allowed a step")
	}
}

func TestUnitText(t *testing.T) {
	for _, u := range []Unit{UnitCommand, UnitVerb} {
		b, _ := u.MarshalText()
		var v Unit
		if err := v.UnmarshalText(b); err != nil || v != u {
			t.Errorf("unit %s round trip = %v, %v", u, v, err)
		}
	}
	var v Unit = UnitVerb
	if err := v.UnmarshalText([]byte("all")); err == nil || v != UnitCommand {
		t.Errorf("UnmarshalText(all) = %v, %v; want an error and the command unit", v, err)
	}
}

// BenchmarkLookup matches one step against 1,000 kept rules, a quarter of
// them under the same first words as the step.
func BenchmarkLookup(b *testing.B) {
	var rules []Rule
	for i := range 1000 {
		var p string
		switch i % 4 {
		case 0:
			p = fmt.Sprintf("git push origin topic%d/*", i)
		case 1:
			p = fmt.Sprintf("go test ./pkg%d/...", i)
		case 2:
			p = fmt.Sprintf("kubectl get pods%d", i)
		default:
			p = fmt.Sprintf("tool%d check --all", i)
		}
		rules = append(rules, Rule{Tool: "Bash", Pattern: p, Cwd: testCwd})
	}
	set := NewSet(rules)
	if set.Len() != 1000 {
		b.Fatalf("kept %d rules: %v", set.Len(), set.Problems()[0].Err)
	}
	s := NewStep("git push origin topic996/login", testCtx)
	b.ResetTimer()
	for b.Loop() {
		if !set.Lookup(s).Allow {
			b.Fatal("no match")
		}
	}
}
