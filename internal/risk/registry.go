package risk

import (
	"strings"
	"sync"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// The classifier tables are built once, on first use, by loadTables. They
// cannot be package-level initializers: a classifier reaches back to them
// (alias classifies the command it names, which is classified through
// these tables), and Go refuses such an initialization cycle.
var (
	tablesOnce sync.Once
	// programs maps a program name to the function that classifies it.
	programsTable map[string]func(*cmd)
	// gitTable maps a git subcommand to the function that classifies it.
	gitTable map[string]func(*cmd)
)

func loadTables() {
	tablesOnce.Do(func() {
		gitTable = buildGitSubcommands()
		programsTable = buildPrograms()
	})
}

// programs returns the table of the programs with a classifier of their
// own.
func programs() map[string]func(*cmd) {
	loadTables()
	return programsTable
}

// gitSubcommand returns the classifier of git's subcommand name.
func gitSubcommand(name string) (func(*cmd), bool) {
	loadTables()
	fn, ok := gitTable[name]
	return fn, ok
}

// classifier returns the function that classifies the program called name,
// or nil when sayso does not know it. Every program the registry lists has
// one, and no other: a test holds the two together.
func classifier(name string) func(*cmd) {
	return programs()[name]
}

// known classifies segment c by its program's classifier, or as a program
// sayso does not know.
func (c *cmd) known() {
	if fn := classifier(c.name); fn != nil && program.Known(c.name) {
		fn(c)
		c.progOpts()
		c.evaluates()
		c.stdinVerb()
		c.envDump()
		c.transportOff()
		c.listens()
		c.builtNames()
		c.fdSecret()
		for _, w := range c.args {
			c.globSecret(w)
		}
		return
	}
	c.unknown()
}

// asUser reports whether a wrapper runs its command as another user.
func asUser(w string) bool { return program.Is(w, program.AsUser) }

// progOpts: an option that names a program or a command line runs it,
// and sayso does not read it, unless it is a plain pager. A command the
// shell reader already split off (fd -x, nodemon --exec) is classified on
// its own.
func (c *cmd) progOpts() {
	if c.seg.Inline {
		return
	}
	p, ok := program.Lookup(c.name)
	if !ok || len(p.ProgOpts) == 0 {
		return
	}
	for i, w := range c.args {
		if !w.Literal {
			continue
		}
		if w.Value == "--" {
			return
		}
		opt, val, ok := program.ProgOpt(c.name, w.Value)
		if !ok {
			continue
		}
		vw := shell.Word{Raw: val, Value: val, Literal: true}
		if val == "" && !strings.Contains(w.Value, "=") {
			if i+1 >= len(c.args) {
				continue
			}
			vw = c.args[i+1]
		}
		if vw.Literal && harmlessProgram(vw.Value) {
			continue
		}
		c.add(Opaque, RunsUnread.By(c.name, opt, vw.Raw))
	}
}

// harmlessProgram reports whether a program named as a pager or editor
// does nothing but show or accept: cat, less, true.
func harmlessProgram(v string) bool {
	v = strings.TrimSpace(v)
	f := strings.Fields(v)
	if len(f) == 0 {
		return true
	}
	switch strings.TrimPrefix(f[0], "/usr/bin/") {
	case "cat", "true", ":", "false":
		return len(f) == 1
	case "less", "more", "most":
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") || strings.ContainsAny(a, "+!|`$;&<>") || strings.HasPrefix(a, "--lesskey") {
				return false
			}
		}
		return true
	}
	return false
}

// programVar says how an assignment to a variable that names a program, a
// configuration or a package index changes later programs, or the zero Reason.
func programVar(name, value string, literal bool) (Class, Reason) {
	switch {
	case strings.HasSuffix(name, "PAGER") || strings.HasSuffix(name, "EDITOR") || name == "VISUAL" || name == "BROWSER" ||
		name == "LESSOPEN" || name == "LESSCLOSE" || strings.HasSuffix(name, "ASKPASS") || name == "TERMINAL" || name == "DIFFTOOL":
		if literal && harmlessProgram(value) && name != "LESSOPEN" && name != "LESSCLOSE" {
			return 0, Reason{}
		}
		return Opaque, SetsVariable.By("", "", name)
	case name == "GOFLAGS":
		if !literal || strings.Contains(value, "exec") || strings.Contains(value, "-overlay") || strings.Contains(value, "-modfile") {
			return Opaque, SetsVariable.By("", "", "GOFLAGS")
		}
	case name == "JAVA_TOOL_OPTIONS" || name == "_JAVA_OPTIONS" || name == "JDK_JAVA_OPTIONS" || name == "MAVEN_OPTS" || name == "GRADLE_OPTS" ||
		name == "RUSTC_WRAPPER" || name == "RUSTC" || name == "RUSTDOC" || name == "CARGO_BUILD_RUSTC_WRAPPER" ||
		strings.HasPrefix(name, "CARGO_TARGET_") && strings.HasSuffix(name, "_RUNNER") || strings.HasSuffix(name, "_LAUNCHER") ||
		name == "CC" || name == "CXX" || name == "LD" || name == "AR" || name == "CPP" || name == "FC" || name == "MAKE" || name == "SHELL" ||
		name == "PERL5LIB" || name == "RUBYLIB" || name == "NODE_PATH" || name == "GEM_HOME" && !literal || name == "PYTHONHOME" ||
		name == "XDG_CONFIG_HOME" || name == "ZDOTDIR" || name == "INPUTRC" || name == "GIT_DIR" && !literal ||
		name == "npm_config_script_shell" || name == "NPM_CONFIG_SCRIPT_SHELL" || name == "NPM_CONFIG_USERCONFIG" || name == "NPM_CONFIG_GLOBALCONFIG" ||
		name == "PIP_CONFIG_FILE" || name == "CARGO_HOME" && !literal || name == "DOCKER_CONFIG" || name == "KUBECONFIG" && !literal:
		if literal && (name == "CC" || name == "CXX" || name == "LD" || name == "AR" || name == "CPP" || name == "FC") && compilerName(value) {
			return 0, Reason{}
		}
		if literal && name == "SHELL" && (value == "/bin/bash" || value == "/bin/sh" || value == "bash" || value == "sh") {
			return 0, Reason{}
		}
		return Opaque, SetsVariable.By("", "", name)
	case strings.HasPrefix(name, "NPM_CONFIG_") || strings.HasPrefix(name, "npm_config_") || strings.HasPrefix(name, "YARN_") && strings.Contains(name, "REGISTRY") ||
		name == "PIP_INDEX_URL" || name == "PIP_EXTRA_INDEX_URL" || name == "PIP_FIND_LINKS" || name == "UV_INDEX_URL" || name == "UV_EXTRA_INDEX_URL" ||
		name == "UV_INDEX" || name == "UV_DEFAULT_INDEX" || name == "UV_FIND_LINKS" || name == "PIP_TRUSTED_HOST" || name == "GOPROXY" || name == "GONOSUMDB" ||
		name == "GONOSUMCHECK" || name == "GOSUMDB" || name == "GOINSECURE" || name == "GOPRIVATE" || name == "GONOPROXY" || strings.HasPrefix(name, "CARGO_REGISTRIES_") ||
		name == "BUNDLE_MIRROR" || name == "GEM_SOURCE" || name == "COMPOSER_REPO" || name == "POETRY_REPOSITORIES":
		up := strings.ToUpper(name)
		if !strings.Contains(up, "REGISTRY") && !strings.Contains(up, "INDEX") && !strings.Contains(up, "PROXY") && !strings.Contains(up, "SUM") &&
			!strings.Contains(up, "LINKS") && !strings.Contains(up, "INSECURE") && !strings.Contains(up, "TRUSTED") && !strings.Contains(up, "MIRROR") &&
			!strings.Contains(up, "SOURCE") && !strings.Contains(up, "REPO") && !strings.HasPrefix(up, "GOPRIVATE") && !strings.HasPrefix(up, "GONOPROXY") {
			return 0, Reason{} // npm_config_loglevel and the like
		}
		if literal && (value == "off" && name == "GOSUMDB") {
			return DownloadExec, SetsIndex.By("", "", "GOSUMDB")
		}
		if literal && (value == "https://proxy.golang.org,direct" || value == "https://registry.npmjs.org/" || value == "https://registry.npmjs.org" || value == "https://pypi.org/simple") {
			return 0, Reason{}
		}
		return DownloadExec, SetsIndex.By("", "", name)
	case name == "LESS" || name == "MORE" || name == "LESSKEYIN" || name == "LESSKEY" || name == "LESSKEY_SRC":
		if !literal || strings.ContainsAny(value, "+!|`$") || strings.Contains(value, "lesskey") || name != "LESS" && name != "MORE" {
			return Opaque, SetsVariable.By("", "", name)
		}
	case name == "GIT_DIR" || name == "GIT_COMMON_DIR" || name == "GIT_WORK_TREE":
		if !literal || strings.HasPrefix(value, "/") || strings.HasPrefix(value, "~") || strings.Contains(value, "..") {
			return Opaque, SetsVariable.By("", "", name)
		}
	case name == "DOCKER_HOST" || name == "DOCKER_CONTEXT" || name == "CONTAINER_HOST" || name == "KUBECONTEXT":
		if literal && (value == "" || value == "default" || strings.HasPrefix(value, "unix://")) {
			return 0, Reason{}
		}
		return Deploy, Deploys.By("", "", name)
	}
	return 0, Reason{}
}

func compilerName(v string) bool {
	switch v {
	case "gcc", "g++", "cc", "c++", "clang", "clang++", "gfortran", "ld", "ar", "cpp", "musl-gcc", "zig cc", "zig c++":
		return true
	}
	return strings.HasPrefix(v, "gcc-") || strings.HasPrefix(v, "clang-") || strings.HasPrefix(v, "g++-") || strings.HasPrefix(v, "clang++-")
}

// byBaseName classifies a program run by a path through the registry: a
// project's copy of a program sayso knows (./node_modules/.bin/vercel,
// ./gradlew, .venv/bin/twine) is that program, and still the project's
// own code besides.
func (c *cmd) byBaseName(r Reason, cl Class) {
	c.add(cl, r)
	c.known()
}

// plainNodeOptions reports whether NODE_OPTIONS holds only options that
// tune node, none that loads code.
func plainNodeOptions(v string) bool {
	for _, f := range strings.Fields(v) {
		name, _, _ := strings.Cut(f, "=")
		switch {
		case name == "--max-old-space-size" || name == "--max-semi-space-size" || name == "--enable-source-maps" || name == "--no-warnings" ||
			name == "--no-deprecation" || name == "--openssl-legacy-provider" || name == "--experimental-vm-modules" || name == "--trace-warnings" ||
			name == "--trace-deprecation" || name == "--unhandled-rejections" || name == "--stack-trace-limit" || name == "--dns-result-order" ||
			name == "--use-openssl-ca" || name == "--max-http-header-size" || name == "--heapsnapshot-near-heap-limit":
		case (name == "--inspect" || name == "--inspect-brk") && (f == name || strings.HasSuffix(f, "=127.0.0.1") || strings.Contains(f, "=127.0.0.1:") || strings.Contains(f, "=localhost")):
		default:
			return false
		}
	}
	return true
}

// syntaxCheck classifies node|ruby -c FILE (the file is parsed, not run),
// perl -c FILE (BEGIN blocks run: the file is the project's code) and
// node --test (the project's test files run).
func (c *cmd) syntaxCheck(opt string, rest []shell.Word) {
	var files []shell.Word
	for _, w := range rest {
		if !strings.HasPrefix(w.Value, "-") {
			files = append(files, w)
		}
	}
	switch {
	case opt == "--test":
		c.add(LocalWrite, RunsProject.By(c.name, "--test", ""))
		for _, w := range files {
			c.runScript(w)
		}
		c.cwdWrite()
	case c.name == "perl":
		if len(files) == 0 {
			c.a.mark(c.i, roleCode)
			return
		}
		c.runScript(files[0])
	default:
		if len(files) == 0 {
			c.add(Read, ChecksSyntax.By(c.name, opt, ""))
			return
		}
		c.add(Read, ChecksSyntax.By(c.name, opt, ""))
		for _, w := range files {
			c.path(OpRead, w)
		}
	}
}
