package risk

import (
	"strings"
	"testing"
)

// TestManyFolders: a step that changes folder more often than sayso follows
// loses track of where it runs, and a delete there is destructive.
func TestManyFolders(t *testing.T) {
	src := strings.Repeat("cd a; ", maxFolders+5) + "rm -rf x"
	if got := Command(src, TestContext).Classes; !got.Has(Destructive) {
		t.Errorf("Classify(%d cd's then rm) = %v, want destructive", maxFolders+5, got)
	}
	src = strings.Repeat("cd a; ", 3) + "rm -rf x"
	if got := Command(src, TestContext).Classes; got.Has(Destructive) {
		t.Errorf("Classify(3 cd's then rm) = %v, want local work", got)
	}
}
