package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// System tools whose verbs change the machine rather than a file the step
// names: journalctl's vacuum deletes journal files, hostnamectl and
// timedatectl set the machine's name and clock (journalctl(1),
// hostnamectl(1), timedatectl(1)).

func journalctlFamily() family { return family{names: []string{"journalctl"}, classify: journalctl} }

func journalctl(c *cmd) {
	for _, w := range c.args {
		v := w.Value
		switch {
		case hasAnyPrefix(v, "--vacuum-size", "--vacuum-time", "--vacuum-files"):
			c.add(Destructive, Destroys.By("journalctl", v, ""))
			c.path(OpDelete, lit("/var/log/journal"))
		case v == "--rotate" || v == "--flush" || v == "--sync" || v == "--relinquish-var" || v == "--smart-relinquish-var" ||
			v == "--setup-keys" || v == "--update-catalog":
			c.add(Privilege, ChangesSystem.By("journalctl", v, ""))
		}
	}
	c.add(Read, OnlyReads.By("journalctl", "", ""))
	c.readOperands()
}

func setVerbsFamily() family {
	return family{names: []string{"hostnamectl", "timedatectl"}, classify: setVerbs}
}

// setVerbs: hostnamectl and timedatectl change the machine with their
// set-* verbs (and hostnamectl's hostname, icon-name, chassis, deployment
// and location given a value); their other verbs show.
func setVerbs(c *cmd) {
	ops := c.operands()
	if len(ops) == 0 {
		c.add(Read, OnlyReads.By(c.name, "", ""))
		return
	}
	v := ops[0].Value
	switch {
	case !ops[0].Literal:
		c.add(Opaque, UnknownVerb.By(c.name, ops[0].Raw, ""))
	case len(v) > 4 && v[:4] == "set-", c.name == "hostnamectl" && len(ops) > 1 &&
		(v == "hostname" || v == "icon-name" || v == "chassis" || v == "deployment" || v == "location"),
		c.name == "timedatectl" && (v == "ntp-servers" || v == "revert"):
		c.add(Privilege, ChangesSystem.By(c.name, v, ""))
		if c.name == "hostnamectl" {
			c.path(OpWrite, lit("/etc/hostname"))
		}
	case v == "status" || v == "help" ||
		c.name == "hostnamectl" && (v == "hostname" || v == "icon-name" || v == "chassis" || v == "deployment" || v == "location") ||
		c.name == "timedatectl" && (v == "show" || v == "list-timezones" || v == "timesync-status" || v == "show-timesync"):
		c.add(Read, OnlyReads.By(c.name, v, ""))
	default:
		// man hostnamectl and man timedatectl list their commands; a
		// release may add one that sets something.
		c.add(Opaque, UnknownVerb.By(c.name, v, ""))
	}
}

func hasAnyPrefix(s string, ps ...string) bool {
	for _, p := range ps {
		if len(s) >= len(p) && s[:len(p)] == p {
			return true
		}
	}
	return false
}

// scriptWrites: script writes its typescript to the file it names (or
// ./typescript) and its logs to -O, -I, -B and -T files (script(1)).
func scriptWrites(c *cmd) {
	var ops []shell.Word
	for i := 0; i < len(c.args); i++ {
		if v, next, ok := optValue(c.args, i, []string{"-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T", "--log-timing"}, nil); ok {
			c.write(v)
			if next {
				i++
			}
			continue
		}
		w := c.args[i]
		switch {
		case w.Literal && (w.Value == "-c" || w.Value == "--command" || w.Value == "-E" || w.Value == "--echo" || w.Value == "-m" || w.Value == "--logging-format" || w.Value == "-o" || w.Value == "--output-limit"):
			i++
		case w.Literal && strings.HasPrefix(w.Value, "-t") && len(w.Value) > 2:
			c.write(valueWord(w, "-t"))
		case w.Literal && strings.HasPrefix(w.Value, "--timing="):
			c.write(valueWord(w, "--timing="))
		case w.Literal && strings.HasPrefix(w.Value, "-"):
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 {
		c.write(ops[len(ops)-1])
	} else {
		c.cwdWrite()
	}
}

// mktempWrites: mktemp makes its file or folder in -p DIR or --tmpdir=DIR,
// or where a template with a folder says (mktemp(1)). Plain mktemp makes
// an empty file in the temporary folder: not reported.
func mktempWrites(c *cmd) {
	var dir *shell.Word
	var tmpl *shell.Word
	for i := 0; i < len(c.args); i++ {
		if v, next, ok := optValue(c.args, i, []string{"-p", "--tmpdir"}, []string{"-p"}); ok {
			dir = &v
			if next {
				i++
			}
			continue
		}
		if w := c.args[i]; !strings.HasPrefix(w.Value, "-") || !w.Literal {
			tmpl = &w
		}
	}
	switch {
	case dir != nil && tmpl != nil:
		c.write(joinWord(*dir, tmpl.Value))
	case dir != nil:
		c.writesUnder(*dir)
	case tmpl != nil && strings.Contains(tmpl.Value, "/"):
		c.write(*tmpl)
	}
}

func iconvFamily() family { return family{names: []string{"iconv"}, classify: iconv} }

// iconv writes the -o file; it reads its operands.
func iconv(c *cmd) {
	c.add(Read, TransformsText.By("iconv", "", ""))
	var rest []shell.Word
	for i := 0; i < len(c.args); i++ {
		if v, next, ok := optValue(c.args, i, []string{"-o", "--output"}, []string{"-o"}); ok {
			c.write(v)
			if next {
				i++
			}
			continue
		}
		if w := c.args[i]; w.Literal && (w.Value == "-f" || w.Value == "-t" || w.Value == "--from-code" || w.Value == "--to-code") {
			i++
			continue
		}
		rest = append(rest, c.args[i])
	}
	c.args = rest
	c.readOperands()
}
