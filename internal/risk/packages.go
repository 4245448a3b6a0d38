// Package managers and package runners: installs, publishes, and what a runner downloads.

package risk

import (
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// The package managers and package runners. Each checks the package specs
// it is given for code from elsewhere (remoteSpecs, options.go).

// npmFamily: npm, pnpm and yarn read their global options before the verb.
func npmFamily() family {
	return family{names: []string{"npm", "pnpm", "yarn"}, traits: program.RunsArgs, before: npmGlobals, classify: npm, after: remoteSpecs}
}

// npxFamily runs a package, downloaded when the project does not have it.
func npxFamily() family {
	return family{names: []string{"npx", "pnpx", "bunx", "uvx"}, traits: program.RunsArgs | program.Runner, classify: npx, after: remoteSpecs}
}

// cargoFamily: cargo reads its global options before the verb.
func cargoFamily() family {
	return family{names: []string{"cargo"}, before: cargoGlobals, classify: cargo, after: remoteSpecs}
}

func pipFamily() family {
	return family{names: []string{"pip", "pip3"}, classify: pip, after: remoteSpecs}
}

func uvFamily() family {
	return family{names: []string{"uv"}, traits: program.RunsArgs, classify: uv, after: remoteSpecs}
}

func pipxFamily() family {
	return family{names: []string{"pipx"}, classify: pipx, after: remoteSpecs}
}

func poetryFamily() family {
	return family{names: []string{"poetry"}, traits: program.RunsArgs, classify: poetry, after: remoteSpecs}
}

func gemFamily() family {
	return family{names: []string{"gem"}, classify: gem, after: remoteSpecs}
}

func composerFamily() family {
	return family{names: []string{"composer"}, classify: composer, after: remoteSpecs}
}

func npm(c *cmd) {
	ws := c.words(3)
	v := ws[0]
	if c.name == "yarn" && v == "npm" {
		v = ws[1]
	}
	if c.name == "npm" {
		v = NpmCommand(v)
	}
	n := c.name + " " + v
	switch v {
	case "publish", "unpublish", "deprecate", "undeprecate", "dist-tag", "owner", "access", "team", "org", "trust", "stage":
		if c.has("--dry-run") {
			c.add(Read, OnlyReads.By(n, "--dry-run", ""))
			return
		}
		if v == "dist-tag" && (ws[1] == "ls" || ws[1] == "list") || v == "owner" && (ws[1] == "ls" || ws[1] == "list") || v == "access" && strings.HasPrefix(ws[1], "list") {
			c.add(Read, OnlyReads.By(n, ws[1], ""))
			return
		}
		c.add(Publish, Publishes.By(n, "", ""))
		at := 1
		if ws[0] != v {
			at = 2 // yarn npm publish
		}
		if w, ok := c.word(at); ok && v == "publish" {
			c.path(OpRead, w) // the folder or tarball it publishes
		}
	case "star", "unstar":
		c.add(RemoteWrite, ChangesServer.By(n, "", ""))
	case "login", "adduser", "add-user", "token", "logout", "profile":
		c.add(Secret, TouchesCredential.By(n, "", ""))
		if v == "login" || v == "adduser" || v == "add-user" || v == "logout" {
			c.installsForMachine(npmrc(c.args)) // the token lands in the person's .npmrc
		}
	case "ls", "list", "view", "info", "show", "outdated", "why", "explain", "search", "help", "doctor", "whoami", "ping",
		"prefix", "root", "bin", "fund", "licenses", "docs", "repo", "bugs", "query", "-v", "--version", "-h", "--help":
		c.add(Read, OnlyReads.By(n, "", ""))
	case "config", "get", "set":
		if v == "set" || ws[1] == "set" || ws[1] == "delete" || ws[1] == "edit" {
			c.add(LocalWrite, ChangesLocalSettings.By(n, "", ""))
			if (c.name == "npm" || c.name == "pnpm") && !projectLocation(c.args) {
				// the person's ~/.npmrc: script-shell, registry, node-options
				c.add(InstructionPatch, RunsLater.By(n, "", ""))
				c.installsForMachine(npmrc(c.args))
			}
			if c.name == "yarn" && !c.has("--home") {
				c.installsForMachine("~/.yarnrc.yml", "~/.yarnrc")
			}
			return
		}
		c.add(Read, OnlyReads.By(n, "", ""))
	case "audit":
		if ws[1] == "fix" {
			c.add(LocalWrite, LocalWork.By(n, "fix", ""))
			c.cwdWrite()
			return
		}
		c.add(Read, OnlyReads.By(n, "", ""))
	case "exec", "x", "dlx", "create", "init":
		c.add(LocalWrite, RunsPackageProgram.By(n, "", ""))
		c.cwdWrite()
		c.remotePackages()
		if ops := c.operands(); len(ops) > 1 && (ops[0].Value == "dlx" || ops[0].Value == "x" || ops[0].Value == "exec") &&
			!(c.name == "npm" && c.ownBin(ops[1].Value)) {
			c.notTheProjects(ops[1].Value)
		}
		for i, w := range c.args {
			if v, ok := strings.CutPrefix(w.Value, "--package="); ok {
				c.notTheProjects(v)
			} else if (w.Value == "-p" || w.Value == "--package") && i+1 < len(c.args) {
				c.notTheProjects(c.args[i+1].Value)
			}
		}
	case "install", "i", "ci", "add", "update", "up", "upgrade", "uninstall", "remove", "rm", "un", "dedupe", "prune",
		"rebuild", "link", "unlink", "pack", "version", "", "import", "patch", "patch-commit", "store", "cache", "fetch", "install-test", "it", "install-ci-test":
		c.add(LocalWrite, ChangesPackages.By(n, "", ""))
		c.cwdWrite()
		c.remotePackages()
		if c.has("-g", "--global", "--location=global") || v == "link" && len(c.operands()) <= 1 && c.name != "yarn" {
			c.installsForMachine("")
		}
		if v == "install-test" || v == "it" || v == "install-ci-test" {
			c.scriptBody("test") // installs, then runs the test script
		}
	case "run", "run-script", "rum", "urn":
		c.add(LocalWrite, RunsProject.By(n, "", ""))
		c.namedTask(ws[1])
		c.scriptBody(ws[1])
		c.cwdWrite()
	case "test", "t", "tst", "start", "stop", "restart", "build", "dev", "lint", "format", "serve", "watch", "typecheck", "check":
		c.add(LocalWrite, RunsProject.By(n, "", ""))
		script := v
		if v == "t" || v == "tst" {
			script = "test"
		}
		c.scriptBody(script)
		c.cwdWrite()
	case "global":
		if c.name == "yarn" {
			switch ws[1] {
			case "list", "bin", "dir":
				c.add(Read, OnlyReads.By(n, ws[1], ""))
			default:
				c.add(LocalWrite, ChangesPackages.By(n, ws[1], ""))
				c.installsForMachine("")
				c.remotePackages()
			}
			return
		}
		fallthrough
	default:
		// pnpm and yarn run a script given by name.
		c.add(LocalWrite, RunsProject.By(n, "", ""))
		c.namedTask(v)
		c.scriptBody(v)
		c.cwdWrite()
	}
}

// installsForMachine records the writes of an install for the whole
// machine — a global package, a tool, a binary — outside the project,
// where the person's programs live: each folder named (relative to the
// home with ~), or a write sayso cannot name when it is "" (npm's global
// prefix is the person's setting). A later step, or the person, runs what
// lands there.
func (c *cmd) installsForMachine(dirs ...string) {
	for _, d := range dirs {
		if d == "" {
			c.a.out.Paths = append(c.a.out.Paths, PathUse{Op: OpWrite, Raw: c.name + "'s global packages folder", Segment: c.i})
			continue
		}
		c.path(OpWrite, shell.Word{Raw: d, Value: d, Literal: !strings.HasPrefix(d, "\x00"), Tilde: strings.HasPrefix(d, "~")})
	}
}

// envDir is the folder a variable set in the step names, with sub below
// it, or def when the step does not set it.
func (c *cmd) envDir(name, sub, def string) string {
	v, ok := c.a.env[name]
	if !ok {
		return def
	}
	if sub != "" {
		return v + "/" + sub
	}
	return v
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
	c.add(LocalWrite, RunsPackageProgram.By(c.name, "", ""))
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
			c.notTheProjects(strings.TrimPrefix(v, "--package="))
			continue
		}
		if strings.HasPrefix(v, "-") {
			continue
		}
		c.remotePackage(v)
		if !(c.name == "npx" && c.ownBin(v)) {
			c.notTheProjects(v)
		}
		name := v
		if at := strings.LastIndexByte(name, '@'); at > 0 {
			name = name[:at]
		}
		name = name[strings.LastIndexByte(name, '/')+1:]
		inner := &cmd{a: c.a, i: c.i, seg: c.seg, name: name, args: c.args[i+1:]}
		if fn, ok := programs()[name]; ok && name != c.name {
			fn(inner)
		}
		return
	}
}

// notTheProjects: a package runner of a package the project does not
// depend on downloads it from the registry and runs it. spec is the
// package as the step names it: a version after its name may only be a
// version, range or tag (typescript@npm:other, typescript@evil/repo and
// file:/elsewhere run another package), and a scoped name is the
// project's only as a whole (@evil/typescript is not typescript).
func (c *cmd) notTheProjects(spec string) {
	known := c.a.ctx.Packages
	if known == nil || spec == "" || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
		return
	}
	name, version := spec, ""
	if at := strings.IndexByte(spec[1:], '@'); at >= 0 {
		name, version = spec[:at+1], spec[at+2:]
	}
	if strings.ContainsAny(name, ":\\") || strings.ContainsAny(version, ":/\\#") || strings.HasPrefix(version, ".") {
		c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, "", spec))
		return
	}
	if c.name == "uvx" {
		name = strings.ToLower(name) // PyPI names are case-insensitive
	}
	if !known[name] {
		c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, "", name))
	}
}

// ownBin reports whether spec, the command npx or npm exec is given
// without --package, is one of the project's own bin entries: npm runs a
// command that the local package.json's bin declares from the project's
// own folder, not from the registry (npm's libnpmexec, hasPkgBin). A
// version after the name asks the registry. pnpm dlx, yarn dlx, bunx and
// uvx always fetch the package by that name: their callers do not ask.
func (c *cmd) ownBin(spec string) bool {
	return c.a.ctx.Commands[spec] == CommandOfPackageJSON
}

// remotePackage: a package given as a URL or a repository runs code
// fetched from it.
func (c *cmd) remotePackage(v string) {
	if strings.HasPrefix(v, "git+") || strings.HasPrefix(v, "git:") || strings.HasPrefix(v, "github:") || strings.HasPrefix(v, "gitlab:") ||
		strings.HasPrefix(v, "bitbucket:") || strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
		c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, "", v))
	}
}

func pip(c *cmd) {
	v := c.words(1)[0]
	switch v {
	case "install", "download", "uninstall", "wheel":
		c.add(LocalWrite, ChangesPackages.By(c.name, v, ""))
		c.remotePackages()
		for i, w := range c.args {
			if (w.Value == "-e" || w.Value == "--editable") && i+1 < len(c.args) {
				c.args[i+1].Value = strings.TrimSpace(c.args[i+1].Value)
			}
			if w.Value == "--index-url" || w.Value == "-i" || w.Value == "--extra-index-url" {
				c.add(Network, ReachesHost.By(c.name, "", ""))
			}
		}
		c.cwdWrite()
		if v == "install" && c.has("--user") {
			c.installsForMachine("~/.local")
		}
	case "list", "show", "freeze", "check", "search", "help", "index", "inspect", "debug", "hash", "--version", "-V", "":
		c.add(Read, OnlyReads.By(c.name, v, ""))
	case "config", "cache":
		c.add(LocalWrite, LocalWork.By(c.name, v, ""))
	default:
		c.add(LocalWrite, LocalWork.By(c.name, v, ""))
	}
}

func uv(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "pip":
		pip(&cmd{a: c.a, i: c.i, seg: c.seg, name: "uv pip", args: c.args[1:]})
	case "publish":
		c.add(Publish, Publishes.By("uv", "publish", ""))
		c.worksOn(1, "--index", "--publish-url", "-u", "--username", "-p", "--password", "--token", "--trusted-publishing",
			"--check-url", "--keyring-provider", "--cache-dir", "--directory", "--python", "--allow-insecure-host") // the files it uploads
	case "tool":
		if ws[1] == "run" {
			npx(c)
			return
		}
		c.add(LocalWrite, LocalWork.By("uv tool", ws[1], ""))
		switch ws[1] {
		case "install", "upgrade", "uninstall", "update-shell":
			c.installsForMachine(c.envDir("UV_TOOL_DIR", "", "~/.local/share/uv/tools"), c.envDir("UV_TOOL_BIN_DIR", "", "~/.local/bin"))
		}
	case "--version", "version", "tree", "help":
		c.add(Read, OnlyReads.By("uv", ws[0], ""))
	default:
		c.add(LocalWrite, LocalWork.By("uv", ws[0], ""))
		c.cwdWrite()
		c.remotePackages()
	}
}

func pipx(c *cmd) {
	c.add(LocalWrite, ChangesPackages.By("pipx", "", ""))
	c.remotePackages()
	switch c.words(1)[0] {
	case "install", "install-all", "upgrade", "upgrade-all", "uninstall", "uninstall-all", "reinstall", "reinstall-all", "inject", "uninject", "pin", "unpin", "ensurepath":
		c.installsForMachine(c.envDir("PIPX_HOME", "", "~/.local/share/pipx"), c.envDir("PIPX_BIN_DIR", "", "~/.local/bin"))
	}
}

func poetry(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "publish":
		if c.has("--dry-run") {
			c.add(Read, OnlyReads.By("poetry", "publish --dry-run", ""))
			return
		}
		c.add(Publish, Publishes.By("poetry", "publish", ""))
	case "show", "check", "about", "version", "env", "search", "--version":
		c.add(Read, OnlyReads.By("poetry", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("poetry", v, ""))
		c.namedTask(v)
		c.cwdWrite()
	}
}

func twineFamily() family { return family{names: []string{"twine"}, classify: twine} }

func twine(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "upload", "register":
		c.add(Publish, Publishes.By("twine", v, ""))
		c.worksOn(1, "-r", "--repository", "--repository-url", "--sign-with", "-i", "--identity", "-u", "--username",
			"-p", "--password", "--comment", "--config-file", "--cert", "--client-cert") // the files it uploads
	case "check", "help", "":
		c.add(Read, OnlyReads.By("twine", v, ""))
	default:
		c.add(Opaque, UnknownVerb.By("twine", v, ""))
	}
}

func cargo(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "publish", "yank", "owner":
		if c.has("--dry-run", "-n") {
			c.add(Read, OnlyReads.By("cargo", v+" --dry-run", ""))
			return
		}
		c.add(Publish, Publishes.By("cargo", v, ""))
	case "login", "logout":
		c.add(Secret, StoresCredential.By("cargo", v, ""))
	case "tree", "metadata", "search", "--version", "-V", "version", "help", "locate-project", "pkgid", "verify-project", "read-manifest":
		c.add(Read, OnlyReads.By("cargo", v, ""))
	default:
		c.add(LocalWrite, RunsProject.By("cargo", v, ""))
		c.cwdWrite()
		if v == "install" || v == "uninstall" {
			for _, w := range c.args {
				if w.Value == "--git" {
					c.add(LocalWrite, ChangesRepository.By("cargo", "install --git", ""))
				}
			}
			root := c.envDir("CARGO_INSTALL_ROOT", "bin", c.envDir("CARGO_HOME", "bin", "~/.cargo/bin"))
			if r, ok := c.optValue("--root"); ok {
				root = r + "/bin"
			}
			c.installsForMachine(root)
		}
	}
}

func goCmdFamily() family {
	return family{names: []string{"go"}, classify: goCmd}
}

func goCmd(c *cmd) {
	ws := c.words(2)
	switch v := ws[0]; v {
	case "version", "env", "list", "doc", "help", "":
		if v == "env" && c.has("-w", "-u") {
			c.add(LocalWrite, ChangesLocalSettings.By("go", "env -w", ""))
			c.add(InstructionPatch, RunsLater.By("go", "env -w", ""))
			c.installsForMachine(c.envDir("GOENV", "", "~/.config/go/env"))
			return
		}
		c.add(Read, OnlyReads.By("go", v, ""))
	case "mod":
		if ws[1] == "graph" || ws[1] == "why" || ws[1] == "verify" {
			c.add(Read, OnlyReads.By("go mod", ws[1], ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("go mod", ws[1], ""))
		c.cwdWrite()
	default:
		c.add(LocalWrite, RunsProject.By("go", v, ""))
		c.cwdWrite()
		c.outputs(goOutputFlags, nil)
		if v == "run" {
			c.goRunRemote()
		}
		if v == "install" {
			c.installsForMachine(c.envDir("GOBIN", "", c.envDir("GOPATH", "bin", "~/go/bin")))
		}
	}
}

func gem(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "push", "yank", "owner":
		c.add(Publish, Publishes.By("gem", v, ""))
		if v == "push" {
			c.worksOn(1, "--host", "-k", "--key", "--otp", "-p", "--http-proxy") // the gem it pushes
		}
	case "list", "search", "info", "env", "contents", "which", "specification", "query", "outdated", "help", "--version":
		c.add(Read, OnlyReads.By("gem", v, ""))
	case "signin", "signout":
		c.add(Secret, TouchesCredential.By("gem", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("gem", v, ""))
		if v == "install" || v == "uninstall" || v == "update" {
			if d, ok := c.optValue("--install-dir"); ok {
				c.installsForMachine(d)
			} else if d, ok := c.optValue("-i"); ok {
				c.installsForMachine(d)
			} else {
				c.installsForMachine("") // the gem path the person's ruby sets
			}
		}
	}
}

func bundleFamily() family {
	return family{names: []string{"bundle"}, classify: bundle}
}

func bundle(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "list", "show", "info", "outdated", "check", "config", "version", "platform":
		c.add(Read, OnlyReads.By("bundle", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("bundle", v, ""))
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
		c.add(Read, OnlyReads.By("composer", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("composer", v, ""))
		c.namedTask(v)
		c.cwdWrite()
		c.composerRemote(v)
	}
}

func mvnFamily() family {
	return family{names: []string{"mvn", "mvnw"}, classify: mvn}
}

func mvn(c *cmd) {
	for _, w := range c.operands() {
		v := w.Value
		if v == "deploy" || strings.HasPrefix(v, "release:") || strings.HasPrefix(v, "deploy:") || strings.Contains(v, ":deploy") || strings.Contains(v, "publish") {
			c.add(Publish, Publishes.By("mvn", v, ""))
		}
	}
	c.add(LocalWrite, RunsProject.By("mvn", "", ""))
	c.cwdWrite()
	c.mvnPlugin()
}

func gradleFamily() family {
	return family{names: []string{"gradle", "gradlew"}, classify: gradle}
}

func gradle(c *cmd) {
	for _, w := range c.operands() {
		v := strings.ToLower(w.Value)
		if strings.Contains(v, "publish") || strings.Contains(v, "upload") || strings.Contains(v, "release") {
			c.add(Publish, Publishes.By("gradle", w.Value, ""))
		}
		if strings.Contains(v, "deploy") {
			c.add(Deploy, Deploys.By("gradle", w.Value, ""))
		}
	}
	c.add(LocalWrite, RunsProject.By("gradle", "", ""))
	c.cwdWrite()
	c.gradleInitScript()
}

func dotnetFamily() family {
	return family{names: []string{"dotnet"}, classify: dotnet}
}

func dotnet(c *cmd) {
	ws := c.words(2)
	if ws[0] == "nuget" && ws[1] == "push" {
		c.add(Publish, Publishes.By("dotnet", "nuget push", ""))
		c.worksOn(2, "-k", "--api-key", "-ss", "--symbol-source", "-sk", "--symbol-api-key", "--timeout") // the package it pushes
		return
	}
	if ws[0] == "--version" || ws[0] == "--info" || ws[0] == "--list-sdks" {
		c.add(Read, OnlyReads.By("dotnet", ws[0], ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("dotnet", ws[0], ""))
	c.cwdWrite()
	if ws[0] == "tool" {
		c.dotnetTool(ws[1])
	}
}

func aptFamily() family {
	return family{names: []string{"pkg", "choco", "scoop", "winget", "emerge", "xbps-install", "nix-env", "guix", "flox", "eopkg", "pkgin", "pkgman", "flatpak", "apt", "apt-get", "dpkg", "yum", "dnf", "pacman", "apk", "zypper", "snap", "port"}, classify: apt}
}

func apt(c *cmd) {
	v := c.words(1)[0]
	switch v {
	case "list", "show", "search", "policy", "depends", "rdepends", "info", "madison", "changelog", "-l", "--list", "-L", "-s", "--status", "-S", "query", "q", "check-update", "":
		c.add(Read, OnlyReads.By(c.name, v, ""))
	default:
		if c.name == "dpkg" && c.has("-l", "-L", "-s", "-S", "--list", "--status", "--get-selections", "--print-architecture") {
			c.add(Read, OnlyReads.By("dpkg", "", ""))
			return
		}
		if c.name == "snap" && (v == "list" || v == "info" || v == "find") {
			c.add(Read, OnlyReads.By("snap", v, ""))
			return
		}
		c.add(Privilege, ChangesSystem.By(c.name, v, ""))
		if r := aptRuns(c); r.Kind != ReasonUnknown {
			c.add(LocalWrite, r)
		}
	}
}

// aptPlainOptions are the system package tools' options that hand them
// no program, configuration or package file.
var aptPlainOptions = map[string]bool{
	"-y": true, "--yes": true, "--assume-yes": true, "-q": true, "-qq": true, "--quiet": true,
	"--no-install-recommends": true, "--install-recommends": true, "--no-install-suggests": true,
	"-f": true, "--fix-broken": true, "--fix-missing": true, "--reinstall": true, "--only-upgrade": true,
	"--purge": true, "--autoremove": true, "--no-upgrade": true, "--allow-downgrades": true,
	"--noconfirm": true, "--needed": true, "-S": true, "-Sy": true, "-Syu": true, "-R": true, "-Rs": true,
	"--non-interactive": true, "-n": true, "--no-cache": true, "--update": true,
}

// aptRuns says why a system package step runs what the project has: a
// package file (its maintainer scripts), or an option sayso does not know
// to hand it nothing (apt's -o and -c name programs and configurations
// that name programs); "" for packages by name with plain options.
func aptRuns(c *cmd) Reason {
	if c.name == "dpkg" {
		return RunsProject.By("dpkg", "", "")
	}
	for _, w := range c.args {
		switch v := w.Value; {
		case !w.Literal:
			return BuiltAtRunTime.By(c.name, "", w.Raw)
		case strings.HasPrefix(v, "-"):
			if !aptPlainOptions[v] {
				return RunsOptionProgram.By(c.name, v, "")
			}
		case strings.Contains(v, "/") || strings.HasSuffix(v, ".deb") || strings.HasSuffix(v, ".rpm") || strings.HasSuffix(v, ".apk") || strings.Contains(v, ".pkg.tar"):
			return RunsProject.By(c.name, "install", v)
		}
	}
	return Reason{}
}

func brewFamily() family {
	return family{names: []string{"brew"}, classify: brew}
}

func brew(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "list", "ls", "info", "search", "outdated", "doctor", "config", "--prefix", "--version", "deps", "uses", "leaves", "desc", "home", "log", "":
		c.add(Read, OnlyReads.By("brew", v, ""))
	default:
		c.add(LocalWrite, ChangesPackages.By("brew", v, ""))
	}
}

// scriptBody judges a package.json script the step runs by its body, and
// the pre- and post- scripts npm runs around it, as the project wrote
// them: a script that deploys deploys, whatever its name.
func (c *cmd) scriptBody(name string) {
	scripts := c.a.ctx.Scripts
	if len(scripts) == 0 || name == "" {
		return
	}
	if c.a.ctx.depth >= 3 {
		return // scripts nested this deep are run as the project's code
	}
	for _, n := range []string{"pre" + name, name, "post" + name} {
		body, ok := scripts[n]
		if !ok {
			continue
		}
		ctx := c.a.ctx
		ctx.depth++
		sub := Classify(shell.Parse(body), ctx)
		shown := body
		if len(shown) > 80 {
			shown = shown[:77] + "..."
		}
		for _, cl := range sub.Classes.Classes() {
			if cl == Read || cl == LocalWrite || cl == Opaque {
				// The script is the project's own code, run walled as
				// local work; what its body shows beyond that is added.
				continue
			}
			why := cl.String()
			for _, f := range sub.Findings {
				if f.Class == cl {
					why = f.Why()
					break
				}
			}
			c.add(cl, Reason{Kind: ProjectScript, Object: "`" + shown + "`: " + why, What: n})
		}
		for _, p := range sub.Paths {
			p.Segment = c.i
			c.a.out.Paths = append(c.a.out.Paths, p)
		}
	}
}

// npmCommands are npm's commands and npmAliases its other names for them
// (npm's lib/utils/cmd-list.js).
var npmCommands = []string{
	"access", "adduser", "approve-scripts", "audit", "bugs", "cache", "ci", "completion", "config", "dedupe",
	"deny-scripts", "deprecate", "diff", "dist-tag", "docs", "doctor", "edit", "exec", "explain", "explore",
	"find-dupes", "fund", "get", "help", "help-search", "init", "install", "install-ci-test", "install-scripts",
	"install-test", "link", "ll", "login", "logout", "ls", "org", "outdated", "owner", "pack", "ping", "pkg",
	"prefix", "profile", "prune", "publish", "query", "rebuild", "repo", "restart", "root", "run", "sbom",
	"search", "set", "shrinkwrap", "stage", "star", "stars", "start", "stop", "team", "test", "token", "trust",
	"undeprecate", "uninstall", "unpublish", "unstar", "update", "version", "view", "whoami",
}

var npmAliases = map[string]string{
	"author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view", "find": "search",
	"add": "install", "unlink": "uninstall", "remove": "uninstall", "rm": "uninstall", "r": "uninstall",
	"un": "uninstall", "rb": "rebuild", "list": "ls", "ln": "link", "create": "init", "i": "install",
	"it": "install-test", "cit": "install-ci-test", "u": "update", "up": "update", "c": "config", "s": "search",
	"se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view", "run-script": "run",
	"clean-install": "ci", "clean-install-test": "install-ci-test", "x": "exec", "why": "explain", "la": "ll",
	"verison": "version", "ic": "ci", "innit": "init", "in": "install", "ins": "install", "inst": "install",
	"insta": "install", "instal": "install", "isnt": "install", "isnta": "install", "isntal": "install",
	"isntall": "install", "install-clean": "ci", "isntall-clean": "ci", "hlep": "help", "dist-tags": "dist-tag",
	"upgrade": "update", "udpate": "update", "rum": "run", "sit": "install-ci-test", "urn": "run", "ogr": "org",
	"add-user": "adduser",
}

// NpmCommand returns the command npm runs for the word v, as npm reads it:
// camelCase as dashes, an exact command, an alias, or an unambiguous
// abbreviation of a command or an alias (npm pub is npm publish). A word
// npm does not take is returned as it is.
func NpmCommand(v string) string {
	if v == "" {
		return v
	}
	c := v
	if strings.ToLower(c) != c {
		var b strings.Builder
		for _, r := range c {
			if r >= 'A' && r <= 'Z' {
				b.WriteByte('-')
				r += 'a' - 'A'
			}
			b.WriteRune(r)
		}
		c = b.String()
	}
	if slices.Contains(npmCommands, c) {
		return c
	}
	if a, ok := npmAliases[c]; ok {
		return a
	}
	// An abbreviation: the prefix of exactly one command or alias.
	found := ""
	for _, name := range npmCommands {
		if strings.HasPrefix(name, c) {
			if found != "" {
				return v
			}
			found = name
		}
	}
	for name := range npmAliases {
		if strings.HasPrefix(name, c) {
			if found != "" {
				return v
			}
			found = name
		}
	}
	if found == "" {
		return v
	}
	for {
		a, ok := npmAliases[found]
		if !ok {
			return found
		}
		found = a
	}
}

// npmrc is the settings file npm config set and npm login write: the
// person's ~/.npmrc, the one --userconfig names, or, for --location
// global, one under npm's prefix that sayso cannot name ("").
func npmrc(args []shell.Word) string {
	for i, w := range args {
		switch {
		case w.Value == "--location=global" || w.Value == "-g" || w.Value == "--global" ||
			(w.Value == "--location" || w.Value == "-L") && i+1 < len(args) && args[i+1].Value == "global":
			return ""
		case strings.HasPrefix(w.Value, "--userconfig="):
			return strings.TrimPrefix(w.Value, "--userconfig=")
		case w.Value == "--userconfig" && i+1 < len(args):
			if !args[i+1].Literal {
				return ""
			}
			return args[i+1].Value
		}
	}
	return "~/.npmrc"
}

// projectLocation reports whether npm's --location (-L) names the
// project's own .npmrc.
func projectLocation(args []shell.Word) bool {
	for i, w := range args {
		switch {
		case w.Value == "--location=project" || w.Value == "-L=project":
			return true
		case (w.Value == "--location" || w.Value == "-L") && i+1 < len(args) && args[i+1].Value == "project":
			return true
		}
	}
	return false
}

// npmGlobals skips the global options before npm's verb (npm -w pkg
// publish, pnpm --filter app deploy); --registry and npm pkg set
// scripts.* are judged here.
func npmGlobals(c *cmd) bool {
	takes := npmGlobalTakes
	for i, w := range c.args {
		v := w.Value
		reg := ""
		switch {
		case v == "--registry" && i+1 < len(c.args):
			reg = c.args[i+1].Value
		case strings.HasPrefix(v, "--registry="):
			reg = strings.TrimPrefix(v, "--registry=")
		case strings.HasPrefix(v, "--script-shell") || strings.HasPrefix(v, "--node-options") || strings.HasPrefix(v, "--userconfig") || strings.HasPrefix(v, "--globalconfig"):
			c.add(Opaque, RunsOptionProgram.By(c.name, v, ""))
		}
		if reg != "" && strings.TrimSuffix(reg, "/") != "https://registry.npmjs.org" && strings.TrimSuffix(reg, "/") != "https://registry.yarnpkg.com" {
			c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, "", reg))
		}
	}
	rest := wordsAfterGlobals(c.args, takes)
	// pnpm --package=x dlx y: the package named before the command runs
	for i, w := range c.args[:len(c.args)-len(rest)] {
		if v, ok := strings.CutPrefix(w.Value, "--package="); ok {
			c.notTheProjects(v)
		} else if w.Value == "--package" && i+1 < len(c.args) {
			c.notTheProjects(c.args[i+1].Value)
		}
	}
	if len(rest) > 0 && len(rest) < len(c.args) {
		inner := &cmd{a: c.a, i: c.i, seg: c.seg, name: c.name, args: rest}
		npmPkg(inner)
		npmClassify(inner)
		return true
	}
	npmPkg(c)
	return false
}

// cargoGlobals skips cargo's +toolchain and global options before the
// verb (cargo +stable publish, cargo -Z x publish).
func cargoGlobals(c *cmd) bool {
	for _, w := range c.args {
		if strings.HasPrefix(w.Value, "--config") {
			c.add(Opaque, RunsOptionProgram.By("cargo", "--config", ""))
		}
		if !strings.HasPrefix(w.Value, "-") && !strings.HasPrefix(w.Value, "+") {
			break
		}
	}
	rest := wordsAfterGlobals(c.args, func(v string) bool {
		return v == "-Z" || v == "-C" || v == "--config" || v == "--color" || v == "--manifest-path" || v == "-j" || v == "--jobs"
	})
	if len(rest) > 0 && len(rest) < len(c.args) && len(c.args) > 0 && (strings.HasPrefix(c.args[0].Value, "+") || strings.HasPrefix(c.args[0].Value, "-")) {
		inner := &cmd{a: c.a, i: c.i, seg: c.seg, name: c.name, args: rest}
		cargo(inner)
		return true
	}
	return false
}
