package shell

import (
	"strings"
	"testing"
)

// summary renders a script compactly: each segment as its words, with the
// wrappers peeled off it in [..] and what it sits in as {..}; opaque marks as !.
func summary(s *Script) string {
	var parts []string
	for _, o := range s.Opaque {
		parts = append(parts, "!"+o.Why)
	}
	for i := range s.Segments {
		g := &s.Segments[i]
		var b strings.Builder
		if len(g.Via) > 0 {
			b.WriteString("{" + strings.Join(g.Via, ",") + "}")
		}
		if len(g.Wrappers) > 0 {
			b.WriteString("[" + strings.Join(g.Wrappers, ",") + "]")
		}
		words := make([]string, len(g.Args))
		for j, w := range g.Args {
			if w.Literal {
				words[j] = w.Value
			} else {
				words[j] = "$"
			}
		}
		b.WriteString(strings.Join(words, " "))
		if g.Many {
			b.WriteString(" *many")
		}
		if g.Loop {
			b.WriteString(" *loop")
		}
		for _, o := range g.Opaque {
			b.WriteString(" !" + o.Why)
		}
		parts = append(parts, b.String())
	}
	return strings.Join(parts, " ; ")
}

// parseTests are commands and their segments; the bash oracle reads them too.
var parseTests = []struct{ in, want string }{
	{"git status", "git status"},
	{"ls -la && git push", "ls -la ; git push"},
	{"a | b | c", "a ; b ; c"},
	{"echo ok 2>&1 && git reset --hard", "echo ok ; git reset --hard"},
	{"(git reset --hard)", "git reset --hard"},
	{"{ a; b; }", "a ; b"},
	{"if true; then rm x; fi", "true ; rm x"},
	{"for f in *; do rm \"$f\"; done", "rm $ *loop"},
	{"while read l; do echo $l; done < f", "read l *loop ; echo $ *loop ; "},
	{"case $x in a) rm a;; esac", "rm a"},
	{"f() { rm -rf /; }; f", "{function f}rm -rf / ; f"},
	{"time git push", "git push"},
	{"! git push", "git push"},
	{"git push &", "git push"},
	// wrappers
	{"sudo git status", "[sudo]git status"},
	{"sudo -u root -- git reset --hard", "[sudo]git reset --hard"},
	{"sudo -E -H git status", "[sudo]git status"},
	{"doas -u root rm x", "[doas]rm x"},
	{"env -i PATH=/bin git push", "[env]git push"},
	{"env -S 'PATH=/usr/bin' git reset --hard", "[env]git reset --hard"},
	{"env -u HOME -- rm x", "[env]rm x"},
	{"nohup make &", "[nohup]make"},
	{"timeout 5 git push", "[timeout]git push"},
	{"timeout -k 5 -s KILL 10 git push", "[timeout]git push"},
	{"timeout -s KILL 5 nice -n 5 rm x", "[timeout,nice]rm x"},
	{"nice -10 rm x", "[nice]rm x"},
	{"ionice -c3 rm x", "[ionice]rm x"},
	{"stdbuf -oL git push", "[stdbuf]git push"},
	{"command git push", "[command]git push"},
	{"command -v git", "command -v git"},
	{"builtin cd /", "[builtin]cd /"},
	{"exec git push", "[exec]git push"},
	{"xargs rm -rf", "[xargs]rm -rf *many"},
	{"xargs -0 -n1 -I{} rm {}", "[xargs]rm {} *many"},
	{"xargs", "[xargs]echo *many"},
	{"busybox rm -rf /", "[busybox]rm -rf /"},
	{"runuser -u root -- id", "[runuser]id"},
	{"strace -o /dev/null /bin/sh", "[strace]/bin/sh"},
	{"setarch x86_64 /bin/sh", "[setarch]/bin/sh"},
	{"flock /tmp/l git push", "[flock]git push"},
	{"flock -c 'rm -rf /' /tmp/l", "[flock] ; {flock}rm -rf /"},
	{"su -c 'rm -rf /' root", "[su] ; {su}rm -rf /"},
	{"watch -n1 git push", "[watch] *loop ; {watch}git push *loop"},
	{"parallel rm ::: a b", "[parallel] *many ; {parallel}rm a b *many"},
	{"parallel bash -c ::: 'rm -rf /'", "[parallel] *many ; {parallel}bash -c rm -rf / *many ; {parallel,bash -c}rm -rf / *many"},
	{"parallel {} ::: 'git push'", "[parallel] *many !parallel: the command is each input item"},
	{"parallel sh -c '{}' ::: 'git push'", "[parallel] *many !parallel: the shell code holds each input item"},
	{"xargs -I{} sh -c 'echo {}'", "[xargs]sh -c echo {} *many !xargs: the shell code holds each input item ({}) ; {sh -c}echo {} *many"},
	{"git bisect run git push", "git bisect run git push ; {git bisect run}git push"},
	{"npx -y git push", "npx -y git push ; {npx}git push"},
	{"npm exec -c 'git push'", "npm exec -c git push ; {npm exec -c}git push"},
	{"chronic ssh-agent git push", "[chronic,ssh-agent]git push"},
	// find
	{"find . -exec rm {} \\;", "find . -exec ; {find -exec}rm {} *many"},
	{"find . -name x -execdir sh -c 'rm $1' _ {} +", "find . -name x -execdir ; {find -execdir}sh -c rm $1 _ {} *many ; {find -execdir,sh -c}rm $ *many"},
	{"find . -delete", "find . -delete"},
	// shells and eval
	{"bash -c 'git push'", "bash -c git push ; {bash -c}git push"},
	{"bash -lc 'git push'", "bash -lc git push ; {bash -c}git push"},
	{"sh -e -c 'rm x'", "sh -e -c rm x ; {sh -c}rm x"},
	{"zsh -o errexit -c 'rm x'", "zsh -o errexit -c rm x ; {zsh -c}rm x"},
	{"bash -c \"$x\"", "bash -c $ !the bash -c string is built at run time"},
	{"bash script.sh", "bash script.sh"},
	{"eval 'git push'", "eval git push ; {eval}git push"},
	{"eval git push --force", "eval git push --force ; {eval}git push --force"},
	{"eval \"$x\"", "eval $ !eval of text built at run time"},
	{"trap 'rm -rf /' EXIT", "trap rm -rf / EXIT ; {trap}rm -rf /"},
	{"bash <<< 'rm -rf /'", "bash ; {here-string}rm -rf /"},
	{"sh <<EOF\ngit commit\nEOF", "sh ; {here-doc}git commit"},
	{"sh <<'EOF'\nrm $x\nEOF", "sh ; {here-doc}rm $"},
	{"sh <<EOF\nrm $x\nEOF", "sh !the here-doc fed to sh is expanded before sh reads it ; {here-doc}rm $"},
	{"cat <<EOF\nrm -rf /\nEOF", "cat"},
	{"bash -c 'bash -c \"rm x\"'", "bash -c bash -c \"rm x\" ; {bash -c}bash -c rm x ; {bash -c,bash -c}rm x"},
	// substitutions
	{"echo $(rm y)", "{$(…)}rm y ; echo $"},
	{"echo `rm y`", "{`…`}rm y ; echo $"},
	{"cat <(curl x)", "{<(…)}curl x ; cat $"},
	{"tee >(sh)", "{>(…)}sh ; tee $"},
	{"echo x >$(git reset --hard)", "{$(…)}git reset --hard ; echo x"},
	{"git log --format=$(rm -rf /)", "{$(…)}rm -rf / ; git log $"},
	{"echo $((1 + $(rm x)))", "{$(…)}rm x ; echo $"},
	{"echo ${x:-$(rm x)}", "{$(…)}rm x ; echo $"},
	{"echo ${foo@P}", "!${…@P} expands a value as a prompt, which can run commands ; echo $"},
	{"(( x[$(rm -rf /)] ))", "{$(…)}rm -rf /"},
	{"x=$(rm y)", "{$(…)}rm y ; "},
	// dynamic command words
	{"$cmd arg", "$ arg !the command name `$cmd` is not a plain word"},
	{"r${EMPTY}m x", "$ x !the command name `r${EMPTY}m` is not a plain word"},
	{"{cat,.env}", "{cat,.env} !the command name `{cat,.env}` is not a plain word"},
	{"sudo $x", "[sudo]$ !the command name `$x` is not a plain word"},
	// words
	{"git co''mmit", "git commit"},
	{"gh pr view $'123\\nrm -rf /'", "gh pr view 123\nrm -rf /"},
	{"echo \"price is \\$5\"", "echo price is $5"},
	{"[ -d x ] && echo y", "[ -d x ] ; echo y"},
	// a shell's options, as bash reads them
	{"bash -c -- 'git push'", "bash -c -- git push ; {bash -c}git push"},
	{"bash -c -x 'git push'", "bash -c -x git push ; {bash -c}git push"},
	{"bash -xc 'git push'", "bash -xc git push ; {bash -c}git push"},
	{"bash -euo pipefail -c 'git push'", "bash -euo pipefail -c git push ; {bash -c}git push"},
	{"bash -c -o pipefail 'git push'", "bash -c -o pipefail git push ; {bash -c}git push"},
	{"sh -c - 'git push'", "sh -c - git push ; {sh -c}git push"},
	{"bash --rcfile x -c 'git push'", "bash --rcfile x -c git push ; {bash -c}git push"},
	{"bash -c 'ls' -- 'git push'", "bash -c ls -- git push ; {bash -c}ls"},
	{"bash +x -c 'git push'", "bash +x -c git push ; {bash -c}git push"},
	{"bash -x script.sh -c 'git push'", "bash -x script.sh -c git push"},
	{"bash -c", "bash -c !-c without a command string"},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		if got := summary(Parse(tt.in)); got != tt.want {
			t.Errorf("Parse(%q)\n got  %s\n want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseBadInput(t *testing.T) {
	tests := []struct{ name, in, why string }{
		{"empty", "", "empty command"},
		{"blank", "  \n\t", "empty command"},
		{"nul", "ls\x00rm -rf /", "NUL byte"},
		{"utf8", "ls \xff\xfe", "not valid UTF-8"},
		{"nested", strings.Repeat("(", 100000) + "ls" + strings.Repeat(")", 100000), "nests deeper"},
		{"huge", "echo " + strings.Repeat("a", 10<<20), "longer than"},
		{"unterminated", "echo 'x", "cannot parse"},
		{"nested strings", strings.Repeat("bash -c '", 1) + "eval eval eval eval eval eval eval eval eval eval rm" + "'", ""},
	}
	for _, tt := range tests {
		s := Parse(tt.in)
		ops := s.Opaques()
		if tt.why == "" {
			continue
		}
		if len(ops) == 0 || !strings.Contains(ops[0].Why, tt.why) {
			t.Errorf("%s: Parse opaque = %v, want a mark saying %q", tt.name, ops, tt.why)
		}
	}
}

func TestParseNestingLimit(t *testing.T) {
	src := "rm x"
	for i := 0; i < MaxNested+2; i++ {
		src = "eval " + quoteSingle(src)
	}
	s := Parse(src)
	found := false
	for _, o := range s.Opaques() {
		if strings.Contains(o.Why, "nested more than") {
			found = true
		}
	}
	if !found {
		t.Errorf("Parse of %d nested evals: no opaque mark for the nesting limit: %s", MaxNested+2, summary(s))
	}
}

func quoteSingle(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func TestWordFlags(t *testing.T) {
	tests := []struct {
		in                                    string
		literal, quoted, escaped, glob, tilde bool
	}{
		{"abc", true, false, false, false, false},
		{"'a b'", true, true, false, false, false},
		{"a\\ b", true, false, true, false, false},
		{"$'x'", true, true, true, false, false},
		{"*.go", true, false, false, true, false},
		{"'*.go'", true, true, false, false, false},
		{"~/x", true, false, false, false, true},
		{"$HOME", false, false, false, false, false},
		{"[x]", true, false, false, true, false},
		{"[", true, false, false, false, false},
	}
	for _, tt := range tests {
		s := Parse("echo " + tt.in)
		if len(s.Segments) != 1 || len(s.Segments[0].Args) != 2 {
			t.Fatalf("Parse(echo %s): %s", tt.in, summary(s))
		}
		w := s.Segments[0].Args[1]
		if w.Literal != tt.literal || w.Quoted != tt.quoted || w.Escaped != tt.escaped || w.Glob != tt.glob || w.Tilde != tt.tilde {
			t.Errorf("word %s = %+v", tt.in, w)
		}
	}
}

func TestPipelineStages(t *testing.T) {
	s := Parse("curl x | sudo bash && ls")
	if len(s.Segments) != 3 {
		t.Fatalf("segments: %s", summary(s))
	}
	c, b, l := s.Segments[0], s.Segments[1], s.Segments[2]
	if c.Pipeline == 0 || c.Pipeline != b.Pipeline || c.Stage != 0 || b.Stage != 1 || l.Pipeline != 0 {
		t.Errorf("stages: curl %d/%d bash %d/%d ls %d/%d", c.Pipeline, c.Stage, b.Pipeline, b.Stage, l.Pipeline, l.Stage)
	}
}

// TestParserReuse: scripts parsed one after another on pooled parsers keep
// their own words.
func TestParserReuse(t *testing.T) {
	a := Parse("git push origin main")
	want := summary(a)
	for i := 0; i < 100; i++ {
		Parse("rm -rf / && echo " + strings.Repeat("x", i))
	}
	if got := summary(a); got != want {
		t.Errorf("after reuse: %s, want %s", got, want)
	}
}

// TestLoopVars: a segment in a loop knows the variable the loop binds and
// its words; a shell of its own does not.
func TestLoopVars(t *testing.T) {
	tests := []struct{ in, want string }{
		{"for f in a *.go; do cat $f; done", "f=a,*.go"},
		{"for f; do cat $f; done", "f?"},
		{"for f in a; do for g in b; do cat $g; done; done", "f=a g=b"},
		{"for f in a; do bash -c 'cat $f'; done", ""},
		{"cat $f", ""},
	}
	for _, tt := range tests {
		s := Parse(tt.in)
		seg := s.Segments[len(s.Segments)-1]
		var got []string
		for _, v := range seg.Vars {
			if !v.Known {
				got = append(got, v.Name+"?")
				continue
			}
			got = append(got, v.Name+"="+strings.Join(Words(v.Items), ","))
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("Parse(%q) vars = %q, want %q", tt.in, g, tt.want)
		}
	}
}
