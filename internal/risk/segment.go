package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// cmd is one segment being classified.
type cmd struct {
	a    *assessor
	i    int
	seg  *shell.Segment
	name string       // program name without its folder
	args []shell.Word // the words after the name
}

func (c *cmd) add(cl Class, r Reason) { c.a.add(c.i, cl, r) }

// vals returns the values of the arguments, "" for those not literal.
func (c *cmd) vals() []string {
	out := make([]string, len(c.args))
	for i, w := range c.args {
		if w.Literal {
			out[i] = w.Value
		}
	}
	return out
}

// has reports whether any literal argument equals one of opts, or starts
// with it followed by "=" for long options.
func (c *cmd) has(opts ...string) bool {
	for _, w := range c.args {
		if w.Literal && matchOpt(w.Value, opts...) {
			return true
		}
	}
	return false
}

func matchOpt(v string, opts ...string) bool {
	for _, o := range opts {
		if v == o || strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"=") {
			return true
		}
	}
	return false
}

// shortFlag reports whether a short-option cluster (-rf, -fr) holds letter.
func (c *cmd) shortFlag(letter byte) bool {
	for _, w := range c.args {
		v := w.Value
		if w.Literal && len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v[1:], letter) >= 0 {
			return true
		}
	}
	return false
}

// operands returns the arguments that are not options, after a "--" all.
func (c *cmd) operands() []shell.Word {
	var out []shell.Word
	dash := false
	for _, w := range c.args {
		if !dash && w.Literal && w.Value == "--" {
			dash = true
			continue
		}
		if !dash && w.Literal && len(w.Value) > 1 && w.Value[0] == '-' {
			continue
		}
		out = append(out, w)
	}
	return out
}

// path records a path the segment reads, writes, deletes or runs, and
// classifies it: protected, secret, instruction files, devices.
func (c *cmd) path(op Op, w shell.Word) {
	if op == OpDelete {
		if c.a.deletes == nil {
			c.a.deletes = map[int]bool{}
		}
		c.a.deletes[c.i] = true
	}
	ps := c.a.resolve(w)
	if ps != nil && c.a.partial {
		// The values sayso knows are judged below; the rest is unknown.
		c.add(Opaque, PathPartlyUnknown.By("", op.String(), w.Raw))
	}
	if ps == nil {
		// A path that stays unknown is unknown to every check: it is not
		// in scope, not proven free of secrets, not proven clear of
		// sayso's files. Its text alone names nothing.
		c.a.out.Paths = append(c.a.out.Paths, PathUse{Op: op, Raw: w.Raw, Segment: c.i})
		if !(op == OpRead && strings.Contains(w.Value, "{}")) { // a file find hands over: find's own paths are judged
			c.add(Opaque, PathUnknown.By("", op.String(), w.Raw))
		}
		if op == OpRead && looksSecret(w.Raw) {
			c.add(Secret, ReadsCredential.By("", "", w.Raw))
		}
		return
	}
	for _, p := range ps {
		c.a.out.Paths = append(c.a.out.Paths, PathUse{Op: op, Path: p, Raw: w.Raw, Segment: c.i})
		if c.a.protected(p) || (w.Glob || strings.ContainsAny(p, "*?[")) && c.a.globReachesProtected(p) {
			c.add(Protected, PathProtected.By("", op.String(), w.Raw))
			continue
		}
		switch op {
		case OpRead, OpRun:
			if why := secretPath(p, c.a.ctx.Home); why != "" {
				c.add(Secret, Reason{Kind: PathCredential, Verb: "read", Object: w.Raw, What: why})
			}
		case OpWrite, OpDelete:
			if why := instructionPath(p, c.a.ctx.Home); why != "" {
				c.add(InstructionPatch, Reason{Kind: PathActsLater, Verb: op.String(), Object: w.Raw, What: why})
			}
			if why := devicePath(p); why != "" {
				c.add(Destructive, Reason{Kind: PathDevice, Verb: op.String(), Object: w.Raw, What: why})
			}
			if isSystemPath(p) && !tempPath(p) && !strings.HasPrefix(p, "/var/tmp") {
				c.add(Privilege, PathSystem.By("", op.String(), w.Raw))
				c.add(Destructive, PathSystem.By("", op.String(), w.Raw))
			}
			if strings.HasSuffix(p, "_history") {
				c.add(Destructive, PathHistory.By("", op.String(), w.Raw))
			}
			if strings.HasPrefix(p, c.a.ctx.Home+"/.ssh/") {
				c.add(Privilege, PathSSH.By("", op.String(), w.Raw))
			}
		}
	}
}

// read records each operand as a path the segment reads.
func (c *cmd) readOperands() {
	for _, w := range c.operands() {
		c.path(OpRead, w)
	}
}

// protected reports whether p is one of the context's protected paths or
// below one.
func (a *assessor) protected(p string) bool {
	for _, q := range a.ctx.Protected {
		// On a case-insensitive file system ~/.config/SAYSO is sayso's
		// own folder.
		if withinFold(p, q) {
			return true
		}
	}
	return false
}

// withinFold reports whether p is dir or below it, whatever the case of
// their letters.
func withinFold(p, dir string) bool {
	if dir == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return len(p) >= len(dir) && strings.EqualFold(p[:len(dir)], dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// globReachesProtected reports whether a glob pattern could match a
// protected path: a protected path lies below the pattern's fixed prefix.
func (a *assessor) globReachesProtected(p string) bool {
	fixed := p
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		fixed = p[:i]
		if j := strings.LastIndexByte(fixed, '/'); j >= 0 {
			fixed = fixed[:j]
		}
	}
	if fixed == "" {
		fixed = "/"
	}
	for _, q := range a.ctx.Protected {
		if within(q, fixed) {
			return true
		}
	}
	return false
}

// segment classifies segment i.
func (a *assessor) segment(i int) {
	seg := &a.script.Segments[i]
	c := &cmd{a: a, i: i, seg: seg, name: seg.Name()}
	if len(seg.Args) > 0 {
		c.args = seg.Args[1:]
	}
	for _, o := range seg.Opaque {
		c.add(Opaque, HidesWhatRuns.By("", "", o.Why))
	}
	for _, w := range seg.Wrappers {
		if asUser(w) {
			c.add(Privilege, RaisesPrivilege.By(w, "", ""))
		}
	}
	if seg.Chdir != nil {
		saved := a.cwds
		a.cwds = a.resolve(*seg.Chdir)
		if a.cwds == nil {
			a.cwds = []string{""}
		}
		defer func() { a.cwds = saved }()
	}
	c.assigns()
	c.redirects()
	if len(seg.Args) == 0 {
		if a.segClasses(i).Empty() {
			c.add(Read, SetsVariables.By("", "", ""))
		}
		return
	}
	c.params()
	for _, v := range seg.Via {
		if v == "function "+c.name {
			c.add(Opaque, Recurses.By(c.name, "", ""))
		}
	}
	if !seg.Args[0].Literal {
		return // opaque already: the command name is not a plain word
	}
	if seg.Args[0].Quoted || seg.Args[0].Escaped {
		c.add(Opaque, HidesProgram.By("", "", seg.Args[0].Raw))
	}
	if !c.program() {
		return
	}
	if strings.HasPrefix(c.name, "mkfs.") || strings.HasPrefix(c.name, "mke2fs") || strings.HasPrefix(c.name, "mkfs_") {
		c.name = "mkfs"
	}
	if spec, ok := gnuLongs[c.name]; ok {
		c.args = canonLongs(spec, c.args) // --in-pl is --in-place
	}
	c.optionFiles()
	c.known()
	c.recipes()
	c.workOpts()
	if a.is(i, roleFetch) {
		for _, r := range seg.Redirs {
			if r.Writes() && !quietDevice(r.Target) {
				c.savesDownload(r.Target)
			}
		}
	}
	if a.segClasses(i).Empty() {
		c.add(Read, OnlyReads.By(c.name, "", ""))
	}
	if seg.Inline {
		// The code it runs is classified in the segments that follow.
		return
	}
}

// workOpts records, for a segment that does a ceiling's work, what its
// options aim the program at instead of its working folder (the
// registry's WorkOpts and RepoOpts): a folder or file is a path it reads,
// another repository a folder sayso cannot know. A lease binds to neither.
func (c *cmd) workOpts() {
	p, ok := program.Lookup(c.name)
	if !ok || len(p.WorkOpts)+len(p.RepoOpts) == 0 || noCeiling(c.a.segClasses(c.i)) {
		return
	}
	for j := 0; j < len(c.args); j++ {
		w := c.args[j]
		if !w.Literal {
			continue
		}
		if w.Value == "--" {
			return
		}
		opt, val, repo, ok := program.WorkOpt(c.name, w.Value)
		if !ok {
			continue
		}
		v := shell.Word{Raw: val, Value: val, Literal: true, Tilde: strings.HasPrefix(val, "~")}
		if val == "" && w.Value == opt {
			if j+1 >= len(c.args) {
				return
			}
			j++
			v = c.args[j]
		}
		if repo {
			c.a.actsIn(c.i, "") // another repository: no folder of the step's
			continue
		}
		c.path(OpRead, v)
	}
}

// noCeiling reports whether s holds no ceiling.
func noCeiling(s Set) bool {
	for _, cl := range s.Classes() {
		if cl.Ceiling() {
			return false
		}
	}
	return true
}

// program checks the program's own path: one given by a path outside the
// project and the system's folders may be anything.
func (c *cmd) program() bool {
	v := c.seg.Args[0].Value
	if !strings.Contains(v, "/") {
		return true
	}
	// stop classifies a program sayso has no table for by its path: what
	// it is handed still counts (a key given to it can be read).
	stop := func(cl Class, r Reason) bool {
		c.add(cl, r)
		c.secretArgs(c.seg.Args[1:])
		return false
	}
	ps := c.a.resolve(c.seg.Args[0])
	if ps == nil {
		return stop(Opaque, PathUnknown.By("", "run", v))
	}
	if c.a.runsDownload(ps) {
		return stop(DownloadExec, FetchesCodeThatRuns.By("", "", v))
	}
	if c.a.runsMade(ps) {
		return stop(Opaque, RunsUnread.By("", "", v))
	}
	for _, p := range ps {
		dir := p[:strings.LastIndexByte(p, '/')+1]
		switch {
		case c.a.protected(p):
			return stop(Protected, PathProtected.By("", "run", v))
		case systemDir(dir, c.a.ctx.Home):
		case c.a.ctx.InScope(p):
			c.path(OpRun, c.seg.Args[0])
			if program.Known(c.name) {
				// The project's copy of a program sayso knows is that
				// program: ./node_modules/.bin/vercel deploy deploys.
				c.byBaseName(ProjectCopy.By(c.name, "", v), LocalWrite)
				c.secretArgs(c.seg.Args[1:])
				return false
			}
			c.projectScriptName(p)
			return stop(LocalWrite, RunsProject.By("", "", v))
		default:
			if program.Known(c.name) {
				c.byBaseName(RunsOutsideProject.By(c.name, "", v), Opaque)
				c.secretArgs(c.seg.Args[1:])
				return false
			}
			return stop(Opaque, RunsOutsideProject.By("", "", v))
		}
	}
	return true
}

func systemDir(dir, home string) bool {
	switch dir {
	case "/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/sbin/",
		"/opt/homebrew/bin/", "/usr/local/go/bin/", "/snap/bin/":
		return true
	}
	for _, d := range []string{"/go/bin/", "/.cargo/bin/", "/.local/bin/", "/.bun/bin/", "/.deno/bin/"} {
		if home != "" && dir == home+d {
			return true
		}
	}
	return false
}

// projectScriptName reads a deployment or release in the name of a script
// the project runs: running ./deploy.sh is deploying.
func (c *cmd) projectScriptName(p string) {
	base := strings.ToLower(p[strings.LastIndexByte(p, '/')+1:])
	c.namedTask(base)
}

// namedTask classifies a task by its name (a script, a make target, an npm
// script): deploy and release tasks are what their names say. The name is
// judged by whole words: a verb alone or leading (deploy, release:patch,
// publish-docs, ci:deploy) is that verb; the same word as a build mode or
// a noun (build:release, release-notes) is not.
func (c *cmd) namedTask(name string) {
	words := taskWords(name)
	for i, w := range words {
		var cl Class
		switch w {
		case "deploy", "deploys", "rollout", "provision", "ship", "promote":
			cl = Deploy
		case "publish", "release", "upload", "distribute":
			cl = Publish
		default:
			continue
		}
		if i > 0 && taskModeVerbs[words[i-1]] {
			continue // build:release, test-deploy: a mode of another verb
		}
		if i+1 < len(words) && taskNouns[words[i+1]] {
			continue // release-notes, deploy-check
		}
		c.add(cl, TaskNamed.By("", "", strings.ToLower(name)))
		return
	}
}

// taskWords splits a task name into lower-case words at punctuation and
// camelCase: "build:release" → build, release; "deployProd" → deploy, prod.
func taskWords(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			cur = append(cur, r)
			prevLower = true
		case r >= 'A' && r <= 'Z':
			if prevLower {
				flush()
			}
			cur = append(cur, r)
			prevLower = false
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return out
}

// taskModeVerbs make a following deploy or release word a mode of
// themselves; taskNouns make a preceding one a noun.
var (
	taskModeVerbs = map[string]bool{"build": true, "compile": true, "bundle": true, "test": true, "tests": true, "lint": true,
		"check": true, "run": true, "watch": true, "dev": true, "start": true, "serve": true, "preview": true, "pack": true,
		"package": true, "dist": true, "cmake": true, "configure": true, "make": true, "tsc": true, "webpack": true, "vite": true}
	taskNouns = map[string]bool{"notes": true, "note": true, "log": true, "logs": true, "changelog": true, "check": true,
		"checks": true, "lint": true, "test": true, "tests": true, "dry": true, "dryrun": true, "plan": true, "diff": true,
		"status": true, "info": true, "config": true, "prep": true, "prepare": true, "draft": true, "drafter": true,
		"build": true, "script": true, "scripts": true, "docs": false, "verify": true, "validate": true, "please": false}
)

// assigns classifies assignments that change what later programs do.
func (c *cmd) assigns() {
	for _, as := range c.seg.Assigns {
		name := as.Name
		if r := transportVar(name, as.Value.Value, as.Value.Literal); r.Kind != ReasonUnknown {
			c.add(Network, r)
		}
		switch {
		case name == "PATH":
			if !as.Value.Literal || !safePath(as.Value.Value, c.a.ctx.Home) {
				c.add(Opaque, SetsVariable.By("", "", name))
			}
		case strings.HasPrefix(name, "LD_") || strings.HasPrefix(name, "DYLD_") || name == "BASH_ENV" || name == "ENV" ||
			name == "PROMPT_COMMAND" || name == "SHELLOPTS" || name == "BASHOPTS" || name == "PS4" || name == "IFS" ||
			name == "PYTHONSTARTUP" || name == "PERL5OPT" || name == "RUBYOPT" || name == "PYTHONPATH" && !as.Value.Literal:
			c.add(Opaque, SetsVariable.By("", "", name))
		case gitProgramVar(name) && !(as.Value.Literal && harmlessProgram(as.Value.Value) && !strings.HasPrefix(name, "LESS")):
			c.add(Opaque, SetsVariable.By("", "", name))
		case name == "NODE_OPTIONS":
			if !as.Value.Literal || !plainNodeOptions(as.Value.Value) {
				c.add(Opaque, SetsVariable.By("", "", name))
			}
		case strings.HasPrefix(name, "GIT_CONFIG"):
			c.add(Opaque, SetsVariable.By("", "", name))
		case name == "PYTHONPATH" && as.Value.Literal:
			// Python imports from these folders before the project's
			// own: code outside the project runs as if it were the
			// project's.
			for _, d := range strings.Split(as.Value.Value, ":") {
				if d == "" {
					continue
				}
				ps := c.a.resolve(shell.Word{Raw: d, Value: d, Literal: true, Tilde: strings.HasPrefix(d, "~")})
				out := ps == nil
				for _, p := range ps {
					out = out || !c.a.ctx.InScope(p)
				}
				if out {
					c.add(Opaque, SetsVariable.By("", "", name))
					break
				}
			}
		case name == "HOME":
			// Programs read their settings from the home: git's
			// ~/.gitconfig (core.fsmonitor, a pager), npm's ~/.npmrc
			// (script-shell), a shell's rc files. Another home holds what
			// the agent wrote there.
			if !as.Value.Literal || as.Value.Value != c.a.ctx.Home || c.a.ctx.Home == "" {
				c.add(Opaque, SetsVariable.By("", "", name))
			}
		case name == "SAYSO_CONFIG_DIR" || name == "SAYSO_STATE_DIR":
			c.add(Protected, PointsSaysoElsewhere.By("", "", name))
		default:
			if cl, r := programVar(name, as.Value.Value, as.Value.Literal); r.Kind != ReasonUnknown {
				c.add(cl, r)
			}
		}
		if as.Value.Literal && (strings.Contains(as.Value.Value, "$(") || strings.Contains(as.Value.Value, "`")) {
			c.add(Opaque, StoresSubstitution.By("", "", ""))
		}
	}
}

func gitProgramVar(name string) bool {
	switch name {
	case "GIT_EXTERNAL_DIFF", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "PAGER", "GIT_EDITOR",
		"EDITOR", "VISUAL", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH",
		"GIT_TEMPLATE_DIR", "GIT_SEQUENCE_EDITOR", "GIT_DIFF_OPTS", "LESSOPEN", "LESSCLOSE", "MANPAGER",
		"SYSTEMD_PAGER", "BROWSER":
		return true
	}
	return false
}

// safePath reports whether a PATH value holds only absolute system folders
// (and $PATH itself kept at the end).
func safePath(v, home string) bool {
	for _, d := range strings.Split(v, ":") {
		if d == "" || d == "." || !strings.HasPrefix(d, "/") {
			return false
		}
		if !systemDir(strings.TrimSuffix(d, "/")+"/", home) {
			return false
		}
	}
	return true
}

// redirects classifies the files a segment's redirects open.
func (c *cmd) redirects() {
	for _, r := range c.seg.Redirs {
		if t := r.Target.Value; strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/") {
			if r.Writes() {
				c.add(Exfil, SendsData.By("", "", t))
			} else {
				c.add(Network, ReachesHost.By("opens", "", t))
			}
			continue
		}
		switch {
		case r.Writes():
			if r.Op == ">&" && r.Target.Literal && isFd(r.Target.Value) {
				continue
			}
			if quietDevice(r.Target) {
				continue
			}
			if !r.Target.Literal && c.a.resolve(r.Target) == nil {
				c.add(Opaque, BuiltAtRunTime.By("", "", r.Target.Raw))
			}
			c.add(LocalWrite, WritesPath.By("", "", r.Target.Raw))
			c.path(OpWrite, r.Target)
			c.makes(r.Target)
			c.writesHereText(r.Target)
		case r.Reads():
			if quietDevice(r.Target) {
				continue
			}
			c.path(OpRead, r.Target)
		}
	}
}

// writesHereText remembers the text cat writes to target from a here-doc
// whose body the step holds whole (no expansion in it): a script written
// so and run later in the step is code sayso reads, as inline code.
func (c *cmd) writesHereText(target shell.Word) {
	if c.name != "cat" || len(c.args) > 0 {
		return
	}
	var in *shell.Redirect
	for k := range c.seg.Redirs {
		if r := &c.seg.Redirs[k]; (r.Fd == "" || r.Fd == "0") && strings.HasPrefix(r.Op, "<") {
			in = r
		}
	}
	if in == nil || in.Op != "<<" && in.Op != "<<-" || !in.BodyLiteral && strings.ContainsAny(in.Body, "$`\\") {
		return
	}
	if c.a.madeText == nil {
		c.a.madeText = map[string]string{}
	}
	for _, p := range c.a.resolve(target) {
		c.a.madeText[p] = in.Body
	}
}

func isFd(s string) bool {
	if s == "-" {
		return true
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func quietDevice(w shell.Word) bool {
	if !w.Literal {
		return false
	}
	switch w.Value {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom":
		return true
	}
	return strings.HasPrefix(w.Value, "/dev/fd/")
}

// params classifies the variables the segment expands: printing one that
// holds a secret shows the secret.
func (c *cmd) params() {
	printer := printers[c.name]
	for _, w := range c.seg.Args {
		for _, p := range w.Params {
			if secretVar(p) && printer {
				c.add(Secret, TouchesCredential.By("prints", "", p))
			}
		}
	}
}

var printers = map[string]bool{
	"echo": true, "printf": true, "print": true, "cat": true, "tee": true, "logger": true,
	"xxd": true, "od": true, "base64": true, "printenv": true, "env": true,
}

// secretVar reports whether a variable's name says it holds a secret.
func secretVar(name string) bool { return place.SecretVar(name) }

// unknown classifies a program the registry does not list: sayso does
// not know what it does, so it is not taken for local work — unless the
// project declares it as its own command and it is run by its bare name:
// then it is the project's code, as ./scripts/x.sh is, local work that
// the wall contains, and its name still tells a deployment.
func (c *cmd) unknown() {
	if from, ok := c.a.ctx.Commands[c.name]; ok && !program.Known(c.name) && c.bare() {
		c.add(LocalWrite, ProjectCommand.By(c.name, "", from))
		c.namedTask(c.name)
		c.cwdWrite()
		c.secretArgs(c.args)
		return
	}
	c.add(Opaque, UnknownProgram.By(c.name, "", ""))
	c.secretArgs(c.args)
}

// bare reports whether the segment names its program by a plain word,
// looked up on PATH, not by a path.
func (c *cmd) bare() bool {
	w := c.seg.Args[0]
	return w.Literal && !w.Quoted && !w.Escaped && w.Value == c.name && !strings.Contains(w.Value, "/")
}

// secretArgs reads each argument that names a secret or protected path:
// a program given one can read it.
func (c *cmd) secretArgs(args []shell.Word) {
	for _, w := range args {
		if w.Literal && !strings.HasPrefix(w.Value, "-") {
			c.readIfSecret(w)
		}
	}
}

// readIfSecret records w as read when it names a secret or sayso's own
// files.
func (c *cmd) readIfSecret(w shell.Word) {
	for _, p := range c.a.resolve(w) {
		if secretPath(p, c.a.ctx.Home) != "" || c.a.protected(p) {
			c.path(OpRead, w)
			return
		}
	}
}

// recipeFiles are the files a build tool or script runner reads its
// commands from, in the folder it runs in.
var recipeFiles = map[string][]string{
	"make": {"Makefile", "makefile", "GNUmakefile"}, "gmake": {"Makefile", "makefile", "GNUmakefile"},
	"just": {"justfile", "Justfile", ".justfile"}, "task": {"Taskfile.yml", "Taskfile.yaml", "taskfile.yml"},
	"npm": {"package.json"}, "pnpm": {"package.json"}, "yarn": {"package.json"}, "bun": {"package.json"},
	"cargo": {"Cargo.toml", "build.rs"}, "rake": {"Rakefile"}, "gradle": {"build.gradle", "build.gradle.kts"},
	"mvn": {"pom.xml"}, "tox": {"tox.ini"}, "nox": {"noxfile.py"}, "pip": {"setup.py", "pyproject.toml"},
}

// recipes: a runner whose recipe file this step wrote runs commands sayso
// saw written but does not read.
func (c *cmd) recipes() {
	if c.a.unpacked && recipeFiles[c.name] != nil {
		c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, "", ""))
		return
	}
	for _, f := range recipeFiles[c.name] {
		if c.a.runsMade(c.a.resolve(shell.Word{Raw: f, Value: f, Literal: true})) {
			c.add(Opaque, RunsUnread.By(c.name, "", f))
			return
		}
	}
}

// fileOptions are the options whose value is a file a program reads, by
// program: the file is read as surely as an operand is.
var fileOptions = map[string][]string{
	"grep": {"-f", "--file", "--exclude-from"}, "egrep": {"-f", "--file", "--exclude-from"},
	"fgrep": {"-f", "--file", "--exclude-from"}, "zgrep": {"-f", "--file"},
	"sed": {"-f", "--file"}, "awk": {"-f", "--file"}, "gawk": {"-f", "--file"},
	"sort": {"--files0-from", "--random-source"}, "tar": {"-T", "--files-from", "-X", "--exclude-from"},
	"docker": {"--env-file", "--label-file"}, "podman": {"--env-file", "--label-file"}, "nerdctl": {"--env-file", "--label-file"},
}

// optionFiles records the files a program's options name for it to read.
func (c *cmd) optionFiles() {
	names := fileOptions[c.name]
	if len(names) == 0 {
		return
	}
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].Value
		if v == "--" {
			return
		}
		for _, n := range names {
			switch {
			case v == n && i+1 < len(c.args):
				c.path(OpRead, c.args[i+1])
			case strings.HasPrefix(n, "--") && strings.HasPrefix(v, n+"="):
				val := v[len(n)+1:]
				c.path(OpRead, shell.Word{Raw: val, Value: val, Literal: c.args[i].Literal, Tilde: strings.HasPrefix(val, "~")})
			case len(n) == 2 && len(v) > 2 && strings.HasPrefix(v, n) && !strings.HasPrefix(v, "--"):
				val := v[2:]
				c.path(OpRead, shell.Word{Raw: val, Value: val, Literal: c.args[i].Literal, Tilde: strings.HasPrefix(val, "~")})
			}
		}
	}
}
