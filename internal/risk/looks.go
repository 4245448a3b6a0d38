package risk

import "github.com/sayso-dev/sayso/internal/program"

// looksFamily: the programs that only read, list or print, whatever
// their arguments (package program's looks.go names them). Their operands
// are read as paths, so reading a secret is seen.
func looksFamily() family {
	return family{names: program.Lookers(), traits: program.Looks, classify: looks}
}

func looks(c *cmd) {
	c.add(Read, OnlyReads.By(c.name, "", ""))
	switch {
	case networkLookups[c.name]:
		for _, w := range c.args {
			if !w.Literal {
				c.add(Network, BuiltAtRunTime.By(c.name, "", w.Raw))
			}
		}
	case (c.name == "less" || c.name == "more" || c.name == "most") && c.hasPrefixArg("+"):
		c.add(Opaque, RunsUnread.By(c.name, "", ""))
	case c.name == "less":
		c.logFiles()
		c.readOperands()
	case metaOnly[c.name]:
		if c.name == "tree" {
			c.logFiles()
		}
		for _, w := range c.operands() {
			for _, p := range c.a.resolve(w) {
				if c.a.protected(p) {
					c.add(Protected, TouchesProtected.By(c.name, "", w.Raw))
				}
			}
		}
	case !printers[c.name] || c.name == "cat" || c.name == "base64" || c.name == "xxd" || c.name == "od":
		c.readOperands()
		if c.recursive() {
			c.readsUnder(c.operands())
		}
	}
}

// metaOnly programs look at files without printing what they hold.
var metaOnly = map[string]bool{"ls": true, "ll": true, "la": true, "dir": true, "vdir": true, "stat": true, "file": true,
	"du": true, "test": true, "[": true, "[[": true, "tree": true, "namei": true, "realpath": true, "readlink": true,
	"basename": true, "dirname": true, "wc": true, "lsattr": true, "getfacl": true, "pwd": true, "which": true, "type": true,
	"man": true, "info": true, "help": true, "fd": true, "fdfind": true}

// networkLookups send their arguments to a name server or a host.
var networkLookups = map[string]bool{"dig": true, "nslookup": true, "host": true, "ping": true, "ping6": true,
	"traceroute": true, "tracepath": true, "whois": true}
