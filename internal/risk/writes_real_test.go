package risk

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestWritesAgainstRealTools runs each writer for real in a scratch
// project and checks that every file it created, changed or removed is a
// path sayso reports the step writes, or lies below a folder it reports.
// It is the real tools' word on what they write, not the manuals'.
func TestWritesAgainstRealTools(t *testing.T) {
	for _, tool := range []string{"bash", "git", "tar", "unzip", "zip", "sqlite3", "sed", "awk", "xxd", "patch", "python3", "gzip"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s is not installed (.ci/run installs it)", tool)
		}
	}
	const repo = "git init -q . && git -c user.name=x -c user.email=x@x add a.txt && git -c user.name=x -c user.email=x@x commit -qm a"
	for _, tc := range []struct{ setup, cmd string }{
		{repo, "git log --output=../out.txt"},
		{repo, "git diff HEAD --output ../d.diff"},
		{repo, "git format-patch -1 -o ../patches"},
		{repo, "git format-patch -1"},
		{repo + " && mkdir sub", "git mv a.txt sub"},
		{repo, "git clone -q . ../clone"},
		{repo, "git checkout-index -a --prefix=../exp/"},
		{repo, "git bundle create ../b.bundle HEAD"},
		{"", "git init -q ../newrepo"},
		{repo, "git apply <<'EOF'\ndiff --git a/sub/new.txt b/sub/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/sub/new.txt\n@@ -0,0 +1 @@\n+x\nEOF"},
		{"", "patch -p1 <<'EOF'\n--- a/new.txt\n+++ b/new.txt\n@@ -0,0 +1 @@\n+x\nEOF"},
		{"", "tar -cf ../a.tar a.txt"},
		{"tar -cf t.tar a.txt && mkdir ../x", "tar -xf t.tar -C ../x"},
		{"mkdir m && cp a.txt m/ && tar -cf t.tar m && rm -r m", "tar -xf t.tar"},
		{"tar -cf t.tar a.txt && mkdir ../x", "tar -xf t.tar --directory=../x a.txt"},
		{"", "tar --remove-files -cf ../b.tar a.txt"},
		{"zip -q z.zip a.txt", "unzip -qo z.zip -d ../u"},
		{"", "zip -qm ../z2.zip a.txt"},
		{"", "sqlite3 ../x.db 'create table t(a)'"},
		{"sqlite3 x.db 'create table t(a)'", "sqlite3 x.db \"VACUUM INTO '../v.db'\""},
		{"sqlite3 x.db 'create table t(a)'", "sqlite3 x.db '.once ../o.txt' 'select 1'"},
		{"sqlite3 x.db 'create table t(a)'", "sqlite3 x.db '.o ../o2.txt' 'select 1'"},
		{"sqlite3 x.db 'create table t(a)'", "sqlite3 x.db '.backup ../b.db'"},
		{"sqlite3 x.db 'create table t(a)'", "sqlite3 x.db \"ATTACH '../att.db' AS o; CREATE TABLE o.t(a)\""},
		{"", "sqlite3 x.db \"select writefile('../w.txt', 'x')\""},
		{"", "sed -n 'w ../s.txt' a.txt"},
		{"", "sed 's/a/b/w ../s2.txt' a.txt"},
		{"", "sed -i s/a/b/ a.txt"},
		{"", "awk '{print > \"../k.txt\"}' a.txt"},
		{"echo '{}' > j.json", "python3 -m json.tool j.json ../j2.json"},
		{"", "python3 -m zipfile -c ../pz.zip a.txt"},
		{"zip -q z.zip a.txt", "python3 -m zipfile -e z.zip ../zx"},
		{"", "xxd a.txt ../h.txt"},
		{"mkdir ../dest", "cp a.txt ../dest/"},
		{"mkdir ../dest", "mv a.txt ../dest"},
		{"mkdir ../dest", "cp -t ../dest a.txt"},
		{"", "gzip a.txt"},
		{"gzip -c a.txt > ../g.txt.gz", "gzip -d ../g.txt.gz"},
		{"", "gzip -k a.txt"},
		{repo + " && git checkout -qb b && echo b > b.txt && git add b.txt && git -c user.name=x -c user.email=x@x commit -qm b && git checkout -q main 2>/dev/null || git checkout -q master", "git checkout -q b"},
		{repo + " && echo z >> a.txt && git stash -q", "git stash pop -q"},
		{repo + " && git checkout -qb b && echo b > b.txt && git add b.txt && git -c user.name=x -c user.email=x@x commit -qm b && git checkout -q -", "git -c user.name=x -c user.email=x@x merge -q b"},
		{repo, "git read-tree -u --prefix=copy/ HEAD"},
		{repo + " && rm a.txt", "git checkout-index -f -- a.txt"},
		{repo, "git worktree add -q ../wt"},
		{repo, "git format-patch -1 -o../attached"},
		{"zip -q z.zip a.txt && mkdir ../u", "cd ../u && unzip -q ../q/z.zip a.txt"},
		{"", "tar -cf../t.tar a.txt"},
		{"", "sed -n '/a/W ../w.txt' a.txt"},
		{"", "patch a.txt <<'EOF'\n--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-a\n+b\nEOF"},
		{"", "cp a.txt ../copy.txt && mv ../copy.txt ../moved.txt"},
	} {
		dir := t.TempDir()
		root := filepath.Join(dir, "p", "q")
		home := filepath.Join(dir, "home")
		for _, d := range []string{root, home} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if tc.setup != "" {
			if out, err := runIn(root, home, tc.setup); err != nil {
				t.Fatalf("setup %q: %v\n%s", tc.setup, err, out)
			}
		}
		before := snapshot(t, dir)
		if out, err := runIn(root, home, tc.cmd); err != nil {
			t.Errorf("%q: %v\n%s", tc.cmd, err, out)
			continue
		}
		changed := diffSnapshots(before, snapshot(t, dir))
		a := Command(tc.cmd, Context{Root: root, Home: home})
		var reported []string
		unknown := false
		for _, u := range a.Paths {
			if u.Op == OpRead {
				continue
			}
			if u.Path == "" {
				unknown = true
			}
			reported = append(reported, u.Path)
		}
		if len(changed) == 0 {
			t.Errorf("%q changed nothing: the case tests nothing", tc.cmd)
		}
		for _, p := range changed {
			ok := unknown
			for _, r := range reported {
				ok = ok || r != "" && within(p, r)
			}
			if !ok {
				t.Errorf("%q writes %s, which sayso does not report (it reports %v)", tc.cmd, p, reported)
			}
		}
	}
}

func runIn(dir, home, src string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Hang)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--norc", "--noprofile", "-c", src)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
	return cmd.CombinedOutput()
}

// snapshot maps every file below dir to its content, and every symbolic
// link to its target.
func snapshot(t *testing.T, dir string) map[string][]byte {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[p] = []byte("link:" + l)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] = b
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffSnapshots lists the files made, changed or removed, leaving out
// git's own bookkeeping inside a repository's .git folder.
func diffSnapshots(before, after map[string][]byte) []string {
	var out []string
	for p, b := range after {
		if a, ok := before[p]; !ok || !bytes.Equal(a, b) {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p)
		}
	}
	kept := out[:0]
	for _, p := range out {
		if strings.Contains(p, "/.git/") && !strings.Contains(p, "/newrepo/") && !strings.Contains(p, "/clone/") {
			continue
		}
		kept = append(kept, p)
	}
	sort.Strings(kept)
	return kept
}
