package shell

import (
	"os/exec"
	"strings"
	"testing"
)

// banned are imports this package must never reach, with why.
var banned = map[string]string{
	"mvdan.cc/sh/v3/interp": "shell reads commands; it never runs them",
	"mvdan.cc/sh/v3/expand": "expanding with a live environment or globbing would read the machine",
	"os/exec":               "shell never starts a process",
	"database/sql":          "only package store touches the database",
	"net/http":              "shell never reaches a network",
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
