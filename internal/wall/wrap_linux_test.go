package wall

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// odd is a folder name that needs every kind of quoting.
const odd = "dir with 'quote' \"dq\" $x\nand newline"

// wrapCases are commands with the shell features a line must carry
// through unchanged.
var wrapCases = []struct{ cmd, stdin string }{
	{cmd: `echo hi`},
	{cmd: `echo 'a "b" c'; printf '%s\n' "it's"`},
	{cmd: "cat <<'EOF'\nline $HOME `x`\nEOF\necho after"},
	{cmd: "cat <<EOF\n$((1+2)) \\$HOME\nEOF"},
	{cmd: `exit 3`},
	{cmd: `cd sub`},
	{cmd: `cd sub; exit 4`},
	{cmd: `cd sub && pwd`},
	{cmd: `cd /; cd "$OLDPWD"/sub`},
	{cmd: `false`},
	{cmd: `(exit 7)`},
	{cmd: `set -e; false; echo still`},
	{cmd: `set -u; echo "$undefined_xyz"; echo after`},
	{cmd: `cat`, stdin: "input text\nsecond line\n"},
	{cmd: `read x; echo "got $x"; cat`, stdin: "one\ntwo\n"},
	{cmd: `sleep 0.2 & echo started`},
	{cmd: `echo err >&2; echo out`},
	{cmd: `ls does-not-exist`},
	{cmd: `echo "$0" "$#" "$@"`},
	{cmd: `f() { return 5; }; f`},
	{cmd: `trap 'echo bye' EXIT; echo hi`},
	{cmd: `exec echo replaced`},
	{cmd: `echo a | tr a b; echo "${PIPESTATUS[@]}"`},
	{cmd: `printf 'no newline'`},
	{cmd: `cd ` + quote(odd) + ` && ls`},
	{cmd: `mkdir -p new/deeper && cd new/deeper`},
	{cmd: `exec 3>/dev/null; echo ok >&3; echo done`},
	{cmd: `echo 'unterminated`},
	{cmd: `if true; then echo yes; fi; for i in 1 2; do echo $i; done`},
	{cmd: `x=$(echo inner); echo "$x" $(( 6 * 7 ))`},
	{cmd: `case a in a) echo matched;; esac`},
	{cmd: `echo \'; echo "\\"; echo '\'`},
	{cmd: "echo one\\\ntwo"},
	{cmd: `kill -0 $$ && echo alive`},
}

// TestWrapSame runs each command in a client's bash twice, plain and
// walled, from the same project folder, and wants the same output,
// errors, exit status and final folder.
func TestWrapSame(t *testing.T) {
	need(t)
	for _, tt := range wrapCases {
		t.Run(tt.cmd, func(t *testing.T) {
			base := t.TempDir()
			base, _ = filepath.EvalSymlinks(base)
			root := filepath.Join(base, "proj")
			for _, d := range []string{"sub", odd} {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			plain := client(t, root, tt.cmd, tt.stdin)
			os.RemoveAll(filepath.Join(root, "new"))
			p := For(Inputs{Home: os.Getenv("HOME"), Root: root, Scope: Local})
			walled := client(t, root, p.Wrap(tt.cmd, launcher(t)), tt.stdin)
			if plain != walled {
				t.Errorf("command %q\nplain:  %+v\nwalled: %+v", tt.cmd, plain, walled)
			}
		})
	}
}

// TestLineSame runs each command as a client that starts a new shell for
// every step does (bash -c), plainly and through Line, and wants the same
// output, errors and exit status.
func TestLineSame(t *testing.T) {
	need(t)
	for _, tt := range wrapCases {
		t.Run(tt.cmd, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "proj")
			os.MkdirAll(filepath.Join(root, "sub"), 0o755)
			run := func(line string) result {
				cmd := exec.Command("bash", "-c", line)
				cmd.Dir = root
				cmd.Env = append(os.Environ(), launcherEnv+"=1")
				cmd.Stdin = strings.NewReader(tt.stdin)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				r := result{stdout: out.String(), stderr: errb.String()}
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					r.code = ee.ExitCode()
				}
				os.RemoveAll(filepath.Join(root, "new"))
				return r
			}
			plain := run(tt.cmd)
			p := For(Inputs{Home: os.Getenv("HOME"), Root: root, Scope: Local})
			if walled := run(p.Line(tt.cmd, launcher(t))); plain != walled {
				t.Errorf("command %q\nplain:  %+v\nwalled: %+v", tt.cmd, plain, walled)
			}
		})
	}
}

// TestWrapFailsClosed: a launcher that cannot set up the wall runs
// nothing and fails the line.
func TestWrapFailsClosed(t *testing.T) {
	need(t)
	dir := t.TempDir()
	p := Profile{Scope: Local, Write: []string{dir}}
	line := p.Wrap("touch ran", "/nonexistent/sayso-wall")
	r := client(t, dir, line, "")
	if r.code == 0 || r.cwd != "" {
		t.Errorf("missing launcher: %+v, want a failed line", r)
	}
	line = strings.Replace(p.Wrap("touch ran", launcher(t)), "--scope", "--bogus-flag", 1)
	r = client(t, dir, line, "")
	if r.code == 0 {
		t.Errorf("bad flag: %+v, want a failed line", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Errorf("the command ran without its wall")
	}
}
