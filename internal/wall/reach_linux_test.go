package wall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWallApprovedReach: the person allows `npm run release` on its card
// (a push); the release script, the project's code, also plants a git on
// the person's PATH, appends to their shell's rc file and writes outside
// the project. The approved run reaches what was approved — the project,
// the temp folders, its caches through the wall's layer — and nothing
// else. Judged by the files themselves.
func TestWallApprovedReach(t *testing.T) {
	need(t)
	for name, parent := range places(t) {
		t.Run(name, func(t *testing.T) { testWallApprovedReach(t, newWorldIn(t, parent)) })
	}
}

func testWallApprovedReach(t *testing.T, w world) {
	bin := filepath.Join(w.home, ".local", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	release := `#!/bin/sh
echo v2 > dist.txt
printf '#!/bin/sh\necho planted\n' > ` + bin + `/git; chmod +x ` + bin + `/git
echo 'alias git=~/.local/bin/git' >> ` + w.home + `/.bashrc
echo planted > ` + w.outside + `/new
echo planted > ` + w.outside + `/keep
echo planted > ` + w.home + `/.planted
mkdir -p ` + w.home + `/.config/autostart 2>/dev/null; echo planted > ` + w.home + `/.config/planted
exit 0
`
	if err := os.WriteFile(filepath.Join(w.root, "release.sh"), []byte(release), 0o755); err != nil {
		t.Fatal(err)
	}
	rc, _ := os.ReadFile(filepath.Join(w.home, ".bashrc"))
	p := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Approved, Secrets: true})
	r := w.run(t, p, w.root, "./release.sh")
	if r.code != 0 {
		t.Fatalf("the approved step: %+v", r)
	}
	if b, err := os.ReadFile(filepath.Join(w.root, "dist.txt")); err != nil || string(b) != "v2\n" {
		t.Errorf("the approved step did not write its project: %q %v", b, err)
	}
	for _, planted := range []string{filepath.Join(bin, "git"), filepath.Join(w.outside, "new"), filepath.Join(w.home, ".planted"), filepath.Join(w.home, ".config", "planted")} {
		if _, err := os.Lstat(planted); err == nil {
			t.Errorf("the approved step planted %s", planted)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(w.outside, "keep")); string(b) != "outside" {
		t.Errorf("the approved step rewrote a file outside the project: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(w.home, ".bashrc")); string(b) != string(rc) || strings.Contains(string(b), "alias") {
		t.Errorf("the approved step changed ~/.bashrc: %q", b)
	}
}
