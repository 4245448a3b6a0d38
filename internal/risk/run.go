package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// runScript classifies running the script file w: the project's own code
// is local work that sayso cannot see inside; code from anywhere else is
// opaque.
func (c *cmd) runScript(w shell.Word) {
	ps := c.a.resolve(w)
	if ps == nil {
		c.add(Opaque, c.name+" runs a script whose path is built at run time: "+w.Raw)
		return
	}
	c.path(OpRun, w)
	if c.a.runsDownload(ps) {
		c.add(DownloadExec, c.name+" runs "+w.Raw+", which this step downloads")
	}
	if c.a.runsMade(ps) {
		c.add(Opaque, c.name+" runs "+w.Raw+", which this step writes, copies or links: sayso does not read it")
	}
	for _, p := range ps {
		if !c.a.ctx.InScope(p) || strings.HasPrefix(p, "/tmp/") && !c.a.ctx.InScope(p) {
			c.add(Opaque, c.name+" runs code from outside the project: "+w.Raw)
			return
		}
		c.namedTask(path.Base(p))
	}
	c.add(LocalWrite, c.name+" runs the project's own code: "+w.Raw)
	c.cwdWrite()
}

// interpreter: inline code is opaque; a script of the project is local
// work; code on stdin is checked with the pipeline.
func interpreter(c *cmd) {
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if !w.Literal {
			c.a.mark(c.i, roleCode)
			return
		}
		switch {
		case v == "--version" || v == "-V" || v == "--help" || v == "-h" || v == "-v":
			c.add(Read, c.name+" prints its version")
			return
		case (v == "-c" || v == "--check") && (c.name == "node" || c.name == "nodejs" || c.name == "ruby") ||
			v == "-c" && c.name == "perl" || v == "--test" && (c.name == "node" || c.name == "nodejs"):
			c.syntaxCheck(v, c.args[i+1:])
			return
		case inlineCodeOpt(c.name, v) && strings.HasPrefix(c.name, "python") && v == "-c" && i+1 < len(c.args) && c.args[i+1].Literal && importsAndPrints(c.args[i+1].Value):
			c.add(LocalWrite, c.name+" -c only imports modules and prints names")
			return
		case inlineCodeOpt(c.name, v):
			c.add(Opaque, c.name+" "+v+" runs inline code sayso cannot read")
			return
		case v == "-m" && i+1 < len(c.args):
			module(c, c.args[i+1].Value, c.args[i+2:])
			return
		case strings.HasPrefix(v, "-m") && len(v) > 2 && strings.HasPrefix(c.name, "py"):
			module(c, v[2:], c.args[i+1:])
			return
		case v == "-":
			c.a.mark(c.i, roleCode)
			return
		case strings.HasPrefix(v, "-"):
			if (v == "-W" || v == "-X" || v == "-I" || v == "-r" || v == "--require" || v == "--import" || v == "--loader") && i+1 < len(c.args) {
				if c.name == "node" && (v == "-r" || v == "--require" || v == "--import" || v == "--loader") {
					c.runScriptIfPath(c.args[i+1])
				}
				i++
			}
		default:
			c.runScript(w)
			c.secretArgs(c.args[i+1:])
			return
		}
	}
	c.a.mark(c.i, roleCode)
}

func (c *cmd) runScriptIfPath(w shell.Word) {
	if strings.HasPrefix(w.Value, ".") || strings.HasPrefix(w.Value, "/") {
		c.runScript(w)
	}
}

func inlineCodeOpt(name, v string) bool {
	switch v {
	case "-c", "-e", "-E", "--eval", "-p", "--print", "-r", "-x", "-pe", "-ne", "-le", "-lne", "-lpe", "-pie", "-i", "-Mr", "-Command", "-command", "-EncodedCommand", "-enc":
		if v == "-r" && name != "php" || v == "-i" && name != "perl" || v == "-x" && name != "ruby" || v == "-p" && name != "node" && name != "perl" && name != "ruby" {
			return false
		}
		return true
	}
	if (name == "perl" || name == "ruby") && len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v, "eE") {
		return true
	}
	return name == "python" && strings.HasPrefix(v, "-c") || strings.HasPrefix(name, "python") && strings.HasPrefix(v, "-c")
}

// module classifies python -m MODULE.
func module(c *cmd, m string, rest []shell.Word) {
	switch m {
	case "pip":
		pip(&cmd{a: c.a, i: c.i, seg: c.seg, name: "pip", args: rest})
	case "json.tool":
		jsonTool(c, rest)
	case "zipfile", "tarfile", "venv":
		pyModuleWrites(c, m, rest)
	case "timeit", "cProfile", "profile", "trace", "pdb", "doctest", "code", "runpy":
		c.add(Opaque, c.name+" -m "+m+" runs the code it is given")
	case "site", "platform", "sysconfig", "this", "pydoc", "tabnanny", "py_compile", "compileall", "dis", "tokenize", "ast":
		c.add(Read, c.name+" -m "+m)
	case "http.server", "SimpleHTTPServer":
		if c.bindsLocally(rest) {
			c.add(LocalWrite, c.name+" -m "+m+" serves the folder to this machine only")
			return
		}
		c.add(Network, c.name+" -m "+m+" serves the folder to the network")
	case "twine":
		twine(&cmd{a: c.a, i: c.i, seg: c.seg, name: "twine", args: rest})
	default:
		c.add(LocalWrite, c.name+" -m "+m+" runs a module of the project or its tools")
		c.cwdWrite()
	}
}

func deno(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "eval":
		c.add(Opaque, "deno eval runs inline code")
	case "deploy":
		c.add(Deploy, "deno deploy")
	case "publish":
		c.add(Publish, "deno publish")
	case "run", "test", "bench", "compile", "serve", "task", "install", "fmt", "lint", "check", "cache", "add", "info", "doc", "":
		for _, w := range c.operands() {
			if strings.Contains(w.Value, "://") {
				c.add(DownloadExec, "deno runs code from "+w.Raw)
				return
			}
		}
		c.add(LocalWrite, "deno "+ws[0])
		c.cwdWrite()
	default:
		c.runScript(c.operands()[0])
	}
}

func bun(c *cmd) {
	ws := c.words(1)
	switch v := ws[0]; {
	case c.has("-e", "--eval", "-p", "--print"):
		c.add(Opaque, "bun runs inline code")
	case v == "publish":
		c.add(Publish, "bun publish")
	case v == "run" || v == "x":
		c.add(LocalWrite, "bun "+v)
		c.namedTask(c.words(2)[1])
		c.cwdWrite()
	case strings.Contains(v, ".") || strings.Contains(v, "/"):
		c.runScript(c.operands()[0])
	default:
		c.add(LocalWrite, "bun "+v)
		c.namedTask(v)
		c.cwdWrite()
	}
}

// shellProgram is a shell whose -c string or here-doc, if it had one, is
// classified in the segments after it.
func shellProgram(c *cmd) {
	if c.seg.Inline {
		c.add(Read, c.name+" runs the code read after it")
		return
	}
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if !w.Literal {
			c.a.mark(c.i, roleCode)
			return
		}
		switch {
		case v == "--version" || v == "--help":
			c.add(Read, c.name+" prints its version")
			return
		case v == "-s" || v == "-" || v == "--":
			c.a.mark(c.i, roleCode)
			return
		case (v == "-o" || v == "-O" || v == "+o" || v == "+O") && i+1 < len(c.args):
			i++
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			if strings.Contains(v, "c") && v[0] == '-' && !strings.HasPrefix(v, "--") {
				return // -c without a readable string: opaque already
			}
		default:
			c.runScript(w)
			c.secretArgs(c.args[i+1:])
			return
		}
	}
	c.a.mark(c.i, roleCode)
}

func source(c *cmd) {
	ops := c.args
	if len(ops) == 0 {
		c.add(Read, c.name+" with no file")
		return
	}
	w := ops[0]
	if !w.Literal {
		c.a.mark(c.i, roleCode)
		c.add(Opaque, c.name+" runs code built at run time: "+w.Raw)
		return
	}
	if ps := c.a.resolve(w); ps != nil {
		for _, p := range ps {
			if instructionPath(p, c.a.ctx.Home) == "shell start-up files" {
				c.add(LocalWrite, c.name+" re-reads the person's shell start-up file")
				return
			}
			if secretPath(p, c.a.ctx.Home) != "" {
				c.path(OpRead, w)
				return
			}
		}
	}
	c.runScript(w)
}

func evalCmd(c *cmd) {
	if c.seg.Inline {
		c.add(Read, "eval runs the code read after it")
	}
}

func trapCmd(c *cmd) {
	c.add(Read, "trap sets a handler; its code is read after it")
}

func alias(c *cmd) {
	for _, w := range c.args {
		if name, value, ok := strings.Cut(w.Value, "="); ok && w.Literal {
			c.aliasValue(name, value) // it runs its value wherever its name is used
			continue
		}
		if strings.Contains(w.Value, "=") || !w.Literal {
			c.add(Opaque, "alias changes what a later command word runs")
			return
		}
	}
	c.add(Read, "alias lists or defines aliases a script does not expand")
}

func hashCmd(c *cmd) {
	if c.has("-p") {
		c.add(Opaque, "hash -p maps a command name to another program")
		return
	}
	c.add(Read, "hash")
}

func enableCmd(c *cmd) {
	if c.has("-f") {
		c.add(Opaque, "enable -f loads a builtin from a shared library")
		return
	}
	c.add(Read, "enable")
}

func execCmd(c *cmd) { c.add(Read, "exec only changes descriptors") }

// cd changes the folder the following segments may run in. sayso keeps
// every folder a segment may run in, since subshells and branches make the
// real one unknowable without running the step.
func cd(c *cmd) {
	c.add(Read, c.name+" changes the working folder")
	ops := c.operands()
	var target shell.Word
	switch {
	case len(ops) == 0:
		target = shell.Word{Raw: "~", Value: "~", Literal: true, Tilde: true}
	case ops[0].Value == "-" && ops[0].Literal:
		c.a.cwds = append(c.a.cwds, "")
		return
	default:
		target = ops[0]
	}
	if _, set := c.a.env["CDPATH"]; set && !strings.HasPrefix(target.Raw, ".") && !strings.HasPrefix(target.Raw, "/") && !target.Tilde {
		// cd looks a name up in CDPATH first: where it lands is not known.
		c.add(Opaque, c.name+" looks "+target.Raw+" up in the CDPATH this step sets")
		c.a.cwds = append(c.a.cwds, "")
		return
	}
	ps := c.a.resolve(target)
	if ps == nil {
		c.a.cwds = append(c.a.cwds, "")
		return
	}
	for _, p := range ps {
		if !containsString(c.a.cwds, p) {
			c.a.cwds = append(c.a.cwds, p)
		}
	}
	if len(c.a.cwds) > maxFolders {
		// Too many folders to follow: where the next segment runs is unknown.
		c.a.cwds = []string{""}
	}
}

// maxFolders bounds the folders a step's segments may run in that sayso
// follows; past it, the folder is unknown, and relative paths with it.
const maxFolders = 16

func popd(c *cmd) {
	c.add(Read, "popd changes the working folder")
	c.a.cwds = append(c.a.cwds, "")
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func makeCmd(c *cmd) {
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case v == "-f" || v == "--file" || v == "--makefile":
			if i+1 < len(c.args) {
				i++
				c.runScript(c.args[i])
			}
		case strings.HasPrefix(v, "--eval"):
			c.add(Opaque, "make --eval runs text as a makefile")
		case v == "-C" || v == "--directory":
			if i+1 < len(c.args) {
				i++
				c.write(c.args[i])
			}
		case strings.HasPrefix(v, "SHELL=") || strings.HasPrefix(v, ".SHELLFLAGS="):
			c.add(Opaque, "make runs its recipes through another shell: "+v)
		case strings.HasPrefix(v, "-"):
		case strings.Contains(v, "="):
		default:
			c.namedTask(v)
		}
	}
	c.add(LocalWrite, c.name+" runs the project's build")
	c.cwdWrite()
}

func runner(c *cmd) {
	for _, w := range c.operands() {
		c.namedTask(w.Value)
	}
	c.add(LocalWrite, c.name+" runs the project's tasks")
	c.cwdWrite()
}

func npm(c *cmd) {
	ws := c.words(3)
	v := ws[0]
	if c.name == "yarn" && v == "npm" {
		v = ws[1]
	}
	n := c.name + " " + v
	switch v {
	case "publish", "unpublish", "deprecate", "dist-tag", "owner", "access", "team":
		if c.has("--dry-run") {
			c.add(Read, n+" --dry-run")
			return
		}
		if v == "dist-tag" && (ws[1] == "ls" || ws[1] == "list") || v == "owner" && (ws[1] == "ls" || ws[1] == "list") || v == "access" && strings.HasPrefix(ws[1], "list") {
			c.add(Read, n+" "+ws[1])
			return
		}
		c.add(Publish, n+" publishes to the registry")
	case "login", "adduser", "add-user", "token", "logout":
		c.add(Secret, n+" handles registry credentials")
	case "ls", "list", "view", "info", "show", "outdated", "why", "explain", "search", "help", "doctor", "whoami", "ping",
		"prefix", "root", "bin", "fund", "licenses", "docs", "repo", "bugs", "query", "-v", "--version", "-h", "--help":
		c.add(Read, n+" reads")
	case "config", "get", "set":
		if v == "set" || ws[1] == "set" || ws[1] == "delete" || ws[1] == "edit" {
			c.add(LocalWrite, n+" changes settings")
			return
		}
		c.add(Read, n)
	case "audit":
		if ws[1] == "fix" {
			c.add(LocalWrite, n+" fix")
			c.cwdWrite()
			return
		}
		c.add(Read, n)
	case "exec", "x", "dlx", "create", "init":
		c.add(LocalWrite, n+" runs a package's program")
		c.cwdWrite()
		c.remotePackages()
		if ops := c.operands(); len(ops) > 1 && (ops[0].Value == "dlx" || ops[0].Value == "x" || ops[0].Value == "exec") {
			name := ops[1].Value
			if at := strings.LastIndexByte(name, '@'); at > 0 {
				name = name[:at]
			}
			c.notTheProjects(name)
		}
	case "install", "i", "ci", "add", "update", "up", "upgrade", "uninstall", "remove", "rm", "un", "dedupe", "prune",
		"rebuild", "link", "unlink", "pack", "version", "", "import", "patch", "patch-commit", "store", "cache", "fetch", "install-test", "it":
		c.add(LocalWrite, n+" changes the project's packages")
		c.cwdWrite()
		c.remotePackages()
	case "run", "run-script", "rum", "urn":
		c.add(LocalWrite, n+" runs a script of the project")
		c.namedTask(ws[1])
		c.cwdWrite()
	case "test", "t", "tst", "start", "stop", "restart", "build", "dev", "lint", "format", "serve", "watch", "typecheck", "check":
		c.add(LocalWrite, n+" runs a script of the project")
		c.cwdWrite()
	default:
		// pnpm and yarn run a script given by name.
		c.add(LocalWrite, n+" runs a script of the project")
		c.namedTask(v)
		c.cwdWrite()
	}
}

// remotePackages: installing from a URL or a git repository runs code
// fetched from it (install scripts).
func (c *cmd) remotePackages() {
	for _, w := range c.operands() {
		c.remotePackage(w.Value)
	}
}

// npx runs a package's program: one sayso knows is classified as itself.
func npx(c *cmd) {
	c.add(LocalWrite, c.name+" runs a package's program, which it may download")
	c.cwdWrite()
	for i, w := range c.args {
		v := w.Value
		if strings.HasPrefix(v, "--package=") || v == "-p" || v == "--package" {
			if v == "-p" || v == "--package" {
				if i+1 < len(c.args) {
					v = c.args[i+1].Value
				}
			}
			c.remotePackage(strings.TrimPrefix(v, "--package="))
			continue
		}
		if strings.HasPrefix(v, "-") {
			continue
		}
		c.remotePackage(v)
		name := v
		if at := strings.LastIndexByte(name, '@'); at > 0 {
			name = name[:at]
		}
		c.notTheProjects(name)
		name = name[strings.LastIndexByte(name, '/')+1:]
		inner := &cmd{a: c.a, i: c.i, seg: c.seg, name: name, args: c.args[i+1:]}
		if fn, ok := programs[name]; ok && name != c.name {
			fn(inner)
		} else if cl, ok := simplePrograms[name]; ok {
			inner.simple(cl)
		}
		return
	}
}

// notTheProjects: a package runner of a package the project does not
// depend on downloads it from the registry and runs it.
func (c *cmd) notTheProjects(pkg string) {
	known := c.a.ctx.Packages
	if known == nil || pkg == "" || strings.Contains(pkg, ":") {
		return
	}
	if c.name == "uvx" {
		pkg = strings.ToLower(pkg) // PyPI names are case-insensitive
	}
	bin := pkg[strings.LastIndexByte(pkg, '/')+1:]
	if !known[pkg] && !known[bin] {
		c.add(DownloadExec, c.name+" downloads "+pkg+", which the project does not depend on, and runs it")
	}
}

// remotePackage: a package given as a URL or a repository runs code
// fetched from it.
func (c *cmd) remotePackage(v string) {
	if strings.HasPrefix(v, "git+") || strings.HasPrefix(v, "git:") || strings.HasPrefix(v, "github:") || strings.HasPrefix(v, "gitlab:") ||
		strings.HasPrefix(v, "bitbucket:") || strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
		c.add(DownloadExec, c.name+" installs and runs code from "+v)
	}
}

func pip(c *cmd) {
	v := c.words(1)[0]
	switch v {
	case "install", "download", "uninstall", "wheel":
		c.add(LocalWrite, c.name+" "+v+" changes installed packages")
		c.remotePackages()
		for i, w := range c.args {
			if (w.Value == "-e" || w.Value == "--editable") && i+1 < len(c.args) {
				c.args[i+1].Value = strings.TrimSpace(c.args[i+1].Value)
			}
			if w.Value == "--index-url" || w.Value == "-i" || w.Value == "--extra-index-url" {
				c.add(Network, c.name+" installs from another index")
			}
		}
		c.cwdWrite()
	case "list", "show", "freeze", "check", "search", "help", "index", "inspect", "debug", "hash", "--version", "-V", "":
		c.add(Read, c.name+" "+v)
	case "config", "cache":
		c.add(LocalWrite, c.name+" "+v)
	default:
		c.add(LocalWrite, c.name+" "+v)
	}
}

func uv(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "pip":
		pip(&cmd{a: c.a, i: c.i, seg: c.seg, name: "uv pip", args: c.args[1:]})
	case "publish":
		c.add(Publish, "uv publish")
	case "tool":
		if ws[1] == "run" {
			npx(c)
			return
		}
		c.add(LocalWrite, "uv tool "+ws[1])
	case "--version", "version", "tree", "help":
		c.add(Read, "uv "+ws[0])
	default:
		c.add(LocalWrite, "uv "+ws[0])
		c.cwdWrite()
		c.remotePackages()
	}
}

func pipx(c *cmd) {
	c.add(LocalWrite, "pipx installs or runs a tool")
	c.remotePackages()
}

func poetry(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "publish":
		if c.has("--dry-run") {
			c.add(Read, "poetry publish --dry-run")
			return
		}
		c.add(Publish, "poetry publish")
	case "show", "check", "about", "version", "env", "search", "--version":
		c.add(Read, "poetry "+v)
	default:
		c.add(LocalWrite, "poetry "+v)
		c.namedTask(v)
		c.cwdWrite()
	}
}

func twine(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "upload", "register":
		c.add(Publish, "twine "+v+" publishes to the package index")
	default:
		c.add(Read, "twine "+v)
	}
}

func cargo(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "publish", "yank", "owner":
		if c.has("--dry-run", "-n") {
			c.add(Read, "cargo "+v+" --dry-run")
			return
		}
		c.add(Publish, "cargo "+v+" changes the crate registry")
	case "login", "logout":
		c.add(Secret, "cargo "+v+" stores a registry token")
	case "tree", "metadata", "search", "--version", "-V", "version", "help", "locate-project", "pkgid", "verify-project", "read-manifest":
		c.add(Read, "cargo "+v)
	default:
		c.add(LocalWrite, "cargo "+v+" builds or runs the project")
		c.cwdWrite()
		if v == "install" {
			for _, w := range c.args {
				if w.Value == "--git" {
					c.add(LocalWrite, "cargo install --git builds a crate from a repository")
				}
			}
		}
	}
}

func goCmd(c *cmd) {
	ws := c.words(2)
	switch v := ws[0]; v {
	case "version", "env", "list", "doc", "help", "":
		if v == "env" && c.has("-w", "-u") {
			c.add(LocalWrite, "go env -w changes go settings")
			return
		}
		c.add(Read, "go "+v)
	case "mod":
		if ws[1] == "graph" || ws[1] == "why" || ws[1] == "verify" {
			c.add(Read, "go mod "+ws[1])
			return
		}
		c.add(LocalWrite, "go mod "+ws[1])
		c.cwdWrite()
	default:
		c.add(LocalWrite, "go "+v+" builds or runs the project")
		c.cwdWrite()
		c.outputs(goOutputFlags, nil)
	}
}

func gem(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "push", "yank", "owner":
		c.add(Publish, "gem "+v+" changes the gem registry")
	case "list", "search", "info", "env", "contents", "which", "specification", "query", "outdated", "help", "--version":
		c.add(Read, "gem "+v)
	case "signin", "signout":
		c.add(Secret, "gem "+v)
	default:
		c.add(LocalWrite, "gem "+v)
	}
}

func bundle(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "list", "show", "info", "outdated", "check", "config", "version", "platform":
		c.add(Read, "bundle "+v)
	default:
		c.add(LocalWrite, "bundle "+v)
		c.cwdWrite()
		if v == "exec" {
			c.namedTask(strings.Join(shell.Words(c.operands()), " "))
		}
	}
}

func composer(c *cmd) {
	v := c.words(1)[0]
	switch v {
	case "show", "info", "outdated", "validate", "diagnose", "licenses", "search", "depends", "why", "why-not", "--version", "about", "audit":
		c.add(Read, "composer "+v)
	default:
		c.add(LocalWrite, "composer "+v)
		c.namedTask(v)
		c.cwdWrite()
	}
}

func mvn(c *cmd) {
	for _, w := range c.operands() {
		v := w.Value
		if v == "deploy" || strings.HasPrefix(v, "release:") || strings.HasPrefix(v, "deploy:") || strings.Contains(v, ":deploy") || strings.Contains(v, "publish") {
			c.add(Publish, "mvn "+v+" publishes artifacts")
		}
	}
	c.add(LocalWrite, "mvn builds the project")
	c.cwdWrite()
}

func gradle(c *cmd) {
	for _, w := range c.operands() {
		v := strings.ToLower(w.Value)
		if strings.Contains(v, "publish") || strings.Contains(v, "upload") || strings.Contains(v, "release") {
			c.add(Publish, "gradle "+w.Value+" publishes artifacts")
		}
		if strings.Contains(v, "deploy") {
			c.add(Deploy, "gradle "+w.Value)
		}
	}
	c.add(LocalWrite, "gradle builds the project")
	c.cwdWrite()
}

func dotnet(c *cmd) {
	ws := c.words(2)
	if ws[0] == "nuget" && ws[1] == "push" {
		c.add(Publish, "dotnet nuget push publishes a package")
		return
	}
	if ws[0] == "--version" || ws[0] == "--info" || ws[0] == "--list-sdks" {
		c.add(Read, "dotnet "+ws[0])
		return
	}
	c.add(LocalWrite, "dotnet "+ws[0])
	c.cwdWrite()
}

func apt(c *cmd) {
	v := c.words(1)[0]
	switch v {
	case "list", "show", "search", "policy", "depends", "rdepends", "info", "madison", "changelog", "-l", "--list", "-L", "-s", "--status", "-S", "query", "q", "check-update", "":
		c.add(Read, c.name+" "+v+" reads the package database")
	default:
		if c.name == "dpkg" && c.has("-l", "-L", "-s", "-S", "--list", "--status", "--get-selections", "--print-architecture") {
			c.add(Read, "dpkg lists packages")
			return
		}
		if c.name == "snap" && (v == "list" || v == "info" || v == "find") {
			c.add(Read, "snap "+v)
			return
		}
		c.add(Privilege, c.name+" "+v+" changes the system's packages")
	}
}

func brew(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "list", "ls", "info", "search", "outdated", "doctor", "config", "--prefix", "--version", "deps", "uses", "leaves", "desc", "home", "log", "":
		c.add(Read, "brew "+v)
	default:
		c.add(LocalWrite, "brew "+v+" changes installed packages")
	}
}

// sqlClient reads the SQL it is given and classifies the statements.
func sqlClient(c *cmd) {
	var sql []string
	local := c.name == "sqlite3" || c.name == "duckdb"
	var pos []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case v == "-c" || v == "--command" || v == "-e" || v == "--execute" || v == "-cmd" || v == "--query" || v == "-q" && c.name == "clickhouse-client":
			if i+1 < len(c.args) {
				i++
				if !c.args[i].Literal {
					c.add(Opaque, c.name+" runs SQL built at run time")
				}
				sql = append(sql, c.args[i].Value)
			}
		case strings.HasPrefix(v, "--command=") || strings.HasPrefix(v, "--execute=") || strings.HasPrefix(v, "--query="):
			_, q, _ := strings.Cut(v, "=")
			sql = append(sql, q)
		case v == "-f" || v == "--file" || v == "-init" || v == "--init-command":
			if i+1 < len(c.args) {
				i++
			}
			c.add(Opaque, c.name+" runs SQL from a file")
		case v == "-l" || v == "--list" || v == "--version" || v == "-V" || v == "--help":
			c.add(Read, c.name+" "+v)
			return
		case strings.HasPrefix(v, "-e") && len(v) > 2 && (c.name == "mysql" || c.name == "mariadb"):
			sql = append(sql, v[2:])
		case strings.HasPrefix(v, "-c") && len(v) > 2 && c.name == "psql":
			sql = append(sql, v[2:])
		case strings.HasPrefix(v, "-"):
			if len(v) == 2 && strings.Contains("hpUdDuPWSo", v[1:]) && c.name != "sqlite3" && i+1 < len(c.args) {
				i++
			}
		default:
			pos = append(pos, w)
		}
	}
	if local && len(pos) >= 1 {
		c.path(OpRead, pos[0])
	}
	if local && len(pos) >= 2 {
		for _, w := range pos[1:] {
			sql = append(sql, w.Value)
		}
	}
	for _, r := range c.seg.Redirs {
		if r.Input() {
			sql = append(sql, r.Body)
		} else if r.Reads() {
			c.add(Opaque, c.name+" runs SQL from "+r.Target.Raw)
		}
	}
	if len(sql) == 0 {
		if c.seg.Pipeline != 0 && c.seg.Stage > 0 {
			c.add(Opaque, c.name+" runs SQL from its input")
			return
		}
		c.add(Opaque, c.name+" opens a session whose statements sayso cannot see")
		return
	}
	for _, q := range sql {
		c.sql(q, local)
		if c.name == "psql" {
			c.psqlMeta(q)
		}
	}
}

func (c *cmd) sql(q string, local bool) {
	u := strings.ToUpper(q)
	has := func(kw string) bool { return containsKeyword(u, kw) }
	switch {
	case strings.Contains(q, `\!`) || strings.Contains(u, ".SHELL") || strings.Contains(u, ".SYSTEM") || strings.Contains(u, "TO PROGRAM") || strings.Contains(u, "FROM PROGRAM") || has("SYSTEM") && !local && !has("SELECT"):
		c.add(Opaque, c.name+" SQL runs a shell command")
	}
	switch {
	case has("DROP") || has("TRUNCATE") || has("DELETE"):
		c.add(Destructive, c.name+" SQL drops or deletes data")
	case has("INSERT") || has("UPDATE") || has("CREATE") || has("ALTER") || has("GRANT") || has("REVOKE") || has("COPY") ||
		has("MERGE") || has("REPLACE") || has("UPSERT") || has("CALL") || has("VACUUM") || has("REINDEX") || has("ATTACH") || has("IMPORT") || u == ".IMPORT":
		if local {
			c.add(LocalWrite, c.name+" SQL changes a local database")
			return
		}
		c.add(RemoteWrite, c.name+" SQL changes the database")
	default:
		c.add(Read, c.name+" SQL reads")
	}
}

// containsKeyword reports whether kw appears in u as a whole word.
func containsKeyword(u, kw string) bool {
	for i := 0; ; {
		j := strings.Index(u[i:], kw)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordByte(u[j-1])
		after := j+len(kw) >= len(u) || !isWordByte(u[j+len(kw)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

func redisCli(c *cmd) {
	var words []string
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].Value
		if strings.HasPrefix(v, "-") {
			if len(v) == 2 && strings.Contains("hpanu", v[1:]) {
				i++
			}
			continue
		}
		words = append(words, strings.ToUpper(v))
	}
	if len(words) == 0 {
		c.add(Opaque, "redis-cli opens a session whose commands sayso cannot see")
		return
	}
	switch words[0] {
	case "FLUSHALL", "FLUSHDB", "DEL", "UNLINK", "SHUTDOWN", "DEBUG", "SWAPDB", "SCRIPT", "EVAL", "EVALSHA", "FUNCTION", "MODULE":
		c.add(Destructive, "redis-cli "+words[0])
	case "CONFIG":
		if len(words) > 1 && words[1] == "GET" {
			c.add(Read, "redis-cli CONFIG GET")
			return
		}
		c.add(Destructive, "redis-cli CONFIG changes the server")
	case "GET", "MGET", "KEYS", "SCAN", "INFO", "PING", "TTL", "PTTL", "TYPE", "EXISTS", "HGET", "HGETALL", "LRANGE", "SMEMBERS", "ZRANGE", "DBSIZE", "MONITOR", "SLOWLOG", "CLIENT", "MEMORY", "STRLEN", "LLEN", "HLEN", "SCARD", "ZCARD", "XRANGE", "XLEN", "HKEYS":
		c.add(Read, "redis-cli "+words[0])
	default:
		c.add(RemoteWrite, "redis-cli "+words[0]+" writes to the server")
	}
}

func mongo(c *cmd) {
	for i, w := range c.args {
		if w.Value == "--eval" && i+1 < len(c.args) {
			c.add(Opaque, c.name+" --eval runs script code")
			return
		}
	}
	c.add(Opaque, c.name+" opens a session whose commands sayso cannot see")
}

func crontab(c *cmd) {
	if c.has("-l") {
		c.add(Read, "crontab -l lists jobs")
		return
	}
	if c.has("-r") {
		c.add(Destructive, "crontab -r removes every job")
	}
	c.add(InstructionPatch, "crontab changes scheduled jobs")
}

func atCmd(c *cmd) {
	if c.has("-l") {
		c.add(Read, c.name+" -l lists jobs")
		return
	}
	c.add(InstructionPatch, c.name+" schedules commands to run later")
	c.add(Opaque, c.name+" runs commands sayso will not see when they run")
}

func systemctl(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "status", "show", "list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies", "is-active", "is-enabled", "is-failed", "cat", "help", "--version", "":
		c.add(Read, c.name+" "+v)
	case "enable", "link", "edit", "set-property", "add-wants", "preset":
		c.add(InstructionPatch, c.name+" "+v+" changes what starts at boot")
		c.add(Privilege, c.name+" "+v)
	default:
		c.add(Privilege, c.name+" "+v+" changes system services")
	}
}

func launchctl(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "list", "print", "blame", "version", "help", "":
		c.add(Read, "launchctl "+v)
	default:
		c.add(InstructionPatch, "launchctl "+v+" changes what starts at login")
	}
}

func privileged(c *cmd) {
	if c.has("--version", "--help", "-V") {
		c.add(Read, c.name+" prints its version")
		return
	}
	if c.name == "mount" && len(c.args) == 0 {
		c.add(Read, "mount lists mounts")
		return
	}
	c.add(Privilege, c.name+" changes the system")
}

func sysctl(c *cmd) {
	for _, w := range c.args {
		if w.Value == "-w" || strings.Contains(w.Value, "=") || w.Value == "-p" || w.Value == "--load" {
			c.add(Privilege, "sysctl changes kernel settings")
			return
		}
	}
	c.add(Read, "sysctl reads kernel settings")
}

func sudoedit(c *cmd) {
	c.add(Privilege, "sudoedit edits files as root")
	for _, w := range c.operands() {
		c.write(w)
	}
}

func halt(c *cmd) { c.add(Destructive, c.name+" stops the machine") }

func printenv(c *cmd) {
	ops := c.operands()
	if len(ops) == 0 {
		c.add(Secret, c.name+" prints every variable, secrets included")
		return
	}
	for _, w := range ops {
		if secretVar(w.Value) || !w.Literal {
			c.add(Secret, c.name+" prints "+w.Raw+", which holds a secret")
		}
	}
	c.add(Read, c.name+" prints variables")
}

func setCmd(c *cmd) {
	if len(c.args) == 0 {
		c.add(Secret, "set prints every variable, secrets included")
		return
	}
	c.add(Read, "set changes shell options")
}

func exportCmd(c *cmd) {
	if len(c.seg.Assigns) == 0 && (len(c.args) == 0 || c.has("-p")) {
		c.add(Secret, c.name+" prints every exported variable, secrets included")
		return
	}
	c.add(Read, c.name+" sets variables")
}

func historyCmd(c *cmd) {
	if c.has("-c", "-d") {
		c.add(LocalWrite, "history changes the shell's history")
		return
	}
	c.add(Secret, "history prints the shell's history")
}

func passwordManager(c *cmd) {
	if c.has("--version", "--help") {
		c.add(Read, c.name+" prints its version")
		return
	}
	c.add(Secret, c.name+" reads a password store")
}

func security(c *cmd) {
	v := c.words(1)[0]
	if strings.HasPrefix(v, "find-") || strings.HasPrefix(v, "dump-") || v == "export" || strings.Contains(v, "password") {
		c.add(Secret, "security "+v+" reads the keychain")
		return
	}
	c.add(Read, "security "+v)
}

// sayso: an agent may ask sayso to explain; everything that answers,
// grants, forgets or changes settings is the person's alone.
func sayso(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "check" || ws[0] == "version" || ws[0] == "help" || ws[0] == "autopilot" || ws[0] == "--version" || ws[0] == "--help" || ws[0] == "":
		c.add(Read, "sayso "+ws[0]+" explains and changes nothing")
	case ws[0] == "rule" && (ws[1] == "match" || ws[1] == "offer"):
		c.add(Read, "sayso rule "+ws[1]+" explains and changes nothing")
	default:
		c.add(Protected, "sayso "+strings.TrimSpace(ws[0]+" "+ws[1])+" is the person's to run, not an agent's")
	}
}

func agentCLI(c *cmd) {
	ws := c.words(1)
	switch {
	case c.has("--version", "-v", "--help", "-h") && len(c.args) == 1:
		c.add(Read, c.name+" prints its version")
	case ws[0] == "mcp" || ws[0] == "config" || ws[0] == "hooks" || ws[0] == "extensions" || ws[0] == "plugin" || ws[0] == "plugins":
		c.add(InstructionPatch, c.name+" "+ws[0]+" changes an agent's settings")
	case ws[0] == "login" || ws[0] == "logout" || ws[0] == "auth":
		c.add(Secret, c.name+" "+ws[0])
	default:
		c.add(Parallelize, c.name+" starts another agent")
	}
}

func tmux(c *cmd) {
	v := c.words(1)[0]
	switch v {
	case "ls", "list-sessions", "list-windows", "list-panes", "capture-pane", "has-session", "display-message", "show-options", "-V", "":
		if v == "" && len(c.args) > 0 {
			break
		}
		c.add(Read, c.name+" "+v)
		return
	case "kill-session", "kill-server", "kill-window", "kill-pane", "detach", "attach", "attach-session", "a", "-r", "-ls", "-list":
		c.add(LocalWrite, c.name+" "+v)
		return
	}
	c.add(Opaque, c.name+" "+v+" runs commands sayso cannot see")
}

func scriptCmd(c *cmd) {
	scriptWrites(c)
	if c.seg.Inline {
		c.add(LocalWrite, "script records the command read after it")
		return
	}
	if c.has("-c", "--command") {
		c.add(Opaque, "script -c runs a command string")
		return
	}
	c.add(LocalWrite, "script records a session")
}

func editor(c *cmd) {
	for _, w := range c.args {
		if w.Value == "-c" || w.Value == "--cmd" || w.Value == "-S" || strings.HasPrefix(w.Value, "+") || w.Value == "--eval" || w.Value == "-l" || w.Value == "--batch" || w.Value == "-x" {
			c.add(Opaque, c.name+" runs editor commands")
			return
		}
	}
	c.add(LocalWrite, c.name+" edits files")
	for _, w := range c.operands() {
		c.write(w)
	}
}

func openCmd(c *cmd) {
	for _, w := range c.operands() {
		if strings.Contains(w.Value, "://") {
			c.add(Network, c.name+" opens "+w.Raw+" in a browser")
			continue
		}
		c.add(LocalWrite, c.name+" opens "+w.Raw)
		c.path(OpRead, w)
	}
	if len(c.operands()) == 0 {
		c.add(Read, c.name)
	}
}

// compiler: a C compiler is local work, but -wrapper runs a program
// around each pass and -fplugin loads code into the compiler.
func compiler(c *cmd) {
	for _, w := range c.args {
		switch v := w.Value; {
		case v == "-wrapper":
			c.add(Opaque, c.name+" -wrapper runs a program around each pass")
		case strings.HasPrefix(v, "-fplugin=") || strings.HasPrefix(v, "-fpass-plugin="):
			c.add(Opaque, c.name+" "+v+" loads code into the compiler")
		}
	}
	c.outputs([]string{"-o"}, []string{"-o"})
	c.add(LocalWrite, c.name+" compiles the project")
	c.secretArgs(c.args)
	c.cwdWrite()
}
