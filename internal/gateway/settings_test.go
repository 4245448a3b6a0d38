package gateway

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
)

// TestSettingsLooked: the page's settings name the person's policy file,
// from the one loader, as not there until it is written, and there after.
func TestSettingsLooked(t *testing.T) {
	dir := t.TempDir()
	b := &Backend{ConfigDir: dir, DB: openTestStore(t)}
	file := filepath.Join(dir, "policy.toml")
	st, err := b.Settings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Looked) != 1 || st.Looked[0] != (policy.Look{Path: file, Whose: "person"}) {
		t.Errorf("with no file, Looked = %+v, want %s not there", st.Looked, file)
	}
	if err := os.WriteFile(file, []byte(policy.Starter), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err = b.Settings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Looked) != 1 || !st.Looked[0].Exists || len(st.Policy.Entries) != 1 {
		t.Errorf("with the starter written, Looked = %+v and %d entries, want it there with one entry", st.Looked, len(st.Policy.Entries))
	}
}
