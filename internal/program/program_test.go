package program

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps: the registry is data, and imports nothing that reads the
// machine.
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "github.com/sayso-dev/sayso/internal/program" && strings.Contains(dep, ".") || dep == "os" || dep == "os/exec" || dep == "net" || dep == "net/http" {
			t.Errorf("imports %s: the registry is pure data", dep)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    Trait
	}{
		{"run0", Wrapper | AsUser}, {"sudo", Wrapper | AsUser}, {"bash", Shell | Bourne}, {"python3", Interpreter},
		{"xargs", Wrapper | StdinArgs}, {"make", Runner}, {"curl", Remote}, {"ed", Escapes}, {"tmux", Launcher},
	} {
		if !Is(tc.name, tc.t) {
			t.Errorf("Is(%q, %v) = false", tc.name, tc.t)
		}
	}
	if Known("surely-not-a-program") {
		t.Error("an unknown program is known")
	}
	if v, ok := RunsVerb([]string{"git", "bisect", "run", "x"}); !ok || v != "git bisect run" {
		t.Errorf("RunsVerb(git bisect run) = %q, %v", v, ok)
	}
	if _, ok := RunsVerb([]string{"git", "status"}); ok {
		t.Error("git status runs code")
	}
	if o, v, ok := ProgOpt("rg", "--pre=./x.sh"); !ok || o != "--pre" || v != "./x.sh" {
		t.Errorf("ProgOpt(rg --pre=) = %q %q %v", o, v, ok)
	}
}

// TestRegistrySize: the registry is made at its size, and still fits.
func TestRegistrySize(t *testing.T) {
	if n := len(registry()); n > registrySize {
		t.Errorf("the registry holds %d programs, more than registrySize (%d): raise it", n, registrySize)
	}
}
