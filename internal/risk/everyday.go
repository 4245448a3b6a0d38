package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// addEveryday adds the classifiers of everyday tools that take more than
// a class: release tools, task runners, device and system tools.
func addEveryday(programs map[string]func(*cmd)) {
	for n, fn := range everydayPrograms() {
		programs[n] = fn
	}
}

// everydayPrograms are the everyday tools addEveryday adds.
func everydayPrograms() map[string]func(*cmd) {
	return map[string]func(*cmd){
		"lerna": releaseTool, "changeset": releaseTool, "semantic-release": releaseTool, "release-it": releaseTool,
		"np": releaseTool, "chromatic": releaseTool, "flit": releaseTool, "maturin": releaseTool, "wasm-pack": releaseTool,
		"eas": releaseTool, "nuget": releaseTool, "pod": releaseTool, "cap": namedTaskRunner, "fastlane": namedTaskRunner,
		"rails": rails, "wp": wpCLI, "husky": husky, "dbt": dbt, "cdktf": cdk, "copilot": genericCloud,
		"kapp": deployCLI, "istioctl": deployCLI, "linkerd": deployCLI, "velero": deployCLI,
		"sentry-cli": sentryCLI, "playwright-cli": browserProgram, "pgcli": sqlClient, "mycli": sqlClient, "litecli": sqlClient,
		"usql": sqlClient, "adb": adb, "defaults": defaults, "nmap": networkTool, "mtr": networkTool, "iperf3": networkTool,
		"ab": networkTool, "wrk": networkTool, "k6": networkTool, "hurl": opaqueProgram, "tcpdump": sniffer, "tshark": sniffer,
		"lazygit": opaqueProgram, "lazydocker": opaqueProgram, "ranger": opaqueProgram, "broot": opaqueProgram, "wine": opaqueProgram,
		"pkg": apt, "choco": apt, "scoop": apt, "winget": apt, "emerge": apt, "xbps-install": apt, "nix-env": apt, "guix": apt,
		"flox": apt, "eopkg": apt, "pkgin": apt, "pkgman": apt, "flatpak": apt, "softwareupdate": privileged, "installer": privileged,
		"update-alternatives": privileged, "ldconfig": privileged, "networksetup": privileged, "pmset": privileged, "nmcli": privileged,
		"fastapi": fastapiCLI, "rimraf": rimraf, "mkdirp": func(c *cmd) { c.name = "mkdir"; writeOperands(c) },
		"ncp": func(c *cmd) { c.name = "cp"; copyMove(c) }, "copyfiles": func(c *cmd) { c.name = "cp"; copyMove(c) },
		"npm-run-all": namedTaskRunner, "run-s": namedTaskRunner, "run-p": namedTaskRunner, "perf": perfCmd, "fuser": fuser,
		"chattr": chattr, "cron": privileged, "envsubst": envsubst, "kafka-topics.sh": kafkaTopics, "kafka-console-producer.sh": kafkaProducer, "kafka-console-consumer.sh": readOnly,
		"kafka-consumer-groups.sh": kafkaGroups, "corepack": corepack,
	}
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

// namedTaskRunner runs lanes or tasks named by its arguments (cap
// production deploy, fastlane release).
func namedTaskRunner(c *cmd) {
	for _, w := range c.operands() {
		c.namedTask(w.Value)
	}
	c.add(LocalWrite, RunsProject.By(c.name, "", ""))
	c.cwdWrite()
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

func husky(c *cmd) {
	if v := c.verb(); v == "" || v == "install" || v == "init" || v == "add" || v == "set" {
		c.add(InstructionPatch, RunsLater.By("husky", v, ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("husky", "", ""))
}

// dbt builds tables in the warehouse its profile names.
func dbt(c *cmd) {
	c.byVerb(c.verb(), verbRule{nil, Opaque, RunsUnread},
		verbRule{[]string{"run", "build", "seed", "snapshot", "run-operation"}, RemoteWrite, ChangesServer},
		verbRule{[]string{"compile", "parse", "ls", "list", "debug", "deps", "docs", "clean", "init", "test", "show", "source", "--version", ""}, LocalWrite, LocalWork})
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

func adb(c *cmd) {
	c.byVerb(c.verb(), verbRule{nil, LocalWrite, LocalWork},
		verbRule{[]string{"devices", "version", "logcat", "get-state", "get-serialno", "help", ""}, Read, OnlyReads},
		verbRule{[]string{"shell", "exec-out", "root", "remount", "sideload"}, Opaque, RunsUnread})
}

func defaults(c *cmd) {
	switch v := c.verb(); v {
	case "read", "read-type", "domains", "find", "export", "":
		c.add(Read, OnlyReads.By("defaults", v, ""))
	default:
		c.add(LocalWrite, ChangesLocalSettings.By("defaults", v, ""))
	}
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

// rimraf deletes its operands as rm -rf does.
func rimraf(c *cmd) {
	rf := shell.Word{Raw: "-rf", Value: "-rf", Literal: true}
	inner := &cmd{a: c.a, i: c.i, seg: c.seg, name: "rm", args: append([]shell.Word{rf}, c.operands()...)}
	rm(inner)
}

// perfCmd: perf record, stat and trace run a command; report and list
// read.
func perfCmd(c *cmd) {
	c.byVerb(c.verb(), verbRule{nil, Opaque, RunsUnread},
		verbRule{[]string{"report", "list", "annotate", "script", "diff", "version", "--version", "help", ""}, Read, OnlyReads})
}

func fuser(c *cmd) {
	if c.has("-k", "--kill") || c.shortFlag('k') {
		c.add(LocalWrite, SignalsProcess.By("fuser", "-k", ""))
		return
	}
	c.add(Read, OnlyReads.By("fuser", "", ""))
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
