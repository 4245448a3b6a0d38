package wall

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A launcher is trusted only once it has been seen to set up its wall
// here, and seen again when its file changes; a failure is remembered
// only briefly, and a record names the launcher, the user and the kernel.
func TestVerified(t *testing.T) {
	need(t)
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	record := filepath.Join(dir, SeenFile)
	t.Setenv(launcherEnv, "1")

	// A launcher that counts its runs, then is the real one.
	good := filepath.Join(dir, "good")
	script := "#!/bin/sh\necho run >> " + runs + "\nexec " + launcher(t) + " \"$@\"\n"
	if err := os.WriteFile(good, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "run")
	}
	for i := range 3 {
		if err := Verified(good, record, false); err != nil {
			t.Fatalf("a working launcher, call %d: %v", i, err)
		}
	}
	if n := count(); n != 1 {
		t.Errorf("a working launcher ran %d times for 3 steps; want once, then the record", n)
	}
	if err := Verified(good, record, true); err != nil || count() != 2 {
		t.Errorf("a fresh check: %v, %d runs; want nil and a second run", err, count())
	}
	var r seen
	if b, err := os.ReadFile(record); err != nil || json.Unmarshal(b, &r) != nil || r.Launcher != good || r.UID != os.Getuid() || r.Kernel == "" || r.Err != "" {
		t.Errorf("record = %+v, %v; want the launcher, this uid, the kernel, no error", r, err)
	}

	// The same path, another file: it must be seen to work again.
	bad := "#!/bin/sh\necho run >> " + runs + "\necho 'sayso-wall: error: make mounts private: operation not permitted' >&2\nexit 126\n"
	if err := os.WriteFile(good, []byte(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		err := Verified(good, record, false)
		if err == nil || !strings.Contains(err.Error(), "operation not permitted") {
			t.Errorf("a launcher that fails, call %d: %v; want its reason", i, err)
		}
	}
	if n := count(); n != 3 {
		t.Errorf("%d runs after the launcher changed and failed twice; want one more run, the failure remembered", n)
	}

	// A record of another user, or another kernel, is not this one's.
	if err := os.WriteFile(good, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Verified(good, record, false); err != nil {
		t.Fatal(err)
	}
	for _, forge := range []func(*seen){func(s *seen) { s.UID++ }, func(s *seen) { s.Kernel += "x" }} {
		b, _ := os.ReadFile(record)
		var s seen
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		forge(&s)
		s.Err = "forged"
		if err := writeSeen(record, s); err != nil {
			t.Fatal(err)
		}
		before := count()
		if err := Verified(good, record, false); err != nil || count() != before+1 {
			t.Errorf("a record of another user or kernel was trusted: %v, runs %d → %d", err, before, count())
		}
	}
}
