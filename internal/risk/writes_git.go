package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// The git commands that write files the person did not name as a
// redirect: the log family's --output, format-patch's folder, git mv,
// read-tree -u and checkout-index, clone's folder, bundle files, and the
// patches apply and am read (git-log(1), git-diff(1), git-format-patch(1),
// git-mv(1), git-read-tree(1), git-checkout-index(1), git-clone(1),
// git-bundle(1), git-apply(1), git-am(1)).
//
// The commands that replace tracked files with the repository's own
// (checkout of a branch, switch, stash pop and apply, merge, cherry-pick,
// revert, pull, rebase) write files whose names sayso cannot know without
// the repository: they write below the working folder, which holds them to
// scope, and inside the project the wall keeps the client's settings,
// instruction files and git hooks out of their reach.

// gitDiffOutput: the log and diff family read, unless --output names a
// file for what they print.
func gitDiffOutput(c *cmd) {
	c.add(Read, c.name+" only reads the repository")
	c.outputs([]string{"--output"}, nil)
}

// gitFormatPatch writes its patches in the working folder, in -o DIR, or
// to the one file --output names.
func gitFormatPatch(c *cmd) {
	c.add(LocalWrite, "git format-patch writes patch files")
	n := len(c.a.out.Paths)
	c.outputs([]string{"-o", "--output-directory", "--output"}, []string{"-o"})
	if c.has("--stdout") {
		return
	}
	if len(c.a.out.Paths) == n {
		c.cwdWrite()
	}
}

// gitMv moves its sources to the target, or into it when it is a folder:
// each source is deleted and the file it becomes is written.
func gitMv(c *cmd) {
	c.add(LocalWrite, "git mv moves tracked files")
	ops := c.operands()
	if len(ops) < 2 {
		c.cwdWrite()
		return
	}
	target := ops[len(ops)-1]
	c.write(target)
	for _, w := range ops[:len(ops)-1] {
		c.del(w, true)
		c.createsIn(target, w)
	}
}

// gitReadTree writes the working files only with -u: below --prefix, or
// the whole tree.
func gitReadTree(c *cmd) {
	c.add(LocalWrite, "git read-tree changes the index")
	if !c.has("-u") {
		return
	}
	c.checksOut(true)
}

// gitCheckoutIndex writes the files it names from the index, or every
// file with -a, below --prefix when given.
func gitCheckoutIndex(c *cmd) {
	c.add(LocalWrite, "git checkout-index writes files from the index")
	c.checksOut(c.has("-a", "--all") || c.has("--stdin"))
	prefix, hasPrefix := c.prefix()
	for _, w := range c.operands() {
		if hasPrefix {
			w = shell.Word{Raw: prefix.Raw + w.Raw, Value: prefix.Value + w.Value, Literal: prefix.Literal && w.Literal}
		}
		c.write(w)
	}
}

// prefix is the value of --prefix=, the text prepended to every file
// written (a folder when it ends in /).
func (c *cmd) prefix() (shell.Word, bool) {
	for _, w := range c.args {
		if strings.HasPrefix(w.Value, "--prefix=") || !w.Literal && strings.HasPrefix(w.Raw, "--prefix=") {
			return valueWord(w, "--prefix="), true
		}
	}
	return shell.Word{}, false
}

// checksOut records files of unknown names written below --prefix, or
// below the working folder, when all is set.
func (c *cmd) checksOut(all bool) {
	if !all {
		return
	}
	if p, ok := c.prefix(); ok {
		dir := p
		if !strings.HasSuffix(p.Value, "/") {
			// --prefix=x makes files x<name>: below x's folder.
			d := path.Dir(p.Value)
			dir = shell.Word{Raw: d, Value: d, Literal: p.Literal}
		}
		c.writesUnder(dir)
		return
	}
	c.writesUnderCwd()
}

// cloneOptsWithValue are git clone's options that take the next word.
var cloneOptsWithValue = map[string]bool{
	"-b": true, "--branch": true, "-o": true, "--origin": true, "--depth": true, "--reference": true,
	"--reference-if-able": true, "--separate-git-dir": true, "-j": true, "--jobs": true, "--filter": true,
	"--shallow-since": true, "--shallow-exclude": true, "--bundle-uri": true, "--server-option": true,
	"--revision": true, "--ref-format": true, "-c": true, "--config": true, "--template": true, "-u": true, "--upload-pack": true,
}

// gitClone writes the repository into the folder it names, or a folder
// named after the repository in the working folder.
func gitClone(c *cmd) {
	c.add(LocalWrite, "git clone makes a local copy of a repository")
	var ops []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case w.Literal && w.Value == "--":
			ops = append(ops, c.args[i+1:]...)
			i = len(c.args)
		case w.Literal && cloneOptsWithValue[w.Value]:
			if w.Value == "--separate-git-dir" && i+1 < len(c.args) {
				c.writesUnder(c.args[i+1])
			}
			i++
		case w.Literal && strings.HasPrefix(w.Value, "--separate-git-dir="):
			c.writesUnder(valueWord(w, "--separate-git-dir="))
		case w.Literal && strings.HasPrefix(w.Value, "-"):
		default:
			ops = append(ops, w)
		}
	}
	c.clonesTo(ops)
}

// clonesTo records what a clone of ops[0] writes: the folder ops[1], or
// a folder named after the repository in the working folder.
func (c *cmd) clonesTo(ops []shell.Word) {
	switch {
	case len(ops) >= 2:
		c.writesUnder(ops[1])
	case len(ops) == 1 && ops[0].Literal:
		name := strings.TrimSuffix(path.Base(strings.TrimSuffix(ops[0].Value, "/")), ".git")
		if i := strings.LastIndexByte(name, ':'); i >= 0 {
			name = name[i+1:]
		}
		if name == "" || name == "." || name == ".." || name == "/" {
			c.writesUnderCwd()
			return
		}
		c.writesUnder(shell.Word{Raw: name, Value: name, Literal: true})
	default:
		c.writesUnderCwd()
	}
}

// gitBundle: create writes the bundle file it names.
func gitBundle(c *cmd) {
	ops := c.operands()
	if len(ops) > 0 && (ops[0].Value == "list-heads" || ops[0].Value == "verify") {
		c.add(Read, "git bundle "+ops[0].Value)
		return
	}
	c.add(LocalWrite, "git bundle")
	if len(ops) > 1 && ops[0].Value == "create" {
		c.write(ops[1])
		return
	}
	c.cwdWrite()
}

// gitStashWrites: pop and apply write the stashed files back.
func gitStashWrites(c *cmd) {
	gitStash(c)
	if ops := c.operands(); len(ops) > 0 && (ops[0].Value == "pop" || ops[0].Value == "apply" || ops[0].Value == "branch") {
		c.cwdWrite()
	}
}

// gitApply applies a patch to the working files (and the index), or with
// --cached to the index alone; --check, --stat and the like only read it.
func gitApply(c *cmd) {
	if c.has("--check", "--stat", "--numstat", "--summary") && !c.has("--apply") {
		c.add(Read, "git apply "+"only reads the patch")
		return
	}
	c.add(LocalWrite, "git apply changes files from a patch")
	// With --cached the patch lands in the index alone; the next checkout
	// writes what it names, so the names count the same.
	c.patchArgs("--build-fake-ancestor")
}

// gitAm applies the patches of mailboxes to the working files.
func gitAm(c *cmd) {
	c.add(LocalWrite, "git am applies mailed patches")
	if c.has("--abort", "--quit", "--show-current-patch") {
		return
	}
	if c.has("--continue", "--skip", "--resolved", "-r") {
		c.writesUnderCwd()
		return
	}
	c.patchArgs("--patch-format")
}

// patchArgs reads git apply's and git am's words — the strip level (-p),
// the folder the patch applies below (--directory), the options that take
// a value (those two share, and one more each) — and reports the files
// the patches named there will write.
func (c *cmd) patchArgs(alsoTakesValue string) {
	strip := 1
	var dir shell.Word
	hasDir := false
	var files []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch v := w.Value; {
		case v == "-p" && i+1 < len(c.args):
			strip = atoiOr(c.args[i+1].Value, -1)
			i++
		case strings.HasPrefix(v, "-p") && len(v) > 2:
			strip = atoiOr(v[2:], -1)
		case strings.HasPrefix(v, "--directory="):
			dir, hasDir = valueWord(w, "--directory="), true
		case v == "--directory" && i+1 < len(c.args):
			dir, hasDir = c.args[i+1], true
			i++
		case v == "--include" || v == "--exclude" || v == "-C" || v == "--whitespace" || v == alsoTakesValue:
			i++
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			files = append(files, w)
		}
	}
	c.patchWrites(files, []int{strip}, dir, hasDir)
}

func atoiOr(s string, bad int) int {
	n := 0
	if s == "" || len(s) > 3 {
		return bad
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return bad
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// gitInit writes the repository in the folder it names, or the working
// folder.
func gitInit(c *cmd) {
	c.add(LocalWrite, "git init makes a repository")
	ops := c.operands()
	var dirs []shell.Word
	for i := 0; i < len(c.args); i++ {
		if v, next, ok := optValue(c.args, i, []string{"--separate-git-dir"}, nil); ok {
			dirs = append(dirs, v)
			if next {
				ops = removeWord(ops, v)
				i++
			}
		} else if w := c.args[i]; w.Literal && (w.Value == "-b" || w.Value == "--initial-branch" || w.Value == "--object-format" || w.Value == "--ref-format" || w.Value == "--template" || w.Value == "--shared") && i+1 < len(c.args) {
			ops = removeWord(ops, c.args[i+1])
			i++
		}
	}
	if len(ops) > 0 {
		dirs = append(dirs, ops[0])
	}
	if len(dirs) == 0 {
		c.cwdWrite()
	}
	for _, d := range dirs {
		c.writesUnder(d)
	}
}

// gitUpdateIndex: an entry added with --cacheinfo names a file the next
// checkout writes; the path counts as written now (git-update-index(1)).
func gitUpdateIndex(c *cmd) {
	c.add(LocalWrite, "git update-index changes the index")
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if !w.Literal || w.Value != "--cacheinfo" || i+1 >= len(c.args) {
			continue
		}
		if parts := strings.Split(c.args[i+1].Value, ","); len(parts) == 3 {
			c.path(OpWrite, lit(parts[2]))
			i++
			continue
		}
		if i+3 < len(c.args) {
			c.path(OpWrite, c.args[i+3])
			i += 3
		}
	}
	if c.has("--index-info") {
		c.unknownWrite("git update-index --index-info: the entries on its input")
	}
}

// gitGrep reads, unless -O/--open-files-in-pager names a program: git runs
// it through the shell on the files that match.
func gitGrep(c *cmd) {
	for _, w := range c.args {
		v := w.Value
		switch {
		case !w.Literal && strings.HasPrefix(w.Raw, "-"):
			c.add(Opaque, "git grep: an option built at run time may name a program to run: "+w.Raw)
			return
		case v == "--":
			c.add(Read, "git grep only reads the repository")
			return
		case strings.HasPrefix(v, "--"):
			name, _, hasVal := strings.Cut(v[2:], "=")
			if hasVal && len(name) >= 2 && strings.HasPrefix("open-files-in-pager", name) {
				c.add(Opaque, "git grep "+v+" runs a program on the files that match")
				return
			}
		case strings.HasPrefix(v, "-"):
			for i := 1; i < len(v); i++ {
				if strings.IndexByte("efABCm", v[i]) >= 0 {
					break // the rest is this option's value
				}
				if v[i] == 'O' && i+1 < len(v) {
					c.add(Opaque, "git grep "+v+" runs a program on the files that match")
					return
				}
			}
		}
	}
	c.add(Read, "git grep only reads the repository")
}
