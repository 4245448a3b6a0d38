package risk

import (
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/shell"
)

// clean reports whether src stands on its own as a part of a compound:
// it parses, holds something to run, nothing opaque, and nothing that
// would swallow what follows it (a comment, a here-doc, a line break, a
// trailing backslash or an unfinished construct).
func clean(src string) bool {
	if src == "" || strings.ContainsAny(src, "#\n\\") || strings.Contains(src, "<<") {
		return false
	}
	s := shell.Parse(src)
	return len(s.Segments) > 0 && len(s.Opaques()) == 0
}

// FuzzClassify: a compound step is never less risky than any of its parts,
// over ; && | $( ) and bash -c.
func FuzzClassify(f *testing.F) {
	cmds := []string{}
	for _, c := range loadCorpus(f) {
		cmds = append(cmds, c.Cmd)
	}
	for i := 0; i+1 < len(cmds); i += 2 {
		f.Add(cmds[i], cmds[i+1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !clean(a) || !clean(b) {
			return
		}
		top := func(src string) Class { return Command(src, TestContext).Classes.Top() }
		ta, tb := top(a), top(b)
		for _, compound := range []string{
			a + " ; " + b,
			a + " && " + b,
			a + " || " + b,
			a + " | " + b,
			"echo $( " + a + " ) ; " + b,
			"bash -c '" + strings.ReplaceAll(a, "'", `'\''`) + "' ; " + b,
		} {
			if len(shell.Parse(compound).Opaque) > 0 {
				continue // bash would refuse it too: nothing of it runs
			}
			if strings.HasPrefix(compound, "bash -c '") && (strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+")) {
				continue // bash reads the string as its own options, and refuses them: nothing of a runs
			}
			tc := top(compound)
			for _, part := range []Class{ta, tb} {
				if tc.Severity() < part.Severity() {
					t.Fatalf("Classify(%q) = %v, less risky than its part's %v", compound, tc, part)
				}
			}
		}
	})
}

// finishes runs classify and fails the test, naming the input, when it has
// not finished in a time no real command comes near: a hook that hangs
// is a hook the client gives up on. The time is the budget under test
// (the hook's own Timeout), not a wait for something else to happen.
func finishes(t *testing.T, src string, classify func() Assessment) Assessment {
	t.Helper()
	done := make(chan Assessment, 1)
	go func() { done <- classify() }()
	select {
	case a := <-done:
		return a
	case <-time.After(10 * time.Second):
		t.Fatalf("Classify(%q) has not finished after 10s", src)
		return Assessment{}
	}
}

// FuzzCommand: classifying any input never panics and always names a
// class; input the parser refuses is opaque, never read.
func FuzzCommand(f *testing.F) {
	for _, c := range loadCorpus(f) {
		f.Add(c.Cmd)
	}
	f.Fuzz(func(t *testing.T, src string) {
		a := finishes(t, src, func() Assessment { return Command(src, TestContext) })
		if a.Classes.Empty() {
			t.Fatalf("Classify(%q) has no class", src)
		}
		if len(shell.Parse(src).Opaque) > 0 && Safe(a.Classes) {
			t.Fatalf("Classify(%q) = %v for input the parser refused", src, a.Classes)
		}
	})
}
