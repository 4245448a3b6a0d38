package client

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// The test binary is run by go test, not by a client: it holds no
// evidence, whatever its environment says.
func TestProcsNotClient(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := Procs{PID: os.Getpid(), Dir: t.TempDir(), Binaries: []string{self}}
	t.Setenv("CLAUDE_CODE_SESSION_ATTENDED", "1")
	if err := p.Open("claude", "s1"); !errors.Is(err, errNoEvidence) {
		t.Fatalf("Open = %v, want no evidence", err)
	}
	err = p.Person("claude", "s1", "t1")
	if !errors.Is(err, errNoEvidence) || !strings.Contains(err.Error(), "not by the claude client") {
		t.Fatalf("Person = %v, want: not started by the client", err)
	}
	// a process that is not sayso's own program is not the hook at all
	p.Binaries = []string{"/usr/bin/sayso"}
	if err := p.Person("claude", "s1", "t1"); err == nil || !strings.Contains(err.Error(), "not sayso") {
		t.Fatalf("Person = %v, want: not sayso", err)
	}
}

func TestWalled(t *testing.T) {
	open := "0 0 4294967295"
	for _, c := range []struct {
		st   procStatus
		want string
	}{
		{procStatus{noNewPrivs: "0", seccomp: "0", uidMap: open}, ""},
		{procStatus{noNewPrivs: "1", seccomp: "0", uidMap: open}, "no_new_privs"},
		{procStatus{noNewPrivs: "0", seccomp: "2", uidMap: open}, "seccomp"},
		{procStatus{noNewPrivs: "0", seccomp: "0", uidMap: "0 1000 1"}, "user namespace"},
	} {
		err := c.st.walled()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("walled(%+v) = %v, want %q", c.st, err, c.want)
		}
	}
}

// A message with no witness is never the person's.
func TestAttestWithoutWitness(t *testing.T) {
	ev := []Event{{Kind: EventMessage, Agent: "claude", Session: "s1", Source: SourcePerson}}
	Attest(nil, ev)
	if ev[0].Source != SourceSystem {
		t.Fatalf("source = %v, want system", ev[0].Source)
	}
}

// BenchmarkProcsPerson walks this process and its parent in /proc, as a
// prompt's check does before it finds the parent is not a client.
func BenchmarkProcsPerson(b *testing.B) {
	self, _ := os.Executable()
	p := Procs{PID: os.Getpid(), Dir: b.TempDir(), Binaries: []string{self}}
	for b.Loop() {
		if err := p.Person("claude", "s1", "t1"); err == nil {
			b.Fatal("the test binary holds evidence")
		}
	}
}
