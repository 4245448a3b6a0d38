package risk

import (
	"os/exec"
	"strings"
	"testing"
)

// banned are imports this package must never reach, with why.
var banned = map[string]string{
	"mvdan.cc/sh/v3/interp": "risk classifies; it never runs anything",
	"os/exec":               "risk never starts a process",
	"mvdan.cc/sh/v3/expand": "risk never expands with a live environment",
	"database/sql":          "only package store touches the database",
	"net/http":              "risk never reaches a network",
}

func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if why, ok := banned[dep]; ok {
			t.Errorf("imports %s: %s", dep, why)
		}
	}
}
