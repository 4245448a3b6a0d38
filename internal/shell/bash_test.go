package shell

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// The bash oracle: real bash reads each command without running it, and
// what sayso reads must agree with it.
//
// bash --pretty-print, reading a script from its standard input, parses
// each command and prints it back as bash read it, and runs nothing (bash
// 5.2; TestBashRunsNothing holds it to that). bash prints each simple
// command's words as they were written, one space apart, so a word the
// parser split or joined differently from bash does not appear in bash's
// text. Given -c, --pretty-print is ignored and the command runs: the
// oracle never passes -c.

var bashOnce struct {
	sync.Once
	path string
	why  string
}

// bashPath is the bash the oracle runs. Without a bash that pretty-prints,
// the oracle skips, and fails when SAYSO_CI is set.
func bashPath(t testing.TB) string {
	bashOnce.Do(func() {
		p, err := exec.LookPath("bash")
		if err != nil {
			bashOnce.why = "no bash on PATH"
			return
		}
		out, ok := runBash(p, "echo  ok")
		if !ok || strings.TrimSpace(out) != "echo ok" {
			bashOnce.why = "bash does not pretty-print (bash 5.2 or later is needed): " + out
			return
		}
		bashOnce.path = p
	})
	if bashOnce.path == "" {
		testenv.Missing(t, "%s", bashOnce.why)
	}
	return bashOnce.path
}

// runBash has bash read src and print it back. ok is false when bash
// refuses it.
func runBash(bash, src string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Hang)
	defer cancel()
	// Long options first: bash reads none after -O.
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "--pretty-print", "-O", "extglob")
	cmd.Stdin = strings.NewReader(src)
	cmd.Env = []string{"PATH=/nonexistent", "LC_ALL=C.UTF-8"}
	cmd.Dir = os.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	// A warning (a here-doc ended by the end of input) is not a refusal.
	return out.String(), err == nil
}

// disagree returns how sayso's reading of src differs from bash's, or ""
// when they agree or sayso already calls the step opaque.
func disagree(t testing.TB, src string) string {
	if precheck(src) != "" {
		return ""
	}
	s := Parse(src)
	opaque := len(s.Opaques()) > 0
	in := src
	if n := len(src) - len(strings.TrimRight(src, "\\")); n%2 == 1 {
		// bash -c keeps a backslash that ends the command; read from a
		// file, bash drops it. Escaping it reads it as -c does.
		in += "\\"
	}
	out, ok := runBash(bashPath(t), in)
	switch {
	case opaque:
		return "" // opaque asks, whatever bash makes of it
	case !ok:
		// bash runs the lines before the one it refuses, and nothing from
		// that line on; sayso reads them all. What bash ran must be what
		// sayso read first.
		if ran := summary(Parse(out)); strings.TrimSpace(out) != "" && !strings.HasPrefix(summary(s), ran) {
			return "bash runs " + ran + " before the line it refuses; sayso reads " + summary(s)
		}
		return ""
	}
	if strings.TrimSpace(out) == "" && len(s.Segments) == 0 {
		return "" // comments alone
	}
	// bash prints a coprocess with its default name, which it would then
	// read as the command's.
	if !strings.Contains(src, "COPROC") {
		out = strings.ReplaceAll(out, "coproc COPROC ", "coproc ")
	}
	// bash prints a $'…' string decoded, in plain quotes: a control or
	// invisible character it holds is then written out, which sayso reads
	// differently in text than in an escape (a carriage return, marks);
	// and bash doubles the bytes 0x01 and 0x7f it quotes inside its own
	// strings (CTLESC, CTLNUL), which its printer shows. Such text is not
	// the command bash read: its segments are not compared.
	_, inOut := hidden(out)
	_, inSrc := hidden(src)
	decoded := len(inOut) > 0 && len(inSrc) == 0
	// The segments of bash's text are the segments of the command.
	if back := summary(Parse(out)); !decoded && back != summary(s) {
		return "segments differ:\n  sayso " + summary(s) + "\n  bash  " + back + "\n  bash printed " + out
	}
	// Every run of words of a simple command, as the parser split them,
	// is in bash's text as bash printed them.
	for _, run := range wordRuns(src) {
		if !strings.Contains(out, run) {
			return "bash does not read the words " + quote(run) + " as sayso does; bash printed " + out
		}
	}
	// The code a shell -c or eval runs is read by bash in turn.
	for _, code := range innerCode(s) {
		if why := disagree(t, code); why != "" {
			return "in " + quote(code) + ": " + why
		}
	}
	return ""
}

// innerCode returns the literal code the segments of s hand to a shell
// -c or to eval, which sayso reads as code of its own.
func innerCode(s *Script) []string {
	var out []string
	for i := range s.Segments {
		seg := &s.Segments[i]
		if !seg.Inline || len(seg.Args) == 0 {
			continue
		}
		switch name := seg.Name(); {
		case shells[name]:
			if w, hasC, _ := shellScript(seg.Args[1:]); hasC && w != nil && w.Literal {
				out = append(out, w.Value)
			}
		case name == "eval":
			out = append(out, strings.Join(Words(seg.Args[1:]), " "))
		}
	}
	return out
}

// wordRuns returns, for each simple command in src, its runs of
// consecutive words that bash prints as written, joined by one space.
// bash prints again, in its own form, what is inside $(…) and <(…), a
// $'…' or $"…" string, an array and a backslash-newline; a run stops at
// such a word. Commands inside backquotes are printed as written, spacing
// included, and are left out.
func wordRuns(src string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil
	}
	text := func(n syntax.Node) string {
		a, b := int(n.Pos().Offset()), int(n.End().Offset())
		if a < 0 || b > len(src) || a > b {
			return "\x00"
		}
		return src[a:b]
	}
	asWritten := func(w *syntax.Word) bool {
		return !strings.Contains(text(w), "\\\n") && verbatim(w)
	}
	var runs []string
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			return !x.Backquotes
		case *syntax.CallExpr:
			var cur []string
			flush := func() {
				if len(cur) > 0 {
					runs = append(runs, strings.Join(cur, " "))
				}
				cur = nil
			}
			for _, a := range x.Assigns {
				if a.Array != nil || a.Value != nil && !asWritten(a.Value) || a.Index != nil {
					flush()
					continue
				}
				t := text(a)
				if a.Value == nil && !a.Naked && !strings.HasSuffix(t, "=") {
					t += "=" // the parser's end of an empty A+= stops before the =
				}
				cur = append(cur, t)
			}
			for _, w := range x.Args {
				if !asWritten(w) {
					flush()
					continue
				}
				cur = append(cur, text(w))
			}
			flush()
		}
		return true
	})
	return runs
}

// verbatim reports whether bash prints w as it was written.
func verbatim(w *syntax.Word) bool {
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
			ok = false
		case *syntax.SglQuoted:
			ok = ok && !x.Dollar
		case *syntax.DblQuoted:
			ok = ok && !x.Dollar
		}
		return ok
	})
	return ok
}

// TestBashRunsNothing: the oracle's bash reads commands and runs none.
func TestBashRunsNothing(t *testing.T) {
	bash := bashPath(t)
	dir := t.TempDir()
	canary := dir + "/ran"
	for _, src := range []string{
		"touch " + canary,
		"{ :; } > " + canary,
		"x=$(touch " + canary + ")",
		"exec > " + canary,
		"echo > " + canary + "; exit 0",
	} {
		if _, ok := runBash(bash, src); !ok {
			t.Errorf("bash refused %q", src)
		}
		if _, err := os.Stat(canary); err == nil {
			t.Fatalf("bash ran %q", src)
		}
	}
}

// TestBashAgrees: over the parser's tests and the risk corpus, sayso's
// segments agree with bash's reading, or the step is opaque.
func TestBashAgrees(t *testing.T) {
	bashPath(t)
	var srcs []string
	for _, tt := range parseTests {
		srcs = append(srcs, tt.in)
	}
	srcs = append(srcs, corpusCommands(t)...)
	srcs = append(srcs, bashCases...)
	type result struct{ src, why string }
	work := make(chan string)
	results := make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for src := range work {
				results <- result{src, disagree(t, src)}
			}
		}()
	}
	go func() {
		for _, s := range srcs {
			work <- s
		}
		close(work)
		wg.Wait()
		close(results)
	}()
	n := 0
	for r := range results {
		n++
		if r.why != "" {
			t.Errorf("Parse(%q): %s", r.src, r.why)
		}
	}
	t.Logf("%d commands read by bash and sayso", n)
}

// bashCases are shapes where a parser may read a command differently from
// bash; each agrees with bash or is opaque.
var bashCases = []string{
	"bash -c 'TZ=UTC\recho git push --force'",
	"bash -c \"sh <<'X'#\nrm -rf ~\\nX\"",
	"eval 'echo a;b'",
	"TZ=UTC\recho git push --force origin main",
	"echo a\\\nb",
	"echo a;b",
	"a=b c=d e",
	"a[1]=x b",
	"x=(a b) y",
	"echo {a,b}c {1..3}",
	"echo #x; ls",
	"echo a#b",
	"echo $\"x\"",
	"echo $'a\\'b' c",
	"!ls",
	"{ls;}",
	"((x)); ls",
	"( (ls) )",
	"echo ${x#}y",
	"time -p ls",
	"coproc ls",
	"case x in (a) ls;; esac",
	"function f() { ls; }",
	"echo <(ls) >(cat)",
	"ls &>x",
	"ls |& cat",
	"cat <<-E\n\tx\n\tE\nls",
	"echo \"a\\\nb\"",
	"echo 'a\nb'",
	"[[ a =~ (b) ]] && ls",
	"echo @(a|b) !(x) +(y)",
	"a=1\\\nb ls",
	"ls\\\n-la",
	"echo \\#x",
	"x=$(cat <<E\nhi\nE\n); echo $x",
	"echo $( case x in x) ls;; esac )",
	"while read -r l; do echo \"$l\"; done < <(git ls-files)",
	"echo $[1+2]",
	"a=(\n1\n2\n); echo ${a[@]}",
	"cat <<E; ls\nx\nE",
	"echo a \\\n# not a comment",
	"f() (ls); f",
	"for ((i=0;i<3;i++)); do echo $i; done",
	"select x in a b; do break; done",
	"echo ${x/a/b} ${x,,} ${x@Q}",
	"[ a ] || { git push; }",
}

// FuzzBash is the differential: for any input, sayso's segments agree with
// how real bash reads it, or the step is opaque.
func FuzzBash(f *testing.F) {
	bashPath(f)
	for _, tt := range parseTests {
		f.Add(tt.in)
	}
	for _, c := range corpusCommands(f) {
		f.Add(c)
	}
	for _, c := range bashCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		if why := disagree(t, src); why != "" {
			t.Fatalf("Parse(%q): %s", src, why)
		}
	})
}
