package docs

import (
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
)

// TestPolicyExamples parses every toml example of the policy page as the
// person's own file: an example that sayso would report or ignore is a
// page that says what the parser does not do.
func TestPolicyExamples(t *testing.T) {
	blocks := fenced(policyPage, "toml")
	if len(blocks) < 10 {
		t.Fatalf("found %d toml examples in policy.md, want one per key", len(blocks))
	}
	for _, b := range blocks {
		p := policy.Parse("example.toml", []byte(b))
		for _, pr := range p.Problems {
			t.Errorf("policy.md example:\n%s\nreports: %s", b, pr)
		}
	}
}

// TestTopics checks that every page the help prints is there.
func TestTopics(t *testing.T) {
	for _, name := range []string{"policy", "agents", "environment", "threat-model"} {
		if !strings.HasPrefix(Topics[name], "# ") {
			t.Errorf("help topic %q is missing or has no title", name)
		}
	}
}

// fenced returns the bodies of the ```lang blocks of a markdown page.
func fenced(page, lang string) []string {
	var out []string
	var cur []string
	in := false
	for _, line := range strings.Split(page, "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```"+lang:
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			out = append(out, strings.Join(cur, "\n")+"\n")
		case in:
			cur = append(cur, line)
		}
	}
	return out
}
