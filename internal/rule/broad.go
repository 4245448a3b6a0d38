package rule

import "github.com/sayso-dev/sayso/internal/program"

// broad says why a rule starting with words is too broad to keep, or "":
// the registry's one list, shared with the policy file's allow entries.
func broad(words []string) string { return program.Broad(words) }

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
