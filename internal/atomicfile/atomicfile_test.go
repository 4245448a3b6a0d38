package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	for _, c := range []struct {
		b    string
		mode os.FileMode
	}{
		{"first\n", 0o600},
		{"second, longer than the first\n", 0o644},
		{"", 0o600},
	} {
		if err := WriteFile(path, []byte(c.b), c.mode); err != nil {
			t.Fatalf("WriteFile(%q, %o): %v", c.b, c.mode, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.b {
			t.Errorf("WriteFile(%q): file holds %q", c.b, got)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != c.mode {
			t.Errorf("WriteFile(%q, %o): mode %o", c.b, c.mode, fi.Mode().Perm())
		}
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 {
		t.Errorf("the folder holds %d entries, want the file alone: %v", len(es), es)
	}
}

func TestWriteFileMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gone", "state.json")
	if err := WriteFile(path, []byte("x"), 0o600); err == nil {
		t.Fatalf("WriteFile into a missing folder: no error")
	}
}
