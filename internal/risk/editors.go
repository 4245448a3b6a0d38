// Editors, pagers, compilers, browsers and formatters.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
)

// edFamily: ed and ex, whose script on stdin or in -s is editor commands,
// which can run a shell.
func edFamily() family {
	return family{names: []string{"ed", "ex"}, traits: program.Escapes, before: edScript, classify: editor}
}

// dcFamily: dc, whose ! runs a shell.
func dcFamily() family {
	return family{names: []string{"dc"}, traits: program.Escapes, classify: calculator}
}

func editorFamily() family {
	return family{names: []string{"view", "vim", "vi", "nvim", "nano", "emacs", "code"}, classify: editor}
}

func editor(c *cmd) {
	for _, w := range c.args {
		if w.Value == "-c" || w.Value == "--cmd" || w.Value == "-S" || strings.HasPrefix(w.Value, "+") || w.Value == "--eval" || w.Value == "-l" || w.Value == "--batch" || w.Value == "-x" {
			c.add(Opaque, RunsUnread.By(c.name, "", ""))
			return
		}
	}
	c.add(LocalWrite, ChangesProject.By(c.name, "", ""))
	for _, w := range c.operands() {
		c.write(w)
	}
}

func openCmdFamily() family {
	return family{names: []string{"open", "xdg-open"}, classify: openCmd}
}

func openCmd(c *cmd) {
	for _, w := range c.operands() {
		if strings.Contains(w.Value, "://") {
			c.add(Network, ReachesHost.By(c.name, "", w.Raw))
			continue
		}
		c.add(LocalWrite, ChangesProject.By(c.name, "", w.Raw))
		c.path(OpRead, w)
	}
	if len(c.operands()) == 0 {
		c.add(Read, OnlyReads.By(c.name, "", ""))
	}
}

func compilerFamily() family {
	return family{names: []string{"gcc", "g++", "cc", "c++", "clang", "clang++"}, classify: compiler}
}

// compiler: a C compiler is local work, but -wrapper runs a program
// around each pass and -fplugin loads code into the compiler.
func compiler(c *cmd) {
	for _, w := range c.args {
		switch v := w.Value; {
		case v == "-wrapper":
			c.add(Opaque, RunsOptionProgram.By(c.name, "-wrapper", ""))
		case strings.HasPrefix(v, "-fplugin=") || strings.HasPrefix(v, "-fpass-plugin="):
			c.add(Opaque, RunsUnread.By(c.name, v, ""))
		}
	}
	c.outputs([]string{"-o"}, []string{"-o"})
	c.add(LocalWrite, RunsProject.By(c.name, "", ""))
	c.secretArgs(c.args)
	c.cwdWrite()
}

// devServer: a server bound to all interfaces shows the folder to the
// network.
func (c *cmd) devServer() {
	for i, w := range c.args {
		v := w.Value
		addr := ""
		switch {
		case (v == "-a" || v == "--dev-addr" || v == "--host" || v == "--bind" || v == "-b" || v == "-H") && i+1 < len(c.args):
			addr = c.args[i+1].Value
		case strings.HasPrefix(v, "--dev-addr=") || strings.HasPrefix(v, "--host=") || strings.HasPrefix(v, "--bind="):
			_, addr, _ = strings.Cut(v, "=")
		}
		if strings.HasPrefix(addr, "0.0.0.0") || addr == "::" || strings.HasPrefix(addr, "[::]") {
			c.add(Network, ExposesService.By(c.name, "", addr))
		}
	}
}

func cmakeFamily() family {
	return family{names: []string{"cmake"}, classify: cmake}
}

func cmake(c *cmd) {
	ws := c.words(2)
	if c.seg.Inline {
		c.add(LocalWrite, RunsNextWords.By("cmake", "-E", ""))
		return
	}
	for i, w := range c.args {
		if w.Value == "-E" && i+1 < len(c.args) {
			switch sub := c.args[i+1].Value; sub {
			case "rm", "remove", "remove_directory":
				c.add(LocalWrite, LocalWork.By("cmake -E", sub, ""))
				for _, p := range c.args[i+2:] {
					if !strings.HasPrefix(p.Value, "-") {
						c.path(OpDelete, p)
					}
				}
				return
			case "env", "chdir", "time":
				c.add(Opaque, RunsUnread.By("cmake -E", sub, ""))
				return
			case "capabilities", "echo", "echo_append", "environment", "sha256sum", "md5sum", "compare_files", "cat":
				c.add(Read, OnlyReads.By("cmake -E", sub, ""))
				return
			}
		}
	}
	_ = ws
	c.add(LocalWrite, RunsProject.By("cmake", "configures", ""))
	c.cwdWrite()
}

func fzfFamily() family {
	return family{names: []string{"fzf"}, classify: fzf}
}

func fzf(c *cmd) {
	c.add(Read, TransformsText.By("fzf", "", ""))
}

func textBrowserFamily() family {
	return family{names: []string{"lynx", "links", "w3m", "elinks"}, classify: textBrowser}
}

func textBrowser(c *cmd) {
	c.a.mark(c.i, roleFetch)
	c.fetch(c.operands())
}

func manCmdFamily() family {
	return family{names: []string{"man"}, classify: manCmd}
}

func manCmd(c *cmd) {
	for _, w := range c.args {
		v := w.Value
		if v == "-P" || strings.HasPrefix(v, "--pager") || strings.HasPrefix(v, "-H") || strings.HasPrefix(v, "--html") || strings.HasPrefix(v, "-P") && len(v) > 2 {
			c.add(Opaque, RunsOptionProgram.By("man", v, ""))
			return
		}
	}
	c.add(Read, PrintsHelp.By("man", "", ""))
}

func playwrightFamily() family {
	return family{names: []string{"playwright"}, classify: playwright}
}

func playwright(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "open", "codegen", "screenshot", "pdf", "cr", "ff", "wk":
		c.add(Browser, DrivesBrowser.By("playwright", v, ""))
	default:
		c.add(LocalWrite, RunsProject.By("playwright", v, ""))
		c.cwdWrite()
	}
}

func browserProgramFamily() family {
	return family{names: []string{"chromium", "chromium-browser", "google-chrome", "chrome", "firefox", "playwright-cli"}, classify: browserProgram}
}

func browserProgram(c *cmd) {
	c.add(Browser, DrivesBrowser.By(c.name, "", ""))
}

func gofmtFamily() family {
	return family{names: []string{"gofmt"}, classify: gofmt}
}

func gofmt(c *cmd) {
	if c.has("-w") || c.shortFlag('w') {
		c.add(LocalWrite, ChangesProject.By("gofmt", "-w", ""))
		for _, w := range c.operands() {
			c.write(w)
		}
		return
	}
	c.add(Read, OnlyReads.By("gofmt", "", ""))
}

// edScript: ed and ex read commands from their input; "!" runs a shell.
func edScript(c *cmd) bool {
	c.stdinScript(c.name)
	return false
}

// calculator: dc runs a shell command after "!"; its script comes from
// -e, files or its input.
func calculator(c *cmd) {
	for i, w := range c.args {
		if !w.Literal || strings.Contains(w.Value, "!") {
			c.add(Opaque, RunsUnread.By("dc", "", ""))
			return
		}
		if (w.Value == "-f" || w.Value == "--file") && i+1 < len(c.args) || strings.HasPrefix(w.Value, "--file=") {
			c.add(Opaque, RunsUnread.By("dc", "", ""))
			return
		}
	}
	c.stdinScript("dc")
	if c.a.segClasses(c.i).Empty() {
		c.add(Read, OnlyReads.By("dc", "calculates", ""))
	}
}
