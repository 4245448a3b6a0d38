// Programs that run other programs: interpreters, shells, task runners, wrappers that start a command, agent CLIs.

package risk

import (
	"path"
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// agentFamily are the coding agents run as a step: what they are asked
// to do is not read, and a flag that turns their own checks off is seen.
func agentFamily() family {
	return family{names: []string{"claude", "codex", "gemini", "aider", "cursor-agent", "opencode", "amp", "qwen", "crush"},
		classify: agentCLI, after: agentUnchecked}
}

// tmuxFamily: tmux and screen start commands in sessions that outlive the
// step.
func tmuxFamily() family {
	return family{names: []string{"tmux", "screen"}, traits: program.Launcher | program.RunsArgs, before: launched, classify: tmux}
}

// envManagerFamily are the environment managers that also install
// packages, whose specs are checked for code from elsewhere.
func envManagerFamily() family {
	return family{names: []string{"conda", "pdm", "pipenv"}, traits: program.RunsArgs, classify: envManager, after: remoteSpecs}
}

// The families of the programs that run what they are given: the
// interpreters, the shells, the task runners. Their runs field is what
// TestWrappersSeeThrough holds against the registry.

// interpreterFamily runs code from a file, a string or stdin.
func interpreterFamily() family {
	return family{names: []string{
		"python", "python3", "python2", "pypy", "pypy3", "node", "nodejs", "ruby", "perl", "php", "lua", "luajit",
		"Rscript", "julia", "osascript", "pwsh", "powershell", "tclsh", "wish", "jshell", "groovy", "irb", "expect",
		"fish", "csh", "tcsh", "nu", "xonsh", "R", "ghci", "runghc", "runhaskell", "iex", "escript", "racket", "guile",
		"sbcl", "scala", "kotlin", "jrunscript", "qjs", "elvish", "cmd", "cmd.exe", "java", "ipython", "tsx", "ts-node", "esno",
	}, classify: interpreter, runs: runsCode}
}

func denoFamily() family {
	return family{names: []string{"deno"}, traits: program.Interpreter, classify: deno, runs: runsCode}
}

func bunFamily() family {
	return family{names: []string{"bun"}, traits: program.Interpreter, classify: bun, after: remoteSpecs, runs: runsCode}
}

// shellFamily are the Bourne shells, whose -c strings and scripts sayso
// reads as bash.
func shellFamily() family {
	return family{names: []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "rbash", "busybox-sh"},
		traits: program.Shell | program.Bourne, classify: shellProgram, runs: runsShell}
}

// makeFamily runs the recipes of a makefile; a makefile read from stdin
// is code sayso does not read.
func makeFamily() family {
	return family{names: []string{"make", "gmake"}, traits: program.Runner, before: makeStdin, classify: makeCmd, runs: runsTasks}
}

// taskRunnerFamily runs the tasks a file of the project names.
func taskRunnerFamily() family {
	return family{names: []string{"just", "task", "rake", "mage", "invoke"}, traits: program.Runner, classify: runner, runs: runsTasks}
}

// runScript classifies running the script file w: the project's own code
// is local work that sayso cannot see inside; code from anywhere else is
// opaque.
func (c *cmd) runScript(w shell.Word) {
	ps := c.a.resolve(w)
	if ps == nil {
		c.add(Opaque, BuiltAtRunTime.By(c.name, "", w.Raw))
		return
	}
	c.path(OpRun, w)
	if c.a.runsDownload(ps) {
		c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, "", w.Raw))
	}
	if c.a.runsMade(ps) {
		c.add(Opaque, RunsUnread.By(c.name, "", w.Raw))
	}
	for _, p := range ps {
		if !c.a.ctx.InScope(p) || strings.HasPrefix(p, "/tmp/") && !c.a.ctx.InScope(p) {
			c.add(Opaque, RunsUnread.By(c.name, "", w.Raw))
			return
		}
		c.namedTask(path.Base(p))
		if _, ok := migrationUndo[path.Base(p)]; ok && undoesMigrations(c, path.Base(p)) {
			return // python manage.py flush, php artisan db:wipe
		}
	}
	c.add(LocalWrite, RunsProject.By(c.name, "", w.Raw))
	c.cwdWrite()
}

// stopsAt classifies what ends an interpreter's or a shell's reading of
// its arguments at w: a word built at run time, whose code is unread, or
// one of help, which prints help. It reports whether w was one.
func (c *cmd) stopsAt(w shell.Word, help ...string) bool {
	if !w.Literal {
		c.a.mark(c.i, roleCode)
		return true
	}
	if slices.Contains(help, w.Value) {
		c.add(Read, PrintsHelp.By(c.name, "", ""))
		return true
	}
	return false
}

// interpreter: inline code is opaque; a script of the project is local
// work; code on stdin is checked with the pipeline.
func interpreter(c *cmd) {
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if c.stopsAt(w, "--version", "-V", "--help", "-h", "-v") {
			return
		}
		switch {
		case (v == "-c" || v == "--check") && (c.name == "node" || c.name == "nodejs" || c.name == "ruby") ||
			v == "-c" && c.name == "perl" || v == "--test" && (c.name == "node" || c.name == "nodejs"):
			c.syntaxCheck(v, c.args[i+1:])
			return
		case inlineCodeOpt(c.name, v):
			opt, code, rest := v, (*shell.Word)(nil), c.args[i+1:]
			if attached, ok := attachedCode(c.name, v); ok {
				opt, code = strings.TrimSuffix(v, attached), &shell.Word{Raw: attached, Value: attached, Literal: true}
			} else if len(rest) > 0 {
				code, rest = &rest[0], rest[1:]
			}
			c.inlineCode(opt, code, rest)
			return
		case v == "-m" && i+1 < len(c.args):
			module(c, c.args[i+1].Value, c.args[i+2:])
			return
		case strings.HasPrefix(v, "-m") && len(v) > 2 && strings.HasPrefix(c.name, "py"):
			module(c, v[2:], c.args[i+1:])
			return
		case v == "-":
			if !c.hereCode() {
				c.a.mark(c.i, roleCode)
			}
			return
		case strings.HasPrefix(v, "-"):
			// osascript -l names the language and -s the output flags
			// (osascript(1)): neither is the script.
			if (v == "-W" || v == "-X" || v == "-I" || v == "-r" || v == "--require" || v == "--import" || v == "--loader" ||
				c.name == "osascript" && (v == "-l" || v == "-s")) && i+1 < len(c.args) {
				if c.name == "node" && (v == "-r" || v == "--require" || v == "--import" || v == "--loader") {
					c.runScriptIfPath(c.args[i+1])
				}
				i++
			}
		default:
			if !c.runsHereText(w) {
				c.runScript(w)
			}
			c.secretArgs(c.args[i+1:])
			return
		}
	}
	if !c.hereCode() {
		c.a.mark(c.i, roleCode)
	}
}

// runsHereText runs the script file w as inline code when the step wrote
// it with cat from a here-doc it holds whole (cat > t.py <<'EOF' … EOF;
// python3 t.py): its text is in the step, as python3 -c would have it.
// Anything written to the file since, or a download, keeps it unread.
func (c *cmd) runsHereText(w shell.Word) bool {
	ps := c.a.resolve(w)
	if ps == nil || !c.a.runsMade(ps) || c.a.runsDownload(ps) {
		return false
	}
	code, ok := c.a.madeCode(ps)
	if !ok {
		return false
	}
	c.inlineCode(w.Raw, &shell.Word{Raw: code, Value: code, Literal: true}, nil)
	return true
}

func (c *cmd) runScriptIfPath(w shell.Word) {
	if strings.HasPrefix(w.Value, ".") || strings.HasPrefix(w.Value, "/") {
		c.runScript(w)
	}
}

// attachedCode returns the code an option carries in the same word:
// python -cCODE (python(1)), node --eval=CODE and --print=CODE (node(1)),
// perl and ruby -eCODE after their other switches (perlrun: -e
// commandline; ruby(1)).
func attachedCode(name, v string) (string, bool) {
	switch {
	case pythonName(name) && strings.HasPrefix(v, "-c") && len(v) > 2:
		return v[2:], true
	case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print="):
		_, code, _ := strings.Cut(v, "=")
		return code, true
	case name == "perl" || name == "ruby":
		if _, code, attached := switches(name, v); code && attached != "" {
			return attached, true
		}
	}
	return "", false
}

// inlineCodeOpt reports whether option v hands the interpreter its
// program as text, as each interpreter's manual says: python -c
// (python(1)), node -e, -p, --eval, --print (node(1)), perl -e and -E
// (perlrun), ruby -e (ruby(1)), php -r (php(1)), pwsh -Command and
// -EncodedCommand (about_Pwsh), and -c, -e or --eval for the shells and
// the other interpreters. An option that is not code is skipped, and the
// first word after the options is the script file it runs.
func inlineCodeOpt(name, v string) bool {
	switch {
	case name == "perl" || name == "ruby":
		_, code, _ := switches(name, v)
		return code
	case pythonName(name):
		return strings.HasPrefix(v, "-c")
	case name == "node" || name == "nodejs":
		return v == "-e" || v == "--eval" || v == "-p" || v == "--print" || strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print=")
	case name == "php":
		return v == "-r"
	case name == "pwsh" || name == "powershell":
		switch strings.ToLower(v) {
		case "-c", "-command", "-encodedcommand", "-enc", "-ec", "-e":
			return true
		}
		return false
	}
	return v == "-c" || v == "-e" || v == "--eval" || v == "-Command" || v == "-command"
}

func pythonName(name string) bool {
	return strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy")
}

// switches reads a perl or ruby cluster of one-letter switches (-lane,
// -pi.bak, -e'code') as perlrun and ruby(1) do: the switches it holds,
// whether one of them takes the program as text (-e; perl's -E too), and
// the code the word carries after it. A switch that takes an argument
// (perl -i.bak, -MData::Dumper, ruby -rjson, -Eutf-8) takes the rest of
// the word; -l and -0 take the digits after them.
func switches(name, v string) (flags string, code bool, attached string) {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return "", false, ""
	}
	takesRest, takesDigits := "iImMxdDFC", "l0"
	if name == "ruby" {
		takesRest, takesDigits = "iIrxCEFKW", "0T"
	}
	s := v[1:]
	for k := 0; k < len(s); k++ {
		ch := s[k]
		switch {
		case ch == 'e' || ch == 'E' && name == "perl":
			return flags + string(ch), true, s[k+1:]
		case strings.IndexByte(takesRest, ch) >= 0:
			return flags + string(ch), false, ""
		case strings.IndexByte(takesDigits, ch) >= 0:
			flags += string(ch)
			for k+1 < len(s) && s[k+1] >= '0' && s[k+1] <= '9' {
				k++
			}
		default:
			flags += string(ch)
		}
	}
	return flags, false, ""
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
		c.add(Opaque, RunsUnread.By(c.name, "-m "+m, ""))
	case "site", "platform", "sysconfig", "this", "pydoc", "tabnanny", "py_compile", "compileall", "dis", "tokenize", "ast":
		c.add(Read, OnlyReads.By(c.name, "-m "+m, ""))
	case "http.server", "SimpleHTTPServer":
		c.servesRoot(c.name+" -m "+m, rest, "-d", "--directory")
		if c.bindsLocally(rest) {
			c.add(LocalWrite, ServesLocally.By(c.name, "-m "+m, ""))
			return
		}
		c.add(Network, ExposesService.By(c.name, "-m "+m, ""))
	case "twine":
		twine(&cmd{a: c.a, i: c.i, seg: c.seg, name: "twine", args: rest})
	default:
		c.add(LocalWrite, RunsProject.By(c.name, "-m "+m, ""))
		c.cwdWrite()
	}
}

func deno(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "eval":
		// deno eval CODE (deno's manual, deno eval): the code is the
		// first word after eval.
		ops := c.operands()
		var code *shell.Word
		var rest []shell.Word
		if len(ops) > 1 {
			code, rest = &ops[1], ops[2:]
		}
		c.inlineCode("eval", code, rest)
	case "deploy":
		c.add(Deploy, Deploys.By("deno", "deploy", ""))
	case "publish":
		c.add(Publish, Publishes.By("deno", "publish", ""))
	case "run", "test", "bench", "compile", "serve", "task", "install", "fmt", "lint", "check", "cache", "add", "info", "doc", "":
		for _, w := range c.operands() {
			if strings.Contains(w.Value, "://") {
				c.add(DownloadExec, FetchesCodeThatRuns.By("deno", "", w.Raw))
				return
			}
			if ws[0] == "run" && c.denoRemote(w) {
				return
			}
		}
		c.add(LocalWrite, LocalWork.By("deno", ws[0], ""))
		c.cwdWrite()
		if ws[0] == "install" && c.has("-g", "--global") {
			// ~/.deno/bin, on the person's PATH, unless --root says.
			c.installsForMachine(c.envDir("DENO_INSTALL_ROOT", "bin", "~/.deno/bin"))
		}
	default:
		c.runScript(c.operands()[0])
	}
}

func bun(c *cmd) {
	ws := c.words(1)
	switch v := ws[0]; {
	case c.has("-e", "--eval", "-p", "--print"):
		// bun -e CODE, --eval CODE, -p CODE (bun's manual, bun run).
		for i, w := range c.args {
			if matchOpt(w.Value, "-e", "--eval", "-p", "--print") {
				var code *shell.Word
				if i+1 < len(c.args) {
					code = &c.args[i+1]
				}
				c.inlineCode(w.Value, code, nil)
				c.secretArgs(c.args[min(i+2, len(c.args)):])
				break
			}
		}
	case v == "publish":
		c.add(Publish, Publishes.By("bun", "publish", ""))
	case v == "x":
		// bun x is bunx (bun's manual, bunx): it downloads a package the
		// project does not have, and runs it.
		for i, w := range c.args {
			if w.Value == "x" {
				npx(&cmd{a: c.a, i: c.i, seg: c.seg, name: "bun x", args: c.args[i+1:]})
				break
			}
		}
	case v == "run":
		// bun run runs a package.json script, a file or a program of
		// node_modules/.bin (bun's manual, bun run): it installs nothing.
		// A name that is a path is the file, judged where it lies.
		name := c.words(2)[1]
		c.add(LocalWrite, LocalWork.By("bun", "run", ""))
		c.namedTask(name)
		c.scriptBody(name)
		if ops := c.operands(); len(ops) > 1 && !strings.Contains(name, ":") && (strings.Contains(name, "/") || path.Ext(name) != "") {
			c.runScript(ops[1])
		}
		c.cwdWrite()
	case strings.Contains(v, ".") || strings.Contains(v, "/"):
		c.runScript(c.operands()[0])
	default:
		c.add(LocalWrite, LocalWork.By("bun", v, ""))
		c.namedTask(v)
		switch v {
		case "test", "install", "i", "add", "remove", "update", "build", "init", "create", "link", "pm", "upgrade", "outdated", "audit":
			if c.has("-g", "--global") || v == "link" && len(c.operands()) <= 1 {
				c.installsForMachine("")
			}
		default:
			c.scriptBody(v) // bun runs a package.json script by its name
		}
		c.cwdWrite()
	}
}

// shellProgram is a shell whose -c string or here-doc, if it had one, is
// classified in the segments after it.
func shellProgram(c *cmd) {
	if c.seg.Inline {
		c.add(Read, RunsNextWords.By(c.name, "", ""))
		return
	}
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if c.stopsAt(w, "--version", "--help") {
			return
		}
		switch {
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

func makeCmd(c *cmd) {
	var targets []string
	other := false // another Makefile than the project's: its recipes are not known
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case v == "-f" || v == "--file" || v == "--makefile":
			other = true
			if i+1 < len(c.args) {
				i++
				c.runScript(c.args[i])
			}
		case strings.HasPrefix(v, "--eval"):
			c.add(Opaque, RunsUnread.By("make", "--eval", ""))
		case v == "-C" || v == "--directory":
			other = true
			if i+1 < len(c.args) {
				i++
				c.write(c.args[i])
			}
		case strings.HasPrefix(v, "SHELL=") || strings.HasPrefix(v, ".SHELLFLAGS="):
			c.add(Opaque, RunsUnread.By("make", "", v))
		case strings.HasPrefix(v, "-"):
		case strings.Contains(v, "="):
		default:
			c.namedTask(v)
			targets = append(targets, v)
		}
	}
	c.add(LocalWrite, RunsProject.By(c.name, "", ""))
	c.cwdWrite()
	if c.name != "make" && c.name != "gmake" || other {
		return
	}
	if len(targets) == 0 {
		targets = []string{""}
	}
	for _, t := range targets {
		c.recipe(t)
	}
}

// recipe judges a Makefile target the step runs by its recipe, as the
// project wrote it: a target that pushes pushes, whatever its name. What
// make itself expands ($(GO), $@) is not the step's to see, so only the
// risk the recipe's lines show is added; prerequisites are not followed.
func (c *cmd) recipe(target string) {
	lines, ok := c.a.ctx.Recipes[target]
	name := target
	if name == "" {
		name = "the default target"
	}
	if _, unread := c.a.ctx.Recipes["%"]; !ok && unread {
		c.add(Opaque, Reason{Kind: MakeRecipe, Object: "rules sayso does not read", What: name})
		return
	}
	if !ok || c.a.ctx.depth >= 3 {
		return
	}
	ctx := c.a.ctx
	ctx.depth++
	for _, line := range lines {
		line = strings.TrimLeft(line, "@-+ \t")
		sub := Classify(shell.Parse(line), ctx)
		for _, cl := range sub.Classes.Classes() {
			if cl == Read || cl == LocalWrite || cl == Opaque {
				continue
			}
			shown := line
			if len(shown) > 80 {
				shown = shown[:77] + "..."
			}
			c.add(cl, Reason{Kind: MakeRecipe, Object: "`" + shown + "`", What: name})
		}
	}
}

func runner(c *cmd) {
	if c.name == "rake" && undoesMigrations(c, "rails") {
		return
	}
	for _, w := range c.operands() {
		c.namedTask(w.Value)
	}
	c.add(LocalWrite, RunsProject.By(c.name, "", ""))
	c.cwdWrite()
}

func agentCLI(c *cmd) {
	ws := c.words(1)
	switch {
	case c.has("--version", "-v", "--help", "-h") && len(c.args) == 1:
		c.add(Read, PrintsHelp.By(c.name, "", ""))
	case ws[0] == "mcp" || ws[0] == "config" || ws[0] == "hooks" || ws[0] == "extensions" || ws[0] == "plugin" || ws[0] == "plugins":
		c.add(InstructionPatch, RunsLater.By(c.name, ws[0], ""))
	case ws[0] == "login" || ws[0] == "logout" || ws[0] == "auth":
		c.add(Secret, TouchesCredential.By(c.name, ws[0], ""))
	default:
		c.add(Parallelize, StartsAgent.By(c.name, "", ""))
	}
}

func tmux(c *cmd) {
	v := c.words(1)[0]
	switch v {
	case "ls", "list-sessions", "list-windows", "list-panes", "capture-pane", "has-session", "display-message", "show-options", "-V", "":
		if v == "" && len(c.args) > 0 {
			break
		}
		c.add(Read, OnlyReads.By(c.name, v, ""))
		return
	case "kill-session", "kill-server", "kill-window", "kill-pane", "detach", "attach", "attach-session", "a", "-r", "-ls", "-list":
		c.add(LocalWrite, LocalWork.By(c.name, v, ""))
		return
	}
	c.add(Opaque, RunsUnread.By(c.name, v, ""))
}

func scriptCmdFamily() family {
	return family{names: []string{"script"}, classify: scriptCmd}
}

func scriptCmd(c *cmd) {
	scriptWrites(c)
	if c.seg.Inline {
		c.add(LocalWrite, RunsNextWords.By("script", "", ""))
		return
	}
	if c.has("-c", "--command") {
		c.add(Opaque, RunsUnread.By("script", "-c", ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("script", "", ""))
}

func runsCommandFamily() family {
	return family{names: []string{"watchexec", "nodemon", "hyperfine", "concurrently", "dotenv"}, classify: runsCommand}
}

// runsCommand: a program whose command the shell reader split off; it
// watches, times or starts what is classified on its own.
func runsCommand(c *cmd) {
	if c.seg.Inline {
		c.add(LocalWrite, RunsNextWords.By(c.name, "", ""))
		return
	}
	if c.name == "nodemon" && len(c.operands()) == 0 {
		c.add(LocalWrite, RunsProject.By("nodemon", "", ""))
		return
	}
	if c.has("--version", "-V", "--help", "-h") {
		c.add(Read, PrintsHelp.By(c.name, "", ""))
		return
	}
	c.add(Opaque, RunsUnread.By(c.name, "", ""))
}

func direnv(c *cmd) {
	switch v := c.verb(); v {
	case "exec":
		runsCommand(c)
	case "allow", "permit", "grant":
		c.add(Opaque, RunsLater.By("direnv", "allow", ".envrc"))
	default:
		c.byVerb(v, verbRule{nil, LocalWrite, LocalWork}, verbRule{[]string{"status", "version", "help", "dump", ""}, Read, OnlyReads})
	}
}

func direnvFamily() family {
	return family{names: []string{"direnv"}, classify: direnv}
}

func miseFamily() family { return family{names: []string{"mise"}, classify: mise} }

func mise(c *cmd) {
	switch v := c.verb(); v {
	case "exec", "x":
		runsCommand(c)
	case "run", "r", "tasks":
		c.add(LocalWrite, RunsProject.By("mise", v, ""))
		c.namedTask(c.words(2)[1])
		c.cwdWrite()
	case "trust":
		c.add(Opaque, RunsLater.By("mise", "trust", ""))
	case "ls", "list", "current", "where", "which", "doctor", "version", "--version", "env", "settings", "config", "plugins", "outdated", "":
		c.add(Read, OnlyReads.By("mise", v, ""))
	default:
		c.add(LocalWrite, ChangesPackages.By("mise", v, ""))
	}
}

func awsVaultFamily() family { return family{names: []string{"aws-vault"}, classify: awsVault} }

func awsVault(c *cmd) {
	if v := c.verb(); v != "exec" {
		c.byVerb(v, verbRule{nil, Secret, TouchesCredential}, verbRule{[]string{"list", "ls", "--version", "help", ""}, Read, OnlyReads})
		return
	}
	runsCommand(c)
}

func sops(c *cmd) {
	v := c.verb()
	switch {
	case v == "exec-env" || v == "exec-file":
		runsCommand(c)
	case c.has("-d", "--decrypt", "-x", "--extract") || v == "decrypt":
		c.add(Secret, PrintsCredential.By("sops", "", ""))
	default:
		c.add(LocalWrite, ChangesProject.By("sops", "", ""))
		for _, w := range c.operands() {
			c.write(w)
		}
	}
}

func sopsFamily() family {
	return family{names: []string{"sops"}, classify: sops}
}

func dopplerFamily() family {
	return family{names: []string{"doppler"}, classify: doppler}
}

func doppler(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "run":
		runsCommand(c)
	case ws[0] == "secrets" && (ws[1] == "" || ws[1] == "get" || ws[1] == "download"), ws[0] == "login", ws[0] == "configure":
		c.add(Secret, TouchesCredential.By("doppler", ws[0], ""))
	case ws[0] == "secrets":
		if !c.literalWords(2) {
			c.add(Opaque, UnknownVerb.By("doppler", c.written(2), ""))
			return
		}
		c.add(RemoteWrite, ChangesServer.By("doppler secrets", ws[1], ""))
	case ws[0] == "configs" || ws[0] == "environments" || ws[0] == "projects" || ws[0] == "workplace":
		// doppler configs --help: clone, create, delete, get, lock,
		// tokens, unlock, update, and list with no command.
		if !c.literalWords(2) {
			c.add(Opaque, UnknownVerb.By("doppler", c.written(2), ""))
			return
		}
		switch ws[1] {
		case "", "get", "list":
			c.add(Read, OnlyReads.By("doppler "+ws[0], ws[1], ""))
		case "delete":
			c.add(Destructive, Destroys.By("doppler "+ws[0], "delete", ""))
		case "tokens":
			c.add(Secret, TouchesCredential.By("doppler "+ws[0], "tokens", ""))
		case "create", "update", "clone", "lock", "unlock", "rename":
			c.add(RemoteWrite, ChangesServer.By("doppler "+ws[0], ws[1], ""))
		default:
			c.add(Opaque, UnknownVerb.By("doppler "+ws[0], ws[1], ""))
		}
	case ws[0] == "setup":
		c.add(LocalWrite, ChangesLocalSettings.By("doppler", "setup", ""))
	case ws[0] == "activity" || ws[0] == "me" || ws[0] == "help" || ws[0] == "completion" || ws[0] == "--version" || ws[0] == "":
		c.add(Read, OnlyReads.By("doppler", ws[0], ""))
	default:
		c.add(Opaque, UnknownVerb.By("doppler", ws[0], ""))
	}
}

// credstash: get and getall print the secrets of the store; list prints
// names and versions (credstash's README).
func credstash(c *cmd) {
	c.byVerb(c.verb(), verbRule{nil, RemoteWrite, ChangesServer},
		verbRule{[]string{"get", "getall"}, Secret, PrintsCredential},
		verbRule{[]string{"list", "keys", ""}, Read, OnlyReads},
		verbRule{[]string{"delete"}, Destructive, Destroys})
}

func credstashFamily() family {
	return family{names: []string{"credstash"}, classify: credstash}
}

func envManagerFamily2() family {
	return family{names: []string{"hatch", "rye", "pixi", "devbox", "nix-shell"}, classify: envManager}
}

// envManager: an environment manager's run verb runs the command read
// after it; other verbs install or select packages.
func envManager(c *cmd) {
	v := c.verb()
	switch {
	case c.seg.Inline:
		c.add(LocalWrite, RunsNextWords.By(c.name, v, ""))
	case v == "run" || v == "exec" || v == "shell" || c.name == "nix-shell" && c.has("--run", "--command"):
		c.add(Opaque, RunsUnread.By(c.name, v, ""))
	case v == "publish" || v == "upload":
		if c.has("--dry-run") {
			c.add(Read, OnlyReads.By(c.name, v+" --dry-run", ""))
			return
		}
		c.add(Publish, Publishes.By(c.name, v, ""))
	case v == "list" || v == "info" || v == "show" || v == "--version" || v == "version" || v == "env" && c.words(2)[1] == "list" || v == "graph":
		c.add(Read, OnlyReads.By(c.name, v, ""))
	default:
		c.add(LocalWrite, LocalWork.By(c.name, v, ""))
		c.namedTask(v)
		c.cwdWrite()
		c.remotePackages()
	}
}

func nix(c *cmd) {
	ws := c.words(2)
	switch {
	case c.seg.Inline:
		c.add(LocalWrite, RunsNextWords.By("nix", ws[0], ""))
	case ws[0] == "run" || ws[0] == "shell" || ws[0] == "develop":
		for _, w := range c.operands()[1:] {
			if strings.Contains(w.Value, ":") && !strings.HasPrefix(w.Value, "nixpkgs#") && !strings.HasPrefix(w.Value, ".") {
				c.add(DownloadExec, FetchesCodeThatRuns.By("nix", ws[0], w.Raw))
				return
			}
		}
		c.add(LocalWrite, LocalWork.By("nix", ws[0], ""))
	case ws[0] == "eval" || ws[0] == "search" || ws[0] == "show-config" || ws[0] == "path-info" || ws[0] == "log" || ws[0] == "why-depends" ||
		ws[0] == "flake" && (ws[1] == "show" || ws[1] == "metadata" || ws[1] == "info" || ws[1] == "check"):
		c.add(Read, OnlyReads.By("nix", ws[0], ""))
	default:
		c.add(LocalWrite, LocalWork.By("nix", ws[0], ""))
		c.cwdWrite()
	}
}

func nixFamily() family {
	return family{names: []string{"nix"}, classify: nix}
}

// makeStdin: make -f - reads its makefile from stdin, where sayso does
// not look.
func makeStdin(c *cmd) bool {
	for i, w := range c.args {
		v := w.Value
		f := ""
		switch {
		case (v == "-f" || v == "--file" || v == "--makefile") && i+1 < len(c.args):
			f = c.args[i+1].Value
			if !c.args[i+1].Literal {
				f = "-"
			}
		case strings.HasPrefix(v, "-f") && len(v) > 2:
			f = v[2:]
		case strings.HasPrefix(v, "--file=") || strings.HasPrefix(v, "--makefile="):
			_, f, _ = strings.Cut(v, "=")
		}
		if f == "-" || f == "/dev/stdin" || strings.HasPrefix(f, "/dev/fd/") || strings.HasPrefix(f, "/proc/self/fd/") {
			c.add(Opaque, RunsUnread.By(c.name, "", ""))
			return false
		}
	}
	return false
}

// agentUnchecked: an agent started with its permission checks off runs
// whatever it decides, unseen.
func agentUnchecked(c *cmd) {
	for i, w := range c.args {
		v := w.Value
		switch {
		case v == "--dangerously-skip-permissions" || v == "--dangerously-bypass-approvals-and-sandbox" || v == "--yolo" ||
			v == "--full-auto" || v == "--yes-always" || v == "--dangerously-allow-all" || v == "--force" && c.name == "cursor-agent" ||
			(v == "-y" || v == "--yes") && (c.name == "gemini" || c.name == "aider" || c.name == "qwen") ||
			v == "--permission-mode=bypassPermissions" || v == "--approval-mode=yolo" || v == "--sandbox=danger-full-access" ||
			(v == "--permission-mode" || v == "--approval-mode" || v == "--sandbox" || v == "-s") && i+1 < len(c.args) &&
				(c.args[i+1].Value == "bypassPermissions" || c.args[i+1].Value == "yolo" || c.args[i+1].Value == "danger-full-access"):
			c.add(Privilege, AgentUnchecked.By(c.name, v, ""))
			c.add(Opaque, RunsUnread.By(c.name, v, ""))
			return
		}
	}
}

// launched: a session or window whose command the shell reader split off
// is that command.
func launched(c *cmd) bool {
	if c.seg.Inline {
		c.add(LocalWrite, RunsNextWords.By(c.name, "", ""))
		return true
	}
	return false
}
