package risk

// System tools whose verbs change the machine rather than a file the step
// names: journalctl's vacuum deletes journal files, hostnamectl and
// timedatectl set the machine's name and clock (journalctl(1),
// hostnamectl(1), timedatectl(1)).

func journalctl(c *cmd) {
	for _, w := range c.args {
		v := w.Value
		switch {
		case hasAnyPrefix(v, "--vacuum-size", "--vacuum-time", "--vacuum-files"):
			c.add(Destructive, "journalctl "+v+" deletes journal files")
			c.path(OpDelete, lit("/var/log/journal"))
		case v == "--rotate" || v == "--flush" || v == "--sync" || v == "--relinquish-var" || v == "--smart-relinquish-var" ||
			v == "--setup-keys" || v == "--update-catalog":
			c.add(Privilege, "journalctl "+v+" changes the system journal")
		}
	}
	c.add(Read, "journalctl reads the journal")
	c.readOperands()
}

// setVerbs: hostnamectl and timedatectl change the machine with their
// set-* verbs (and hostnamectl's hostname, icon-name, chassis, deployment
// and location given a value); their other verbs show.
func setVerbs(c *cmd) {
	ops := c.operands()
	if len(ops) == 0 {
		c.add(Read, c.name+" shows the machine's settings")
		return
	}
	v := ops[0].Value
	switch {
	case len(v) > 4 && v[:4] == "set-", c.name == "hostnamectl" && len(ops) > 1 &&
		(v == "hostname" || v == "icon-name" || v == "chassis" || v == "deployment" || v == "location"):
		c.add(Privilege, c.name+" "+v+" changes the machine's settings")
		if c.name == "hostnamectl" {
			c.path(OpWrite, lit("/etc/hostname"))
		}
	default:
		c.add(Read, c.name+" "+v)
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
