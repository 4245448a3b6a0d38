// The shell's own builtins: what source, eval, trap, alias, exec, cd, set and export do.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

func sourceFamily() family {
	return family{names: []string{"source", "."}, classify: source}
}

func source(c *cmd) {
	ops := c.args
	if len(ops) == 0 {
		c.add(Read, ShellState.By(c.name, "", ""))
		return
	}
	w := ops[0]
	if !w.Literal {
		c.a.mark(c.i, roleCode)
		c.add(Opaque, BuiltAtRunTime.By(c.name, "", w.Raw))
		return
	}
	if ps := c.a.resolve(w); ps != nil {
		for _, p := range ps {
			if instructionPath(p, c.a.ctx.Home) == "shell start-up files" {
				c.add(LocalWrite, ShellState.By(c.name, "", ""))
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

func evalCmdFamily() family {
	return family{names: []string{"eval"}, classify: evalCmd}
}

func evalCmd(c *cmd) {
	if c.seg.Inline {
		c.add(Read, RunsNextWords.By("eval", "", ""))
	}
}

func trapCmdFamily() family {
	return family{names: []string{"trap"}, classify: trapCmd}
}

func trapCmd(c *cmd) {
	c.add(Read, RunsNextWords.By("trap", "", ""))
}

func aliasFamily() family {
	return family{names: []string{"alias"}, classify: alias}
}

func alias(c *cmd) {
	for _, w := range c.args {
		if name, value, ok := strings.Cut(w.Value, "="); ok && w.Literal {
			c.aliasValue(name, value) // it runs its value wherever its name is used
			continue
		}
		if strings.Contains(w.Value, "=") || !w.Literal {
			c.add(Opaque, RunsAlias.By("alias", "", ""))
			return
		}
	}
	c.add(Read, OnlyReads.By("alias", "", ""))
}

func hashCmdFamily() family { return family{names: []string{"hash"}, classify: hashCmd} }

func hashCmd(c *cmd) { c.byFlag([]string{"-p"}, "-p", Opaque, RunsAlias, Read, OnlyReads) }

func enableCmdFamily() family { return family{names: []string{"enable"}, classify: enableCmd} }

func enableCmd(c *cmd) { c.byFlag([]string{"-f"}, "-f", Opaque, RunsUnread, Read, OnlyReads) }

// byFlag classifies c by whether it is given one of flags: cl for kind
// (verb is the reason's verb) when it is, else otherCl for otherKind
// (hash -p, grpcurl -d, k9s --readonly).
func (c *cmd) byFlag(flags []string, verb string, cl Class, kind ReasonKind, otherCl Class, otherKind ReasonKind) {
	if c.has(flags...) {
		c.add(cl, kind.By(c.name, verb, ""))
		return
	}
	c.add(otherCl, otherKind.By(c.name, "", ""))
}

func execCmd(c *cmd) { c.add(Read, ShellState.By("exec", "", "")) }

func cdFamily() family {
	return family{names: []string{"cd", "pushd"}, classify: cd}
}

// cd changes the folder the following segments may run in. sayso keeps
// every folder a segment may run in, since subshells and branches make the
// real one unknowable without running the step.
func cd(c *cmd) {
	c.add(Read, ChangesFolder.By(c.name, "", ""))
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
		c.add(Opaque, BuiltAtRunTime.By(c.name, "", target.Raw))
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

func execCmdFamily() family {
	return family{names: []string{"exec"}, classify: execCmd}
}

// maxFolders bounds the folders a step's segments may run in that sayso
// follows; past it, the folder is unknown, and relative paths with it.
const maxFolders = 16

func popdFamily() family {
	return family{names: []string{"popd"}, classify: popd}
}

func popd(c *cmd) {
	c.add(Read, ChangesFolder.By("popd", "", ""))
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

func printenv(c *cmd) {
	ops := c.operands()
	if len(ops) == 0 {
		c.add(Secret, PrintsCredential.By(c.name, "", ""))
		return
	}
	for _, w := range ops {
		if secretVar(w.Value) || !w.Literal {
			c.add(Secret, PrintsCredential.By(c.name, "", w.Raw))
		}
	}
	c.add(Read, OnlyReads.By(c.name, "", ""))
}

func printenvFamily() family {
	return family{names: []string{"printenv", "env"}, classify: printenv}
}

func setCmdFamily() family { return family{names: []string{"set"}, classify: setCmd} }

func setCmd(c *cmd) {
	if len(c.args) == 0 {
		c.add(Secret, PrintsCredential.By("set", "", ""))
		return
	}
	c.add(Read, ShellState.By("set", "", ""))
}

func exportCmdFamily() family {
	return family{names: []string{"export", "declare", "typeset"}, classify: exportCmd}
}

func exportCmd(c *cmd) {
	if len(c.seg.Assigns) == 0 && (len(c.args) == 0 || c.has("-p")) {
		c.add(Secret, PrintsCredential.By(c.name, "", ""))
		return
	}
	c.add(Read, SetsVariables.By(c.name, "", ""))
}

func historyCmd(c *cmd) {
	c.byFlag([]string{"-c", "-d"}, "", LocalWrite, ShellState, Secret, PrintsCredential)
}

func historyCmdFamily() family {
	return family{names: []string{"history"}, classify: historyCmd}
}

func colonFamily() family {
	return family{names: []string{":"}, classify: colon}
}

func colon(c *cmd) { c.add(Read, ChangesNothing.By(":", "", "")) }
