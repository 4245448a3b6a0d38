// Builders that fetch code by a name or an address and run it: the Go,
// Elixir, Zig, PHP, Maven, Gradle, Helm and Deno forms of what npx,
// uvx and pip install git+… do.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// mixFamily: Elixir's build tool. Archives and escripts it installs run
// in every later mix of every project (mix help archive.install).
func mixFamily() family {
	return family{names: []string{"mix"}, classify: mix}
}

func mix(c *cmd) {
	ws := c.words(2)
	v := ws[0]
	switch v {
	case "archive.install", "escript.install":
		c.add(LocalWrite, ChangesPackages.By("mix", v, ""))
		c.installsForMachine(c.envDir("MIX_HOME", "", "~/.mix"))
		switch ws[1] {
		case "hex", "github", "git":
			c.add(DownloadExec, FetchesCodeThatRuns.By("mix", v+" "+ws[1], ""))
			return
		}
		for _, w := range c.operands() {
			if remoteAddress(w) {
				c.add(DownloadExec, FetchesCodeThatRuns.By("mix", v, w.Raw))
				return
			}
		}
	case "help", "hex.info", "hex.outdated", "deps.tree", "xref", "":
		c.add(Read, OnlyReads.By("mix", v, ""))
	case "hex.publish":
		c.add(Publish, Publishes.By("mix", "hex.publish", ""))
	default:
		c.add(LocalWrite, RunsProject.By("mix", v, ""))
		c.namedTask(v)
		c.readSecrets()
		c.cwdWrite()
	}
}

// zigFamily: zig builds the project; zig fetch adds a package whose
// build.zig the next zig build runs (zig fetch --help; the build system's
// package manager).
func zigFamily() family {
	return family{names: []string{"zig"}, classify: zig}
}

func zig(c *cmd) {
	v := c.words(1)[0]
	switch v {
	case "version", "env", "targets", "help", "zen", "":
		c.add(Read, OnlyReads.By("zig", v, ""))
		return
	case "fetch":
		for _, w := range c.operands()[1:] {
			if remoteAddress(w) {
				c.add(DownloadExec, FetchesCodeThatRuns.By("zig fetch", w.Raw, ""))
				break
			}
		}
	}
	c.add(LocalWrite, RunsProject.By("zig", v, ""))
	c.specWrites(writeSpecs[c.name])
	c.readSecrets()
	c.cwdWrite()
}

// remoteAddress reports whether w names code at an address: a URL, a git
// remote or a value built at run time.
func remoteAddress(w shell.Word) bool {
	if !w.Literal {
		return true
	}
	v := strings.TrimPrefix(w.Value, "git+")
	return strings.Contains(v, "://") || strings.HasPrefix(v, "git@") || strings.HasPrefix(v, "github:")
}

// goRunRemote: go run PKG@VERSION fetches the module at that version and
// runs it, outside the project's go.mod (go help run).
func (c *cmd) goRunRemote() {
	ops := c.operands()
	if len(ops) < 2 {
		return
	}
	w := ops[1] // what go run runs; the rest are its arguments
	v := w.Value
	if strings.HasPrefix(v, ".") || strings.HasPrefix(v, "/") || strings.HasSuffix(v, ".go") {
		return // the project's package or files: its own code
	}
	if at := strings.LastIndexByte(v, '@'); at > 0 && strings.Contains(v[:at], ".") {
		c.add(DownloadExec, FetchesCodeThatRuns.By("go run", w.Raw, ""))
	}
}

// mvnPlugin: a goal named by its plugin's coordinates
// (groupId:artifactId[:version]:goal, mvn --help's "plugin goals") makes
// Maven fetch that plugin and run it; a prefix (dependency:tree) is
// looked up in the plugin groups Maven trusts (org.apache.maven.plugins,
// org.codehaus.mojo).
func (c *cmd) mvnPlugin() {
	for _, w := range c.operands() {
		v := w.Value
		if strings.Count(v, ":") < 2 {
			continue
		}
		group := v[:strings.IndexByte(v, ':')]
		if group == "org.apache.maven.plugins" || group == "org.codehaus.mojo" {
			continue
		}
		c.add(DownloadExec, FetchesCodeThatRuns.By("mvn", w.Raw, ""))
	}
}

// gradleInitScript: --init-script or -I naming a URL runs a script
// fetched from there before the build (gradle --help, "Initialization
// Scripts").
func (c *cmd) gradleInitScript() {
	for i, w := range c.args {
		v, val := w.Value, shell.Word{}
		switch {
		case (v == "-I" || v == "--init-script") && i+1 < len(c.args):
			val = c.args[i+1]
		case strings.HasPrefix(v, "--init-script="):
			val = shell.Word{Raw: w.Raw, Value: v[len("--init-script="):], Literal: w.Literal}
		default:
			continue
		}
		if remoteAddress(val) {
			c.add(DownloadExec, FetchesCodeThatRuns.By(c.name, "", val.Raw))
		}
	}
}

// composerRemote: composer create-project fetches a package and runs its
// scripts (post-create-project-cmd, post-install-cmd) and plugins;
// composer global require installs packages, plugins among them, in the
// person's composer home, where every later composer loads them
// (composer's manual, "create-project", "global").
func (c *cmd) composerRemote(v string) {
	switch v {
	case "create-project":
		if !c.has("--no-scripts") || !c.has("--no-plugins") {
			c.add(DownloadExec, FetchesCodeThatRuns.By("composer", "create-project", ""))
		}
	case "global":
		c.installsForMachine(c.envDir("COMPOSER_HOME", "", "~/.config/composer"))
		switch c.words(2)[1] {
		case "require", "update", "install", "upgrade", "u", "i", "r":
			c.add(DownloadExec, FetchesCodeThatRuns.By("composer global", c.words(2)[1], ""))
		}
	}
}

// helmPlugin: helm plugin install fetches a plugin and runs its install
// hook (helm plugin install --help); installed, it runs as helm's own
// subcommand.
func (c *cmd) helmPlugin() {
	ws := c.words(3)
	if ws[1] != "install" && ws[1] != "add" && ws[1] != "update" {
		return
	}
	c.installsForMachine(c.envDir("HELM_PLUGINS", "", "~/.local/share/helm/plugins"))
	c.add(DownloadExec, FetchesCodeThatRuns.By("helm plugin", ws[1], ws[2]))
}

// denoRemote: deno run of a jsr: or npm: specifier fetches that package
// and runs it (deno's manual, "Modules": jsr:, npm:), as npx does one the
// project does not depend on.
func (c *cmd) denoRemote(w shell.Word) bool {
	v := w.Value
	for _, p := range []string{"jsr:", "npm:"} {
		if rest, ok := strings.CutPrefix(v, p); ok {
			name := rest
			if at := strings.LastIndexByte(name, '@'); at > 0 {
				name = name[:at]
			}
			if !c.a.ctx.Packages[name] {
				c.add(DownloadExec, FetchesCodeThatRuns.By("deno", "", w.Raw))
				return true
			}
		}
	}
	return false
}

// dotnetTool: dotnet tool install --global puts a tool on the person's
// PATH (~/.dotnet/tools); dotnet tool exec fetches a tool package and
// runs it (dotnet-tool-install(1), dotnet-tool-exec(1)); dotnet tool run
// runs one the project's manifest names, restored into the project.
func (c *cmd) dotnetTool(verb string) {
	switch verb {
	case "install", "update", "uninstall":
		if c.has("-g", "--global", "--tool-path") {
			c.installsForMachine("~/.dotnet/tools")
		}
	case "exec", "execute":
		c.add(DownloadExec, FetchesCodeThatRuns.By("dotnet tool", verb, ""))
	}
}
