package risk

import "testing"

// TestWritePaths checks that each writer reports the paths it writes, so
// that scope, protected paths and instruction files see them. "" stands
// for a path that cannot be known, which no scope holds.
func TestWritePaths(t *testing.T) {
	const p = "/home/user/project"
	for _, tc := range []struct {
		cmd  string
		want []string // paths written or deleted, each must be reported
	}{
		{"git log --output=../out.txt", []string{"/home/user/out.txt"}},
		{"git diff --output /tmp/d.diff", []string{"/tmp/d.diff"}},
		{"git format-patch -o ../patches HEAD~2", []string{"/home/user/patches"}},
		{"git format-patch -o/tmp/p -1", []string{"/tmp/p"}},
		{"git mv a.go ../b.go", []string{p + "/a.go", "/home/user/b.go"}},
		{"git mv a.go dir", []string{p + "/dir/a.go"}},
		{"git clone https://example.com/x/y.git", []string{p + "/y"}},
		{"git clone https://example.com/x/y ../y", []string{"/home/user/y"}},
		{"git read-tree -u --prefix=vendor/x/ HEAD", []string{p + "/vendor/x"}},
		{"git checkout-index -a --prefix=/tmp/export/", []string{"/tmp/export"}},
		{"git apply fix.patch", []string{""}},
		{"git am < mbox", []string{""}},
		{"git apply <<'EOF'\n--- a/x.go\n+++ b/../../evil\n@@ -1 +1 @@\nEOF", []string{"/home/evil"}},
		{"cat <<'EOF' | git apply\n--- a/x.go\n+++ b/y.go\nEOF", []string{p + "/y.go"}},
		{"patch -p1 < fix.patch", []string{""}},
		{"patch -d /tmp -p1 <<'EOF'\n+++ b/z\nEOF", []string{"/tmp/z"}},
		{"tar -xzf x.tgz -C /tmp/out", []string{"/tmp/out"}},
		{"tar -xzf x.tgz", []string{p}},
		{"tar czf /tmp/x.tgz src", []string{"/tmp/x.tgz"}},
		{"tar --remove-files -cf a.tar b", []string{p + "/b"}},
		{"unzip x.zip -d ../y", []string{"/home/user/y"}},
		{"unzip x.zip a/b.txt", []string{p + "/a/b.txt"}},
		{"zip -m out.zip a.txt", []string{p + "/out.zip", p + "/a.txt"}},
		{"rsync -a --remove-source-files ../src/ build/", []string{"/home/user/src", p + "/build"}},
		{"cp a.txt ../dir/", []string{"/home/user/dir/a.txt"}},
		{"go build -o /tmp/app .", []string{"/tmp/app"}},
		{"go test -coverprofile=../c.out ./...", []string{"/home/user/c.out"}},
		{"gcc -o ../a.out x.c", []string{"/home/user/a.out"}},
		{"sqlite3 ../x.db 'insert into t values(1)'", []string{"/home/user/x.db"}},
		{"sqlite3 x.db \"VACUUM INTO '/tmp/y.db'\"", []string{"/tmp/y.db"}},
		{"sqlite3 x.db \".output /tmp/o.txt\" 'select 1'", []string{"/tmp/o.txt"}},
		{"sqlite3 x.db \"select writefile('/tmp/w', 'x')\"", []string{"/tmp/w"}},
		{"awk '{print > \"/tmp/a\"}' x", []string{"/tmp/a"}},
		{"gawk -i inplace 1 ../f", []string{"/home/user/f"}},
		{"sed -n 'w /tmp/s' f", []string{"/tmp/s"}},
		{"sed -i s/a/b/ ../f", []string{"/home/user/f"}},
		{"yq -i .a=1 ../c.yaml", []string{"/home/user/c.yaml"}},
		{"jq . x | sponge ../x.json", []string{"/home/user/x.json"}},
		{"python3 -m json.tool a.json ../b.json", []string{"/home/user/b.json"}},
		{"xxd -r a.hex /tmp/b", []string{"/tmp/b"}},
		{"hostnamectl set-hostname x", []string{"/etc/hostname"}},
		{"journalctl --vacuum-time=1d", []string{"/var/log/journal"}},
		{"gunzip ../x.gz", []string{"/home/user/x"}},
		{"gzip -k a.txt", []string{p + "/a.txt.gz"}},
		{"7z x a.7z -o/tmp/x", []string{"/tmp/x"}},
		{"cpio -idv < a.cpio", []string{""}},
		{"prettier --write ../lib/x.js", []string{"/home/user/lib/x.js"}},
		{"ruff format ../x.py", []string{"/home/user/x.py"}},
		{"openssl genrsa -out /tmp/k.pem 2048", []string{"/tmp/k.pem"}},
		{"esbuild a.ts --outfile=/tmp/a.js", []string{"/tmp/a.js"}},
		{"protoc --go_out=/tmp/gen x.proto", []string{"/tmp/gen"}},
		{"ffmpeg -i a.mp4 /tmp/b.webm", []string{"/tmp/b.webm"}},
		{"gh repo clone cli/cli /tmp/cli", []string{"/tmp/cli"}},
	} {
		a := Command(tc.cmd, TestContext)
		for _, want := range tc.want {
			found := false
			for _, u := range a.Paths {
				if u.Op != OpRead && u.Path == want {
					found = true
				}
			}
			if !found {
				t.Errorf("Command(%q) does not report writing %q; paths: %+v", tc.cmd, want, a.Paths)
			}
		}
	}
}

// TestEverydayWritesInScope checks that everyday writers report only paths
// inside the project.
func TestEverydayWritesInScope(t *testing.T) {
	for _, cmd := range []string{
		"git log --oneline", "git checkout -b x", "git switch main", "git stash pop", "tar -xzf x.tgz",
		"unzip x.zip -d build", "cp a.txt dir/", "go build -o bin/app", "sed -i s/a/b/ file.go",
		"git format-patch -1", "git clone https://example.com/x/y", "git mv a.go b.go", "sqlite3 dev.db 'insert into t values(1)'",
		"awk '{print > \"out.txt\"}' x", "yq -i .a=1 c.yaml", "rsync -a src/ build/", "zip -r dist.zip src",
		"gunzip x.gz", "gzip -k dist.tar", "prettier --write src/", "black .", "ruff check --fix src", "tsc --outDir dist",
		"openssl req -x509 -newkey rsa:2048 -keyout key.pem -out cert.pem -nodes -subj /CN=x", "7z x a.7z -obuild", "gh repo clone cli/cli",
	} {
		a := Command(cmd, TestContext)
		if !Safe(a.Classes) {
			t.Errorf("Command(%q) = %v, want read or local-write\n%s", cmd, a.Classes, findings(a))
		}
		for _, u := range a.Paths {
			if u.Op != OpRead && !TestContext.InScope(u.Path) {
				t.Errorf("Command(%q) writes %q (%s), outside the project", cmd, u.Path, u.Raw)
			}
		}
	}
}

// TestWritersOddInput feeds the writers' own parsers cut-off and odd
// text: none may panic.
func TestWritersOddInput(t *testing.T) {
	for _, cmd := range []string{
		`sqlite3 x.db ".output '"`, `sqlite3 x.db "."`, `sqlite3 x.db "select writefile("`, `sqlite3 x.db "ATTACH '"`,
		`sqlite3 x.db "VACUUM INTO"`, `sqlite3 -A`, `sqlite3 -lookaside`, `duckdb x.db "COPY t TO"`, `psql -c '\'`, `psql -c '\copy t to'`,
		`sed 's`, `sed 's/a`, `sed 'y/a/'`, `sed '\`, `sed '/x`, `sed w`, `awk '{print >`, `awk '{print > "`, `awk '>'`, `awk '{printf(">")}'`,
		"git apply <<EOF\n+++ \nEOF", "git apply <<EOF\ndiff --git \nrename to\nEOF", "patch -p", "patch -p999999 <<EOF\n+++ b/x\nEOF",
		`tar -C`, `tar -xf`, `tar x`, `tar -xfC`, `unzip -d`, `7z`, `7z x -o`, `cpio -D`, `zip -x`, `xxd -c`, `gzip -S`,
		`git clone`, `git clone -- `, `git mv x`, `git checkout-index --prefix=`, `git format-patch -o`, `git init --separate-git-dir`,
		`python3 -m json.tool --indent`, `python3 -m zipfile -e`, `yq -i`, `prettier --write`, `protoc --go_out=`, `curl --output-dir`, `wget -P`,
	} {
		Command(cmd, TestContext)
	}
}
