package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

func corepackFamily() family {
	return family{names: []string{"corepack"}, classify: corepack}
}

// corepack: enable and disable put shims of the package managers beside
// node's own programs, install -g and prepare --activate set the version
// every project gets (corepack(1)): installs for the whole machine. The
// rest works in the project and corepack's cache.
func corepack(c *cmd) {
	switch v := c.verb(); {
	case v == "enable" || v == "disable" || v == "install" && c.has("-g", "--global") || v == "prepare" && c.has("--activate"):
		c.add(LocalWrite, ChangesPackages.By("corepack", v, ""))
		c.installsForMachine("")
	default:
		c.add(LocalWrite, LocalWork.By("corepack", v, ""))
		c.cwdWrite()
	}
}

func releaseToolFamily() family {
	return family{names: []string{"lerna", "changeset", "semantic-release", "release-it", "np", "chromatic", "flit", "maturin", "wasm-pack", "eas", "nuget", "pod"}, classify: releaseTool}
}

// releaseTool: the verbs that publish are publishing; the rest builds.
func releaseTool(c *cmd) {
	ws := c.words(2)
	v := ws[0]
	switch {
	case c.name == "semantic-release" || c.name == "release-it" || c.name == "np" || c.name == "chromatic":
		if c.has("--dry-run", "-d", "--dryRun") && c.name != "chromatic" {
			c.add(LocalWrite, LocalWork.By(c.name, "--dry-run", ""))
			return
		}
		c.add(Publish, Publishes.By(c.name, "", ""))
	case v == "publish" || v == "upload" || v == "push" || v == "release" || v == "submit" ||
		c.name == "pod" && v == "trunk" && ws[1] == "push" || c.name == "lerna" && v == "version" && !c.has("--no-push"):
		c.add(Publish, Publishes.By(c.name, v, ""))
	case c.name == "eas" && (v == "update" || v == "deploy"):
		c.add(Deploy, Deploys.By("eas", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By(c.name, v, ""))
		c.cwdWrite()
	}
}

func namedTaskRunnerFamily() family {
	return family{names: []string{"cap", "fastlane", "npm-run-all", "run-s", "run-p"}, classify: namedTaskRunner}
}

// namedTaskRunner runs lanes or tasks named by its arguments (cap
// production deploy, fastlane release).
func namedTaskRunner(c *cmd) {
	for _, w := range c.operands() {
		c.namedTask(w.Value)
	}
	c.add(LocalWrite, RunsProject.By(c.name, "", ""))
	c.cwdWrite()
}

func railsFamily() family {
	return family{names: []string{"rails"}, classify: rails}
}

func rails(c *cmd) {
	if undoesMigrations(c, "rails") {
		return
	}
	v := c.verb()
	switch {
	case v == "runner" || v == "r" || v == "console" || v == "c" || v == "dbconsole" || v == "db":
		c.add(Opaque, RunsUnread.By("rails", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("rails", v, ""))
		c.namedTask(v)
		c.cwdWrite()
	}
}

func wpCLIFamily() family {
	return family{names: []string{"wp"}, classify: wpCLI}
}

func wpCLI(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "eval" || ws[0] == "eval-file" || ws[0] == "shell" || ws[0] == "db" && (ws[1] == "query" || ws[1] == "cli"):
		c.add(Opaque, RunsUnread.By("wp", ws[0], ""))
	case ws[0] == "db" && (ws[1] == "drop" || ws[1] == "reset" || ws[1] == "clean"), ws[1] == "delete":
		c.add(Destructive, Destroys.By("wp", ws[0]+" "+ws[1], ""))
	default:
		c.add(LocalWrite, LocalWork.By("wp", ws[0]+" "+ws[1], ""))
	}
}

func huskyFamily() family {
	return family{names: []string{"husky"}, classify: husky}
}

func husky(c *cmd) {
	if v := c.verb(); v == "" || v == "install" || v == "init" || v == "add" || v == "set" {
		c.add(InstructionPatch, RunsLater.By("husky", v, ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("husky", "", ""))
}

func dbtFamily() family {
	return family{names: []string{"dbt"}, classify: dbt}
}

// dbt builds tables in the warehouse its profile names.
func dbt(c *cmd) {
	c.byVerb(c.verb(), verbRule{nil, Opaque, RunsUnread},
		verbRule{[]string{"run", "build", "seed", "snapshot", "run-operation"}, RemoteWrite, ChangesServer},
		verbRule{[]string{"compile", "parse", "ls", "list", "debug", "deps", "docs", "clean", "init", "test", "show", "source", "--version", ""}, LocalWrite, LocalWork})
}

func sentryCLIFamily() family {
	return family{names: []string{"sentry-cli"}, classify: sentryCLI}
}

func sentryCLI(c *cmd) {
	ws := c.words(3)
	switch {
	case ws[0] == "info" || ws[0] == "--version" || ws[0] == "help" || ws[1] == "list" || ws[1] == "info" || ws[1] == "propose-version":
		c.add(Read, OnlyReads.By("sentry-cli", ws[0]+" "+ws[1], ""))
	case ws[0] == "login":
		c.add(Secret, StoresCredential.By("sentry-cli", "login", ""))
	case ws[0] == "releases" && ws[2] == "new" && ws[1] == "deploys":
		c.add(Deploy, Deploys.By("sentry-cli", "releases", ""))
	default:
		c.add(RemoteWrite, ChangesServer.By("sentry-cli", ws[0]+" "+ws[1], ""))
	}
}

func adbFamily() family {
	return family{names: []string{"adb"}, classify: adb}
}

func adb(c *cmd) {
	c.byVerb(c.verb(), verbRule{nil, LocalWrite, LocalWork},
		verbRule{[]string{"devices", "version", "logcat", "get-state", "get-serialno", "help", ""}, Read, OnlyReads},
		verbRule{[]string{"shell", "exec-out", "root", "remount", "sideload"}, Opaque, RunsUnread})
}

func defaultsFamily() family {
	return family{names: []string{"defaults"}, classify: defaults}
}

func defaults(c *cmd) {
	switch v := c.verb(); v {
	case "read", "read-type", "domains", "find", "export", "":
		c.add(Read, OnlyReads.By("defaults", v, ""))
	default:
		c.add(LocalWrite, ChangesLocalSettings.By("defaults", v, ""))
	}
}

func networkToolFamily() family {
	return family{names: []string{"nmap", "mtr", "iperf3", "ab", "wrk", "k6"}, classify: networkTool}
}

func networkTool(c *cmd) {
	for _, w := range c.operands() {
		if !localHost(strings.TrimPrefix(strings.TrimPrefix(strings.SplitN(strings.TrimPrefix(strings.TrimPrefix(w.Value, "http://"), "https://"), "/", 2)[0], "["), "]")) &&
			!strings.HasPrefix(w.Value, "localhost:") && !strings.HasPrefix(w.Value, "127.0.0.1:") {
			c.add(Network, ReachesHost.By(c.name, "", w.Raw))
			return
		}
	}
	c.add(LocalWrite, ServesLocally.By(c.name, "", ""))
}

func snifferFamily() family {
	return family{names: []string{"tcpdump", "tshark"}, classify: sniffer}
}

func sniffer(c *cmd) {
	c.add(Privilege, ChangesSystem.By(c.name, "", ""))
	c.add(Secret, ReadsCredential.By(c.name, "", ""))
}

// wordsAfterGlobals returns the verb path of a CLI whose global options
// take a value (npm -w pkg, cargo +toolchain): those are skipped.
func wordsAfterGlobals(args []shell.Word, takes func(string) bool) []shell.Word {
	i := 0
	for i < len(args) {
		v := args[i].Value
		switch {
		case strings.HasPrefix(v, "+"):
			i++
		case strings.HasPrefix(v, "-") && !strings.Contains(v, "=") && takes(v):
			i += 2
		case strings.HasPrefix(v, "-"):
			i++
		default:
			return args[i:]
		}
	}
	return nil
}

func fastapiCLIFamily() family {
	return family{names: []string{"fastapi"}, classify: fastapiCLI}
}

// fastapiCLI: fastapi dev and run serve the project; deploy ships it.
func fastapiCLI(c *cmd) {
	switch v := c.verb(); v {
	case "deploy", "login":
		if v == "login" {
			c.add(Secret, StoresCredential.By("fastapi", "login", ""))
			return
		}
		c.add(Deploy, Deploys.By("fastapi", "deploy", ""))
	default:
		c.add(LocalWrite, ServesLocally.By("fastapi", v, ""))
		c.devServer()
	}
}

func rimrafFamily() family {
	return family{names: []string{"rimraf"}, classify: rimraf}
}

// rimraf deletes its operands as rm -rf does.
func rimraf(c *cmd) {
	rf := shell.Word{Raw: "-rf", Value: "-rf", Literal: true}
	inner := &cmd{a: c.a, i: c.i, seg: c.seg, name: "rm", args: append([]shell.Word{rf}, c.operands()...)}
	rm(inner)
}

func perfCmdFamily() family {
	return family{names: []string{"perf"}, classify: perfCmd}
}

// perfCmd: perf record, stat and trace run a command; report and list
// read.
func perfCmd(c *cmd) {
	c.byVerb(c.verb(), verbRule{nil, Opaque, RunsUnread},
		verbRule{[]string{"report", "list", "annotate", "script", "diff", "version", "--version", "help", ""}, Read, OnlyReads})
}

func fuserFamily() family {
	return family{names: []string{"fuser"}, classify: fuser}
}

func fuser(c *cmd) {
	if c.has("-k", "--kill") || c.shortFlag('k') {
		c.add(LocalWrite, SignalsProcess.By("fuser", "-k", ""))
		return
	}
	c.add(Read, OnlyReads.By("fuser", "", ""))
}

func chattrFamily() family {
	return family{names: []string{"chattr"}, classify: chattr}
}

// chattr changes file attributes: the files are written.
func chattr(c *cmd) {
	c.add(LocalWrite, ChangesProject.By("chattr", "", ""))
	for _, w := range c.operands() {
		if !strings.HasPrefix(w.Value, "+") && !strings.HasPrefix(w.Value, "=") {
			c.path(OpWrite, w)
		}
	}
}

func envsubstFamily() family {
	return family{names: []string{"envsubst"}, classify: envsubst}
}

// envsubst prints its input with the environment's values put in: without
// a list of names, every variable the input names, secrets included.
func envsubst(c *cmd) {
	ops := c.operands()
	if len(ops) == 0 {
		c.add(Secret, TouchesCredential.By("envsubst", "", ""))
		return
	}
	for _, w := range ops {
		if !w.Literal {
			c.add(Secret, BuiltAtRunTime.By("envsubst", "", ""))
			return
		}
		for _, f := range strings.FieldsFunc(w.Value, func(r rune) bool { return r == '$' || r == ' ' || r == ',' || r == '{' || r == '}' }) {
			if secretVar(f) {
				c.add(Secret, PrintsCredential.By("envsubst", "", f))
				return
			}
		}
	}
	c.add(Read, TransformsText.By("envsubst", "", ""))
}

func mkdirpFamily() family {
	return family{names: []string{"mkdirp"}, classify: mkdirp}
}

// mkdirp is mkdir -p: it makes the folders it names.
func mkdirp(c *cmd) {
	c.name = "mkdir"
	writeOperands(c)
}

func copyLikeFamily() family {
	return family{names: []string{"ncp", "copyfiles"}, classify: copyLike}
}

// copyLike: ncp and copyfiles copy as cp does.
func copyLike(c *cmd) {
	c.name = "cp"
	copyMove(c)
}
