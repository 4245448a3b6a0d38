package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// rsyncFamily copies, locally or to other hosts; a copy of the home is a
// secret leaving.
func rsyncFamily() family {
	return family{names: []string{"rsync"}, traits: program.Remote, classify: rsync, after: copiesHome}
}

// cpFamily copies files; a copy of the home is a secret leaving.
func cpFamily() family {
	return family{names: []string{"cp"}, classify: copyMove, after: copiesHome}
}

// del classifies deleting w: inside the project it is local work; the
// project itself, anything above or outside it, or a target that cannot be
// known is destructive.
func (c *cmd) del(w shell.Word, recursive bool) {
	c.path(OpDelete, w)
	ps := c.a.resolve(w)
	if ps == nil {
		c.add(Destructive, Reason{Kind: DeletesPath, Object: w.Raw, What: "a target that cannot be known before it runs"})
		return
	}
	if c.a.partial {
		// The values sayso knows are judged below; the rest may be
		// anything (f=a; read f; rm -rf "$f").
		c.add(Destructive, Reason{Kind: DeletesPath, Object: w.Raw, What: "which may hold a target that cannot be known before it runs"})
	}
	for _, p := range ps {
		c.delAt(p, w.Raw, w.Glob, recursive)
	}
}

// delAt judges deleting p, written as raw (a glob, or recursively), by
// where it lies: inside the
// project it is local work, save the project itself, everything in it or
// its history; below a temporary folder it is local work too, as the wall
// lets every step write there — unless the home or the project lies in
// what is deleted, or the whole temporary folder goes, with what other
// programs keep there. Anywhere else it is destructive.
func (c *cmd) delAt(p, raw string, glob, recursive bool) {
	clean := p
	if glob {
		clean = globDir(p)
	}
	everything := glob && strings.Trim(path.Base(p), "*.?[]!") == ""
	switch {
	case c.a.ctx.InScope(clean):
		switch {
		case !glob && isRoot(clean, &c.a.ctx):
			c.add(Destructive, Reason{Kind: DeletesPath, Object: raw, What: "the whole project"})
		case glob && isRoot(clean, &c.a.ctx) && everything:
			c.add(Destructive, Reason{Kind: DeletesPath, Object: raw, What: "everything in the project"})
		case within(clean, c.a.ctx.Root+"/.git") && recursive:
			c.add(Destructive, Reason{Kind: DeletesPath, Object: raw, What: "the project's history"})
		default:
			c.add(LocalWrite, Reason{Kind: DeletesPath, Object: raw, What: "inside the project"})
		}
	case (tempPath(clean) || tempDir(clean)) && c.a.ctx.Home != "" && within(clean, c.a.ctx.Home):
		c.add(Destructive, Reason{Kind: DeletesPath, Object: raw, What: "in the home, which lies in a temporary folder"})
	case (tempPath(clean) || tempDir(clean)) && c.a.holdsTheirs(clean):
		c.add(Destructive, Reason{Kind: DeletesPath, Object: raw, What: "which holds the home or the project"})
	case tempPath(clean) || tempDir(clean) && glob && !everything:
		c.add(LocalWrite, Reason{Kind: DeletesPath, Object: raw, What: "in a temporary folder"})
	case tempDir(clean):
		c.add(Destructive, Reason{Kind: DeletesPath, Object: raw, What: "everything in a temporary folder, with what other programs keep there"})
	default:
		c.add(Destructive, Reason{Kind: DeletesPath, Object: raw, What: "outside the project"})
	}
}

// holdsTheirs reports whether deleting p deletes the home or one of the
// project's roots (a home or a project kept under /tmp).
func (a *assessor) holdsTheirs(p string) bool {
	if within(a.ctx.Home, p) {
		return true
	}
	for _, r := range append([]string{a.ctx.Root}, a.ctx.Roots...) {
		if r != "" && within(r, p) {
			return true
		}
	}
	return false
}

// tempPath reports whether p lies below a temporary folder.
// (place.Temp, and /private/tmp, which macOS's /tmp leads to).
func tempPath(p string) bool {
	return place.InTemp(p) || strings.HasPrefix(p, "/private/tmp/")
}

// tempDir reports whether p is a temporary folder itself.
func tempDir(p string) bool {
	return place.IsTemp(p) || p == "/private/tmp"
}

func isRoot(p string, ctx *Context) bool {
	if p == ctx.Root {
		return true
	}
	for _, r := range ctx.Roots {
		if p == r {
			return true
		}
	}
	return false
}

// globDir is the folder a glob pattern's matches lie in.
func globDir(p string) string {
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		p = p[:i]
		if j := strings.LastIndexByte(p, '/'); j >= 0 {
			p = p[:j]
		}
	}
	if p == "" {
		return "/"
	}
	return p
}

// write classifies writing w.
func (c *cmd) write(w shell.Word) {
	c.add(LocalWrite, WritesPath.By(c.name, "", w.Raw))
	if !w.Literal && c.a.resolve(w) == nil {
		c.add(Opaque, BuiltAtRunTime.By(c.name, "", w.Raw))
	}
	c.path(OpWrite, w)
}

func rmFamily() family {
	return family{names: []string{"rm"}, classify: rm}
}

func rm(c *cmd) {
	recursive := c.has("--recursive", "-r", "-R") || c.shortFlag('r') || c.shortFlag('R')
	if c.has("--no-preserve-root") {
		c.add(Destructive, Destroys.By("rm", "--no-preserve-root", ""))
	}
	ops := c.operands()
	if c.seg.Many {
		c.add(Destructive, Destroys.By("rm", "", ""))
	} else if len(ops) == 0 {
		c.add(Read, ChangesNothing.By("rm", "", ""))
	}
	for _, w := range ops {
		c.del(w, recursive)
	}
}

func rmdirFamily() family {
	return family{names: []string{"rmdir"}, classify: rmdir}
}

func rmdir(c *cmd) {
	for _, w := range c.operands() {
		c.del(w, false)
	}
}

func unlinkFamily() family {
	return family{names: []string{"unlink"}, classify: unlink}
}

func unlink(c *cmd) { rmdir(c) }

func shredFamily() family {
	return family{names: []string{"shred", "srm", "wipe"}, classify: shred}
}

func shred(c *cmd) {
	c.add(Destructive, Destroys.By(c.name, "", ""))
	for _, w := range c.operands() {
		c.path(OpDelete, w)
	}
}

func writeOperandsFamily() family {
	return family{names: []string{"touch", "mkdir", "split"}, classify: writeOperands}
}

func writeOperands(c *cmd) {
	if c.name == "mkdir" {
		c.modeOption()
	}
	ops := c.operands()
	if len(ops) == 0 {
		c.add(LocalWrite, ChangesProject.By(c.name, "", ""))
		c.cwdWrite()
	}
	for _, w := range ops {
		c.write(w)
		if c.name == "mkdir" {
			c.a.makesDir(w)
		}
	}
}

func mktempFamily() family {
	return family{names: []string{"mktemp"}, classify: mktemp}
}

func mktemp(c *cmd) {
	c.add(LocalWrite, LocalWork.By("mktemp", "", ""))
	mktempWrites(c)
}

func truncateFamily() family {
	return family{names: []string{"truncate"}, classify: truncate}
}

func truncate(c *cmd) {
	ops := c.operands()
	vals := c.vals()
	for i, v := range vals {
		if (v == "-s" || v == "-r" || v == "--size" || v == "--reference") && i+1 < len(vals) {
			// the size is not a file
			for j := range ops {
				if ops[j].Raw == c.args[i+1].Raw {
					ops = append(ops[:j], ops[j+1:]...)
					break
				}
			}
		}
	}
	for _, w := range ops {
		c.write(w)
	}
}

func teeFamily() family {
	return family{names: []string{"tee"}, classify: tee}
}

func tee(c *cmd) {
	c.add(LocalWrite, ChangesProject.By("tee", "", ""))
	for _, w := range c.operands() {
		c.write(w)
		c.makes(w)
	}
}

func copyMoveFamily() family {
	return family{names: []string{"mv", "install"}, classify: copyMove}
}

// copyMove: the last operand (or -t DIR) is written; a move deletes its
// sources.
func copyMove(c *cmd) {
	ops := c.operands()
	var target *shell.Word
	for i, w := range c.args {
		if w.Literal && (w.Value == "-t" || w.Value == "--target-directory") && i+1 < len(c.args) {
			t := c.args[i+1]
			target = &t
			ops = removeWord(ops, t)
		} else if w.Literal && strings.HasPrefix(w.Value, "--target-directory=") {
			t := shell.Word{Raw: w.Value[len("--target-directory="):], Value: w.Value[len("--target-directory="):], Literal: true}
			target = &t
		}
	}
	if target == nil && len(ops) > 0 {
		t := ops[len(ops)-1]
		target = &t
		ops = ops[:len(ops)-1]
	}
	if target == nil {
		c.add(LocalWrite, ChangesNothing.By(c.name, "", ""))
		return
	}
	c.write(*target)
	c.makes(*target)
	for _, w := range ops {
		if w.Literal {
			c.makes(shell.Word{Raw: target.Raw + "/" + path.Base(w.Value), Value: target.Value + "/" + path.Base(w.Value), Literal: target.Literal})
		}
		c.createsIn(*target, w)
		if c.name == "mv" {
			c.del(w, true)
		} else {
			c.path(OpRead, w)
		}
	}
	if c.name == "install" {
		c.modeOption()
	}
}

// linkTarget is where the link at p points: its one literal target, read
// from the link's own folder when relative; "" when sayso cannot know.
func (c *cmd) linkTarget(ops []shell.Word, at string) string {
	if len(ops) > 2 || !ops[0].Literal || ops[0].Brace || ops[0].Glob {
		return ""
	}
	t := ops[0]
	if !t.Tilde && !path.IsAbs(t.Value) {
		return path.Join(path.Dir(at), t.Value)
	}
	ps := c.a.resolve(t)
	if len(ps) != 1 {
		return ""
	}
	return ps[0]
}

// folder reports whether p, written as raw, is surely a folder: the root,
// the home, the project, a folder the step runs in, or a name ending in /.
func (a *assessor) folder(p, raw string) bool {
	if strings.HasSuffix(raw, "/") || raw == "." || raw == ".." || raw == "~" || p == "/" || p == a.ctx.Home || p == a.ctx.Root {
		return true
	}
	for _, d := range a.cwds {
		if p == d {
			return true
		}
	}
	return false
}

func removeWord(ws []shell.Word, w shell.Word) []shell.Word {
	for i := range ws {
		if ws[i].Raw == w.Raw {
			return append(ws[:i:i], ws[i+1:]...)
		}
	}
	return ws
}

func linkFamily() family {
	return family{names: []string{"ln"}, classify: link}
}

func link(c *cmd) {
	ops := c.operands()
	if len(ops) == 0 {
		return
	}
	c.write(ops[len(ops)-1])
	c.makes(ops[len(ops)-1])
	if len(ops) == 1 {
		c.makes(shell.Word{Raw: path.Base(ops[0].Value), Value: path.Base(ops[0].Value), Literal: true})
	}
	if c.has("-s", "--symbolic") || c.shortFlag('s') {
		name := ops[len(ops)-1]
		if len(ops) == 1 {
			v := ops[0].Value
			name = shell.Word{Raw: path.Base(v), Value: path.Base(v), Literal: true}
		}
		for _, p := range c.a.resolve(name) {
			if len(ops) > 1 && c.a.folder(p, name.Value) {
				// ln -s TARGET DIR makes DIR/TARGET, not DIR.
				p = path.Join(p, path.Base(ops[0].Value))
			}
			c.a.links = append(c.a.links, symlink{at: p, to: c.linkTarget(ops, p)})
		}
	}
	if len(ops) == 1 {
		c.cwdWrite()
	}
	for _, w := range ops[:len(ops)-1] {
		// A link to sayso's own files lets a later write reach them.
		c.path(OpRead, w)
		if ps := c.a.resolve(w); ps != nil {
			for _, p := range ps {
				if c.a.protected(p) {
					c.add(Protected, TouchesProtected.By("links", "", ""))
				}
			}
		}
	}
}

func sedFamily() family {
	return family{names: []string{"sed"}, classify: sed}
}

func sed(c *cmd) {
	inPlace := false
	var script string
	scriptSeen := false
	var files []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case !w.Literal && !scriptSeen:
			c.add(Opaque, BuiltAtRunTime.By("sed", "script", ""))
			scriptSeen = true
		case v == "-i" || strings.HasPrefix(v, "-i") || v == "--in-place" || strings.HasPrefix(v, "--in-place=") || len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.Contains(v, "i") && !strings.ContainsAny(v, "ef"):
			inPlace = true
		case v == "-e" || v == "--expression" || v == "-f" || v == "--file":
			if i+1 < len(c.args) {
				i++
				if v == "-f" || v == "--file" {
					c.add(Opaque, RunsUnread.By("sed", "-f", ""))
				} else {
					script += "\n" + c.args[i].Value
				}
				scriptSeen = true
			}
		case strings.HasPrefix(v, "--file=") || len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.Contains(v, "f") && !strings.Contains(v[:strings.IndexByte(v, 'f')], "e"):
			// --file=x, -fx, -nf x: the script is read from a file
			c.add(Opaque, RunsUnread.By("sed", "-f", ""))
			if strings.HasSuffix(v, "f") && !strings.HasPrefix(v, "--") && i+1 < len(c.args) {
				i++
			}
			scriptSeen = true
		case strings.HasPrefix(v, "--expression="):
			script += "\n" + strings.TrimPrefix(v, "--expression=")
			scriptSeen = true
		case strings.HasPrefix(v, "-") && v != "-":
		case !scriptSeen:
			script, scriptSeen = v, true
		default:
			files = append(files, w)
		}
	}
	if !c.has("--sandbox") {
		c.sedScript(script)
	}
	c.add(Read, OnlyReads.By("sed", "", ""))
	c.readsOrRewrites(files, inPlace)
}

// readsOrRewrites records files as rewritten in place (sed -i, yq -i) or
// else as read.
func (c *cmd) readsOrRewrites(files []shell.Word, inPlace bool) {
	for _, f := range files {
		if inPlace {
			c.write(f)
		} else {
			c.path(OpRead, f)
		}
	}
}

func ddFamily() family {
	return family{names: []string{"dd"}, classify: dd}
}

func dd(c *cmd) {
	wrote := false
	for _, w := range c.args {
		v := w.Value
		switch {
		case strings.HasPrefix(v, "of="):
			t := shell.Word{Raw: v[3:], Value: v[3:], Literal: w.Literal, Tilde: strings.HasPrefix(v[3:], "~")}
			c.write(t)
			wrote = true
		case strings.HasPrefix(v, "if="):
			c.path(OpRead, shell.Word{Raw: v[3:], Value: v[3:], Literal: w.Literal, Tilde: strings.HasPrefix(v[3:], "~")})
		}
	}
	if !wrote {
		c.add(Read, TransformsText.By("dd", "", ""))
	}
}

func chmodFamily() family {
	return family{names: []string{"chmod"}, classify: chmod}
}

// chmod: setuid and setgid bits raise privilege; a mode change outside the
// project is not local work.
func chmod(c *cmd) {
	chmodModes(c)
	ops := c.operands()
	if len(ops) > 0 {
		ops = ops[1:]
	}
	recursive := c.has("-R", "--recursive")
	for _, w := range ops {
		c.write(w)
		if ps := c.a.resolve(w); ps != nil {
			for _, p := range ps {
				if !c.a.ctx.InScope(p) && (recursive || isSystemPath(p)) {
					c.add(Destructive, WritesOutsideScope.By("chmod", "", w.Raw))
				}
			}
		}
	}
}

func chmodModes(c *cmd) {
	for _, w := range c.args {
		v := w.Value
		if strings.HasPrefix(v, "-") && !strings.ContainsAny(v, "+=") {
			continue
		}
		if setuidMode(v) && !strings.Contains(v, "/") {
			c.add(Privilege, SetsSetuid.By(c.name, "", v))
		}
		break
	}
}

// modeOption classifies the mode given by -m or --mode (install, mkdir):
// a setuid or setgid mode raises privilege.
func (c *cmd) modeOption() {
	spec := optSpec{short: "m", long: []string{"mode=", "context", "parents", "verbose"}, abbrev: true}
	if c.name == "install" {
		spec = optSpec{short: "gmoSt", long: []string{"mode=", "group=", "owner=", "suffix=", "target-directory=", "backup", "compare", "directory", "preserve-timestamps", "strip", "strip-program=", "verbose", "context"}, abbrev: true}
	}
	o, _ := readOpts(c.args, spec)
	if m := o.value("-m", "--mode"); m != nil && (!m.Literal || setuidMode(m.Value)) {
		c.add(Privilege, SetsSetuid.By(c.name, "", m.Raw))
	}
}

func isOctal(s string) bool {
	for _, r := range s {
		if r < '0' || r > '7' {
			return false
		}
	}
	return s != ""
}

func isSystemPath(p string) bool {
	for _, d := range []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/boot", "/var", "/opt", "/System", "/Library"} {
		if within(p, d) {
			return true
		}
	}
	return p == "/"
}

func chownFamily() family {
	return family{names: []string{"chown", "chgrp"}, classify: chown}
}

func chown(c *cmd) {
	ops := c.operands()
	if len(ops) > 0 {
		ops = ops[1:]
	}
	for _, w := range ops {
		c.write(w)
		ps := c.a.resolve(w)
		if ps == nil {
			c.add(Privilege, RaisesPrivilege.By(c.name, "", ""))
		}
		for _, p := range ps {
			if !c.a.ctx.InScope(p) {
				c.add(Privilege, RaisesPrivilege.By(c.name, "", w.Raw))
			}
		}
	}
}

func findFamily() family {
	return family{names: []string{"find"}, classify: find}
}

// find: -delete deletes every match; -fprint and friends write files.
func find(c *cmd) {
	var roots []shell.Word
	filtered := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case v == "-delete":
			// judged below, with its roots and filters
		case v == "-fprint" || v == "-fprint0" || v == "-fprintf" || v == "-fls":
			if i+1 < len(c.args) {
				c.write(c.args[i+1])
				i++
			}
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			// the command runs as its own segment, on every file found:
			// under the home, its keys too
			defer func() { c.readsUnder(roots) }()
		case v == "-name" || v == "-iname" || v == "-path" || v == "-ipath" || v == "-regex" || v == "-iregex" || v == "-type" || v == "-newer" || v == "-mtime" || v == "-size" || v == "-wholename":
			filtered = true
			if i+1 < len(c.args) {
				if v == "-name" || v == "-iname" || v == "-path" || v == "-ipath" || v == "-wholename" || v == "-regex" || v == "-iregex" {
					if n := c.args[i+1].Value; strings.Contains(n, ".env") || strings.Contains(n, "id_rsa") || strings.Contains(n, ".pem") || strings.Contains(n, "credentials") || secretPattern(n) {
						c.a.findSecret = true
					}
				}
				i++
			}
		case strings.HasPrefix(v, "-"):
			if i+1 < len(c.args) && findTakesArg(v) {
				i++
			}
		case len(roots) == i:
			roots = append(roots, w)
		}
	}
	if len(roots) == 0 {
		roots = []shell.Word{{Raw: ".", Value: ".", Literal: true}}
	}
	if c.has("-delete") {
		for _, r := range roots {
			ps := c.a.resolve(r)
			inScope := ps != nil
			for _, p := range ps {
				inScope = inScope && c.a.ctx.InScope(p)
			}
			if !filtered || !inScope {
				c.add(Count, EachInput.By("find", "-delete", ""))
			} else if !within(ps[0], c.a.ctx.Root+"/.git") {
				c.add(LocalWrite, Reason{Kind: DeletesPath, Object: r.Raw, What: "what find picks there, in the project"})
				c.path(OpDelete, r)
				continue
			}
			if !filtered {
				c.del(r, true)
				if ps != nil && c.a.ctx.InScope(ps[0]) {
					c.add(Destructive, Destroys.By("find", "-delete", r.Raw))
				}
				continue
			}
			c.del(r, true)
		}
		return
	}
	c.add(Read, OnlyReads.By("find", "", ""))
	for _, r := range roots {
		c.path(OpRead, r)
	}
}

func findTakesArg(v string) bool {
	switch v {
	case "-maxdepth", "-mindepth", "-user", "-group", "-perm", "-printf", "-fstype", "-inum", "-links",
		"-amin", "-atime", "-cmin", "-ctime", "-mmin", "-samefile", "-uid", "-gid", "-used", "-lname", "-ilname", "-context", "-newermt":
		return true
	}
	return false
}

// unpacks remembers an archive extracted from a download (piped from
// curl, or a file this step downloaded): what it unpacks has names sayso
// cannot know, so any program the step then runs by its path may be one.
func (c *cmd) unpacks() {
	if c.a.fetchedBefore(c.i) {
		c.a.unpacked = true
		return
	}
	for _, w := range c.args {
		if w.Literal && c.a.runsDownload(c.a.resolve(w)) {
			c.a.unpacked = true
			return
		}
	}
}

func uniqFamily() family {
	return family{names: []string{"uniq"}, classify: uniq}
}

// uniq writes its second operand.
func uniq(c *cmd) {
	ops := c.operands()
	c.add(Read, TransformsText.By("uniq", "", ""))
	if len(ops) > 0 {
		c.path(OpRead, ops[0])
	}
	if len(ops) > 1 {
		c.write(ops[1])
	}
}

func sortCmdFamily() family {
	return family{names: []string{"sort"}, classify: sortCmd}
}

func sortCmd(c *cmd) {
	c.add(Read, TransformsText.By("sort", "", ""))
	for i, w := range c.args {
		if (w.Value == "-o" || w.Value == "--output") && i+1 < len(c.args) {
			c.write(c.args[i+1])
		} else if strings.HasPrefix(w.Value, "--output=") {
			c.write(shell.Word{Raw: w.Value[9:], Value: w.Value[9:], Literal: w.Literal})
		} else if strings.HasPrefix(w.Value, "--compress-program") {
			c.add(Opaque, RunsUnread.By("sort", "", ""))
		}
	}
}

func base64CmdFamily() family {
	return family{names: []string{"base64"}, classify: base64Cmd}
}

func base64Cmd(c *cmd) {
	if c.has("-d", "--decode", "-D") {
		c.a.mark(c.i, roleDecode)
	}
	c.add(Read, TransformsText.By("base64", "", ""))
	for i, w := range c.args {
		if (w.Value == "-o" || w.Value == "--output") && i+1 < len(c.args) {
			c.write(c.args[i+1])
		}
	}
	for _, w := range c.operands() {
		c.path(OpRead, w)
	}
}

func mkfsFamily() family {
	return family{names: []string{"mkfs", "fdisk", "sfdisk", "parted", "wipefs", "mkswap", "blkdiscard"}, classify: mkfs}
}

func mkfs(c *cmd) {
	if c.has("-l", "--list") && c.name != "mkfs" {
		c.add(Read, OnlyReads.By(c.name, "", ""))
		return
	}
	c.add(Destructive, Reason{Kind: PathDevice, Program: c.name, Verb: "write", What: "a disk"})
}

// kill: signalling every process (-1) is destructive; one process is local
// work.
func kill(c *cmd) {
	for _, w := range c.operands() {
		if w.Value == "-1" || w.Value == "1" {
			c.add(Destructive, SignalsEveryProcess.By("kill", "", ""))
		}
	}
	for _, w := range c.args {
		if w.Value == "-1" && len(c.operands()) == 0 {
			c.add(Destructive, SignalsEveryProcess.By("kill", "", ""))
		}
	}
	c.add(LocalWrite, SignalsProcess.By("kill", "", ""))
}

func killFamily() family {
	return family{names: []string{"kill"}, classify: kill}
}

func killallFamily() family {
	return family{names: []string{"killall", "pkill"}, classify: killall}
}

func killall(c *cmd) {
	for _, w := range c.operands() {
		if strings.Contains(w.Value, "sayso") {
			c.add(Protected, TouchesProtected.By(c.name, "", ""))
		}
	}
	c.add(LocalWrite, SignalsProcess.By(c.name, "", ""))
}

func rsync(c *cmd) {
	for _, w := range c.args {
		v := w.Value
		if v == "-e" || strings.HasPrefix(v, "--rsh") || strings.HasPrefix(v, "--rsync-path") {
			c.add(Opaque, RunsOptionProgram.By("rsync", "", v))
		}
	}
	ops := c.operands()
	if len(ops) < 2 {
		c.add(Read, OnlyReads.By("rsync", "", ""))
		return
	}
	if c.sendsToHost("rsync", ops, false) {
		return
	}
	dst := ops[len(ops)-1]
	for _, w := range ops[:len(ops)-1] {
		if remoteSpec(w.Value) {
			c.add(Network, ReachesHost.By("rsync", "", w.Raw))
		} else {
			c.path(OpRead, w)
		}
	}
	if c.has("--delete", "--delete-before", "--delete-after", "--delete-during", "--delete-delay", "--delete-excluded", "--del") {
		c.del(dst, true)
	}
	c.write(dst)
	rsyncCreates(c, ops[:len(ops)-1], dst)
}

// sendsToHost classifies a copy by prog (scp, rsync) whose destination,
// the last of ops, is another host: it sends the sources there, each read
// (with localOnly, each that is not itself on another host). It reports
// whether the destination is another host.
func (c *cmd) sendsToHost(prog string, ops []shell.Word, localOnly bool) bool {
	dst := ops[len(ops)-1]
	if !remoteSpec(dst.Value) {
		return false
	}
	c.add(Exfil, SendsData.By(prog, "", dst.Raw))
	for _, w := range ops[:len(ops)-1] {
		if !localOnly || !remoteSpec(w.Value) {
			c.path(OpRead, w)
		}
	}
	return true
}

// remoteSpec reports whether an scp/rsync operand names another host:
// host:path, user@host:path or rsync://.
func remoteSpec(v string) bool {
	if strings.Contains(v, "://") {
		return true
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return false
	}
	return !strings.Contains(v[:i], "/")
}
