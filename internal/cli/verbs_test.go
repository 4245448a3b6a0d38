package cli

import (
	"slices"
	"testing"
)

// TestVerbTables: a noun that runs its verbs from a table runs exactly
// the verbs it registered, so help, completion and the command agree.
func TestVerbTables(t *testing.T) {
	for noun, table := range map[string]map[string]func(*Env, []string) error{"rule": ruleVerbs, "hub": hubVerbs} {
		registered := verbsOf(noun)
		for _, v := range registered {
			if table[v] == nil {
				t.Errorf("%s registers the verb %s, and its table does not run it", noun, v)
			}
		}
		for v := range table {
			if !slices.Contains(registered, v) {
				t.Errorf("%s runs the verb %s, and does not register it", noun, v)
			}
		}
	}
}
