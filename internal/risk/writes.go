package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// This file holds what every writer shares: reading the file an option
// names, and the files a step creates below a folder when their names
// cannot be known (an archive, a clone, a checkout).

// valueWord is the word an option's attached value stands for: cut is the
// text before the value ("--output=", "-o"). The value is literal when
// the whole word is; a tilde after "=" is not expanded by bash.
func valueWord(w shell.Word, cut string) shell.Word {
	v := shell.Word{Value: strings.TrimPrefix(w.Value, cut), Literal: w.Literal, Glob: w.Glob, Brace: w.Brace, Params: w.Params}
	switch raw := w.Raw; {
	case strings.HasPrefix(raw, cut):
		v.Raw = raw[len(cut):]
	case len(raw) > 0 && (raw[0] == '"' || raw[0] == '\'') && strings.HasPrefix(raw[1:], cut):
		// "--output=$HOME/x", quoted whole: the value keeps its quote
		v.Raw = raw[:1] + raw[1+len(cut):]
	default:
		v.Raw = v.Value
	}
	return v
}

// optValue reads the value of an option at args[i]: "NAME VALUE" (next
// is true: the value is the next word), "NAME=VALUE" for each long name,
// and "NAMEVALUE" for each short name given in attached. ok is false when
// args[i] is not one of the names.
func optValue(args []shell.Word, i int, names, attached []string) (val shell.Word, next, ok bool) {
	w := args[i]
	// A word's value starts with its literal text, quoted or not: a
	// "--output=$X" is the option, its value built at run time.
	v := w.Value
	for _, n := range names {
		if v == n && !w.Literal && strings.Trim(w.Raw, `"'`) != n {
			// "-o$DIR": the value is attached, and built at run time
			return valueWord(w, n), false, true
		}
		if v == n {
			if i+1 < len(args) {
				return args[i+1], true, true
			}
			return shell.Word{}, false, false
		}
		if strings.HasPrefix(v, n+"=") {
			return valueWord(w, n+"="), false, true
		}
	}
	for _, n := range attached {
		if len(v) > len(n) && strings.HasPrefix(v, n) {
			return valueWord(w, n), false, true
		}
	}
	return shell.Word{}, false, false
}

// outputs records, as written, the file each of the options names.
func (c *cmd) outputs(names, attached []string) {
	for i := 0; i < len(c.args); i++ {
		if v, next, ok := optValue(c.args, i, names, attached); ok {
			c.write(v)
			if next {
				i++
			}
		}
	}
}

// joinWord is the word for the file name in folder dir, as a copy into
// the folder would create it.
func joinWord(dir shell.Word, name string) shell.Word {
	return shell.Word{Raw: strings.TrimSuffix(dir.Raw, "/") + "/" + name, Value: strings.TrimSuffix(dir.Value, "/") + "/" + name,
		Literal: dir.Literal, Tilde: dir.Tilde, Glob: dir.Glob, Brace: dir.Brace}
}

// createsIn records the file that copying src into the folder dir creates,
// dir/basename(src). Whether dir is a folder cannot be known without the
// disk: a name with an extension (notes.md, AGENTS.md.bak) is taken for a
// file, anything else may be a folder.
func (c *cmd) createsIn(dir, src shell.Word) {
	if !c.mayBeFolder(dir) {
		return
	}
	if !src.Literal || src.Glob || src.Brace {
		c.writesUnder(dir)
		return
	}
	b := path.Base(src.Value)
	if b == "." || b == "/" || b == ".." {
		c.writesUnder(dir)
		return
	}
	c.path(OpWrite, joinWord(dir, b))
}

// writesUnder records files created below the folder w whose names cannot
// be known: the folder itself is held to scope and to the instruction and
// protected checks, and so is what may lie below it.
func (c *cmd) writesUnder(w shell.Word) {
	c.path(OpWrite, w)
	for _, p := range c.a.resolve(w) {
		c.plants(p, w.Raw)
	}
}

// writesUnderCwd records files created below the folder the segment runs
// in, with names that cannot be known.
func (c *cmd) writesUnderCwd() {
	c.cwdWrite()
	for _, d := range c.a.cwds {
		if d != "" {
			c.plants(d, ".")
		}
	}
}

// plants classifies files of unknown names created below the folder p.
// sayso's own files below it are protected; below the project's .git,
// hooks and configuration may be among them. Elsewhere inside the project the wall
// holds what lands there (the client's settings, instruction files and git
// hooks are not writable inside it), so unpacking or checking out in the
// project stays local work. Outside it, a folder holding the home's
// start-up files or an agent's settings may be planted with them.
func (c *cmd) plants(p, raw string) {
	for _, q := range c.a.ctx.Protected {
		if within(q, p) && q != p {
			c.add(Protected, TouchesProtected.By(c.name, "", raw))
			return
		}
	}
	for _, r := range append([]string{c.a.ctx.Root}, c.a.ctx.Roots...) {
		if r != "" && within(p, r+"/.git") {
			c.add(InstructionPatch, RunsLater.By(c.name, "", raw))
			return
		}
	}
	if c.a.ctx.InScope(p) {
		return
	}
	home := c.a.ctx.Home
	if home != "" && (within(home, p) || p == home+"/.config") {
		c.add(InstructionPatch, RunsLater.By(c.name, "", raw))
	}
}

// goOutputFlags are the go command's flags that name a file it writes
// (go help build, go help testflag); go takes -flag, --flag, and both
// with =value or the value as the next word.
var goOutputFlags = func() []string {
	var out []string
	for _, f := range []string{"o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir",
		"test.coverprofile", "test.cpuprofile", "test.memprofile", "test.blockprofile", "test.mutexprofile", "test.trace", "test.outputdir"} {
		out = append(out, "-"+f, "--"+f)
	}
	return out
}()

// mayBeFolder reports whether the target of a copy or move may be a
// folder: it ends in /, is a folder sayso knows, or has no extension.
func (c *cmd) mayBeFolder(w shell.Word) bool {
	v := strings.TrimSuffix(w.Value, "/")
	if strings.HasSuffix(w.Value, "/") || !w.Literal || v == "" {
		return true
	}
	for _, p := range c.a.resolve(w) {
		if c.a.folder(p, w.Value) || c.a.dirs[p] {
			return true
		}
	}
	b := path.Base(v)
	return strings.LastIndexByte(b, '.') <= 0
}

// lit is the literal word v.
func lit(v string) shell.Word { return shell.Word{Raw: v, Value: v, Literal: true} }

// makesDir remembers a folder the step makes: a copy into it creates
// folder/basename whatever the folder's name.
func (a *assessor) makesDir(w shell.Word) {
	for _, p := range a.resolve(w) {
		if a.dirs == nil {
			a.dirs = map[string]bool{}
		}
		a.dirs[p] = true
	}
}
