// Options as programs read them: the checks families share (remoteSpecs,
// copiesHome) and the options that make a program evaluate, page or
// escape to a shell.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// evaluates: bash evaluates array subscripts and arithmetic in the
// arguments of these builtins, and a command substitution there runs
// (let 'x=a[$(cmd)]', printf -v 'a[$(cmd)]', declare 'a[$(cmd)]=1');
// mapfile -C runs a callback.
func (c *cmd) evaluates() {
	switch c.name {
	case "let", "printf", "declare", "typeset", "local", "readonly", "export", "read", "mapfile", "readarray",
		"unset", "test", "[", "[[", "wait", "getopts", "shift", "return", "exit", "printf -v":
	default:
		return
	}
	subscript := func(v string) bool {
		i := strings.IndexByte(v, '[')
		return i >= 0 && (strings.Contains(v[i:], "$(") || strings.Contains(v[i:], "`"))
	}
	for i, w := range c.args {
		v := w.Value
		switch {
		case !w.Literal && c.name == "let":
			c.add(Opaque, BuiltAtRunTime.By("let", "", ""))
			return
		case w.Literal && c.name == "let" && (strings.Contains(v, "$(") || strings.Contains(v, "`")):
			c.add(Opaque, RunsUnread.By("let", "", w.Raw))
			return
		case (c.name == "mapfile" || c.name == "readarray") && strings.HasPrefix(v, "-C"):
			c.add(Opaque, RunsUnread.By(c.name, "-C", ""))
			return
		case c.name == "printf" && v == "-v" && i+1 < len(c.args):
			n := c.args[i+1]
			if !n.Literal || subscript(n.Value) {
				c.add(Opaque, RunsUnread.By("printf", "-v", n.Raw))
				return
			}
		case c.name != "printf" && c.name != "let" && w.Literal && subscript(v):
			c.add(Opaque, RunsUnread.By(c.name, "", w.Raw))
			return
		}
	}
}

// bindsLocally reports whether a server's --bind/-b names this machine.
func (c *cmd) bindsLocally(args []shell.Word) bool {
	for i, w := range args {
		v := w.Value
		addr := ""
		switch {
		case (v == "--bind" || v == "-b") && i+1 < len(args):
			addr = args[i+1].Value
		case strings.HasPrefix(v, "--bind="):
			addr = strings.TrimPrefix(v, "--bind=")
		default:
			continue
		}
		return addr == "127.0.0.1" || addr == "localhost" || addr == "::1"
	}
	return false
}

func npmClassify(c *cmd) { npm(c) }

// npmPkg: npm pkg set scripts.* defines what a later npm run runs.
func npmPkg(c *cmd) {
	ws := c.words(2)
	if ws[0] != "pkg" || ws[1] != "set" {
		return
	}
	for _, w := range c.operands() {
		if strings.HasPrefix(w.Value, "scripts.") || strings.HasPrefix(w.Value, "scripts[") || strings.HasPrefix(w.Value, "bin") ||
			strings.HasPrefix(w.Value, "config.") || strings.HasPrefix(w.Value, "workspaces") || strings.HasPrefix(w.Value, "main") || !w.Literal {
			c.add(InstructionPatch, RunsLater.By(c.name, "pkg set "+w.Raw, ""))
		}
	}
}

func localURL(u string) bool {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return false
	}
	host := rest
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		return false // credentials in the URL: not a plain local call
	}
	if strings.HasPrefix(host, "[") {
		return strings.HasPrefix(host, "[::1]")
	}
	if i := strings.IndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	return host == "localhost" || host == "127.0.0.1" || host == "0.0.0.0"
}

// stdinScript classifies commands a program reads on its input: a
// here-doc or here-string with "!" runs a shell; a pipe feeds what sayso
// does not see.
func (c *cmd) stdinScript(name string) {
	for _, r := range c.seg.Redirs {
		switch {
		case r.Input() && (!r.BodyLiteral || strings.Contains(r.Body, "!")):
			c.add(Opaque, RunsUnread.By(name, "", ""))
		case r.Reads():
			c.add(Opaque, RunsUnread.By(name, "", r.Target.Raw))
		}
	}
	if c.seg.Pipeline != 0 && c.seg.Stage > 0 {
		c.add(Opaque, RunsUnread.By(name, "", ""))
	}
}

// stdinVerb: a program given its arguments by xargs or parallel, with no
// operand of its own, takes its verb from the input (cat list | xargs
// git): what it does is unknown.
func (c *cmd) stdinVerb() {
	if !c.seg.Many || len(c.operands()) > 0 || program.Is(c.name, program.Looks|program.Builds) {
		return
	}
	for _, w := range c.seg.Wrappers {
		if program.Is(w, program.StdinArgs) {
			c.add(Opaque, RunsInput.By(c.name, "", w))
			return
		}
	}
}

// copiesHome: copying or packing a whole folder that holds the home's key
// folders reads the keys (rsync -a ~/ ./x, cp -r ~ backup).
func copiesHome(c *cmd) {
	ops := c.operands()
	if len(ops) > 1 && (c.name == "rsync" || c.name == "cp" || c.name == "scp" || c.name == "rclone") {
		ops = ops[:len(ops)-1]
	}
	c.readsUnder(ops)
}

// remoteSpecs: a package manager handed a package from a URL, a git
// repository, a GitHub shorthand or another index installs code from
// there, and installing runs it (build scripts, install scripts).
func remoteSpecs(c *cmd) {
	ws := c.words(3)
	installing := false
	for _, w := range ws {
		switch w {
		case "install", "i", "add", "ci", "update", "upgrade", "up", "sync", "lock", "run", "x", "exec", "dlx", "tool", "create", "init", "require", "in", "get":
			installing = true
		}
	}
	if !installing && c.name != "pipx" && c.name != "uvx" && c.name != "npx" && c.name != "bunx" && c.name != "pnpx" {
		return
	}
	for i, w := range c.args {
		v := w.Value
		name, val, hasVal := strings.Cut(v, "=")
		switch name {
		case "--index-url", "-i", "--extra-index-url", "--find-links", "-f", "--index", "--default-index", "--source", "-s", "--git",
			"--registry", "--repository", "--from", "--with", "--with-editable", "--trusted-host":
			if name == "-s" && c.name != "gem" || name == "-f" && c.name != "pip" && c.name != "pip3" && c.name != "uv" || name == "-i" && c.name != "pip" && c.name != "pip3" && c.name != "uv" {
				continue
			}
			if !hasVal && i+1 < len(c.args) {
				val = c.args[i+1].Value
			}
			if name == "--from" || name == "--with" || name == "--with-editable" {
				c.remoteSpec(val)
				continue
			}
			if val != "" && !defaultIndex(val) {
				c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, name, val))
			}
		}
	}
	ops := c.operands()
	if rest := wordsAfterGlobals(c.args, npmGlobalTakes); c.name == "npm" || c.name == "pnpm" || c.name == "yarn" || c.name == "bun" {
		ops = (&cmd{args: rest}).operands()
	}
	for _, w := range ops {
		c.remoteSpec(w.Value)
		v := w.Value
		// run (run-script) runs a script, a file or an installed program
		// by its name (npm-run-script(1), bun run): owner/repo there is a
		// path, not a package from GitHub.
		if (c.name == "npm" || c.name == "pnpm" || c.name == "yarn" || c.name == "bun") && ws[0] != "run" && ws[0] != "run-script" && githubShorthand(v) {
			c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, "", v))
		}
	}
}

// remoteSpec classifies one package spec that names where it comes from.
func (c *cmd) remoteSpec(v string) {
	l := strings.ToLower(v)
	for _, p := range []string{"git+", "git:", "github:", "gitlab:", "bitbucket:", "http://", "https://", "ssh://", "git@"} {
		if strings.HasPrefix(l, p) || strings.Contains(l, "@"+p) || strings.Contains(l, "@ "+p) || strings.Contains(l, "=="+p) {
			c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, "", v))
			return
		}
	}
}

func defaultIndex(v string) bool {
	v = strings.TrimSuffix(v, "/")
	switch v {
	case "https://pypi.org/simple", "https://pypi.python.org/simple", "https://rubygems.org", "https://registry.npmjs.org",
		"https://registry.yarnpkg.com", "https://index.crates.io", "sparse+https://index.crates.io", "https://repo.packagist.org", "crates-io":
		return true
	}
	return false
}

// githubShorthand reports npm's owner/repo form (not a scope, not a path).
func githubShorthand(v string) bool {
	if strings.HasPrefix(v, "@") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.Contains(v, ":") {
		return false
	}
	owner, repo, ok := strings.Cut(v, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") && !strings.Contains(repo, "#") {
		return false
	}
	return !strings.HasSuffix(repo, ".tgz") && !strings.HasSuffix(repo, ".tar.gz")
}

// aliasValue: an alias runs its value wherever its name is used later, in
// this step or a later one of the same shell: it is as risky as its value.
func (c *cmd) aliasValue(name, value string) {
	if len(value) > 4096 || strings.Count(value, "alias") > 4 {
		c.add(Opaque, RunsUnread.By("alias", name, ""))
		return
	}
	sub := Command(value, c.a.ctx)
	for _, cl := range sub.Classes.Classes() {
		if cl == Read {
			continue
		}
		c.add(cl, RunsAlias.By("alias", name, value))
	}
}

// fdSecret: fd looking for keys or tokens, or walking the home, hands
// them to the command it runs.
func (c *cmd) fdSecret() {
	if c.name != "fd" && c.name != "fdfind" {
		return
	}
	runs := false
	for _, w := range c.args {
		switch w.Value {
		case "-x", "--exec", "-X", "--exec-batch":
			runs = true
		}
	}
	if !runs && !c.seg.Inline {
		return
	}
	for i, w := range c.args {
		v := w.Value
		if secretPattern(v) || (v == "-e" || v == "--extension") && i+1 < len(c.args) && (c.args[i+1].Value == "key" || c.args[i+1].Value == "pem" || c.args[i+1].Value == "env") {
			c.a.findSecret = true
		}
	}
	c.readsUnder(c.operands())
}

// npmGlobalTakes: npm, pnpm and yarn's global options that take a value.
func npmGlobalTakes(v string) bool {
	switch v {
	case "-w", "--workspace", "--prefix", "-C", "--dir", "--filter", "-F", "--cwd", "--registry", "--userconfig",
		"--globalconfig", "--cache", "--loglevel", "--reporter", "--store-dir", "--otp", "--tag", "--access":
		return true
	}
	return false
}
