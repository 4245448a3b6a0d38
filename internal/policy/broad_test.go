package policy

import (
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/rule"
)

// TestNeverBroadAgrees: an allow entry and a kept rule refuse the same
// programs: both are the person's standing words, and a program one
// refuses must not slip in through the other.
func TestNeverBroadAgrees(t *testing.T) {
	names := append(program.Names(0), "rm", "sayso", "xargs", "uvx", "./x.sh", "/usr/bin/env")
	for _, n := range names {
		if strings.ContainsAny(n, "[]") {
			continue // [ and [[ are shell syntax to an allow entry
		}
		words := []string{n, "some-tool"}
		allowWhy := allowPattern(words)
		ruleErr := rule.Validate(rule.Rule{Tool: "Bash", Unit: rule.UnitCommand, Pattern: n + " some-tool", Cwd: "/w"})
		// A rule may be refused for more (the classes the command shows);
		// never the other way: what no allow starts with, no rule does.
		if allowWhy != "" && ruleErr == nil {
			t.Errorf("%s: [[allow]] refused (%s) but a rule is kept", n, allowWhy)
		}
		if why := program.Broad(words); (why != "") != (allowWhy != "") {
			t.Errorf("%s: program.Broad = %q, allow entry = %q", n, why, allowWhy)
		}
	}
}
