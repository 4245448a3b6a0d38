// The machine itself: services, schedulers, privilege, disks, keys, and sayso's own CLI.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// systemctlFamily: systemctl, its --user forms read before the rest.
func systemctlFamily() family {
	return family{names: []string{"systemctl"}, before: systemctlUser, classify: systemctl}
}

func crontab(c *cmd) {
	if c.has("-l") {
		c.add(Read, Words("crontab -l lists jobs"))
		return
	}
	if c.has("-r") {
		c.add(Destructive, Words("crontab -r removes every job"))
	}
	c.add(InstructionPatch, Words("crontab changes scheduled jobs"))
}

func atCmd(c *cmd) {
	if c.has("-l") {
		c.add(Read, Words(c.name+" -l lists jobs"))
		return
	}
	c.add(InstructionPatch, Words(c.name+" schedules commands to run later"))
	c.add(Opaque, Words(c.name+" runs commands sayso will not see when they run"))
}

func systemctl(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "status", "show", "list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies", "is-active", "is-enabled", "is-failed", "cat", "help", "--version", "":
		c.add(Read, Words(c.name+" "+v))
	case "enable", "link", "edit", "set-property", "add-wants", "preset":
		c.add(InstructionPatch, Words(c.name+" "+v+" changes what starts at boot"))
		c.add(Privilege, Words(c.name+" "+v))
	default:
		c.add(Privilege, Words(c.name+" "+v+" changes system services"))
	}
}

func launchctl(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "list", "print", "blame", "version", "help", "":
		c.add(Read, Words("launchctl "+v))
	default:
		c.add(InstructionPatch, Words("launchctl "+v+" changes what starts at login"))
		if v == "submit" {
			c.launchctlSubmit()
		}
	}
}

func privileged(c *cmd) {
	if c.has("--version", "--help", "-V") {
		c.add(Read, Words(c.name+" prints its version"))
		return
	}
	if c.name == "mount" && len(c.args) == 0 {
		c.add(Read, Words("mount lists mounts"))
		return
	}
	c.add(Privilege, Words(c.name+" changes the system"))
}

func sysctl(c *cmd) {
	for _, w := range c.args {
		if w.Value == "-w" || strings.Contains(w.Value, "=") || w.Value == "-p" || w.Value == "--load" {
			c.add(Privilege, Words("sysctl changes kernel settings"))
			return
		}
	}
	c.add(Read, Words("sysctl reads kernel settings"))
}

func sudoedit(c *cmd) {
	c.add(Privilege, Words("sudoedit edits files as root"))
	for _, w := range c.operands() {
		c.write(w)
	}
}

func halt(c *cmd) { c.add(Destructive, Words(c.name+" stops the machine")) }

func passwordManager(c *cmd) {
	if c.has("--version", "--help") {
		c.add(Read, Words(c.name+" prints its version"))
		return
	}
	c.add(Secret, Words(c.name+" reads a password store"))
}

func security(c *cmd) {
	v := c.words(1)[0]
	if strings.HasPrefix(v, "find-") || strings.HasPrefix(v, "dump-") || v == "export" || strings.Contains(v, "password") {
		c.add(Secret, Words("security "+v+" reads the keychain"))
		return
	}
	c.add(Read, Words("security "+v))
}

// sayso: an agent may ask sayso to explain; everything that answers,
// grants, forgets or changes settings is the person's alone.
func sayso(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "check" || ws[0] == "version" || ws[0] == "help" || ws[0] == "autopilot" || ws[0] == "--version" || ws[0] == "--help" || ws[0] == "":
		c.add(Read, Words("sayso "+ws[0]+" explains and changes nothing"))
	case ws[0] == "rule" && (ws[1] == "match" || ws[1] == "offer"):
		c.add(Read, Words("sayso rule "+ws[1]+" explains and changes nothing"))
	default:
		c.add(Protected, Words("sayso "+strings.TrimSpace(ws[0]+" "+ws[1])+" is the person's to run, not an agent's"))
	}
}

func partitioner(c *cmd) {
	if c.has("-p", "--print", "-v", "--verify", "-i", "--info", "-l", "--list", "--version", "--help") && !c.has("-Z", "--zap-all", "-z", "--zap", "-o", "--clear", "-n", "--new", "-d", "--delete") {
		c.add(Read, Words(c.name+" prints the partition table"))
		return
	}
	c.add(Destructive, Words(c.name+" rewrites a partition table"))
}

func diskutil(c *cmd) {
	ws := c.words(2)
	v := strings.ToLower(ws[0])
	switch {
	case v == "list" || v == "info" || v == "information" || v == "verifyvolume" || v == "verifydisk" || v == "activity" || v == "listfilesystems" || v == "":
		c.add(Read, Words("diskutil "+ws[0]))
	case v == "apfs" || v == "cs" || v == "appleraid" || v == "ar" || v == "coreStorage":
		if strings.HasPrefix(strings.ToLower(ws[1]), "list") {
			c.add(Read, Words("diskutil "+ws[0]+" "+ws[1]))
			return
		}
		c.add(Destructive, Words("diskutil "+ws[0]+" "+ws[1]+" changes disks"))
	case v == "mount" || v == "unmount" || v == "umount" || v == "mountdisk" || v == "unmountdisk" || v == "eject" || v == "rename" || v == "renamevolume" || v == "enableownership":
		c.add(Privilege, Words("diskutil "+ws[0]+" changes mounts"))
	default:
		c.add(Destructive, Words("diskutil "+ws[0]+" erases or repartitions a disk"))
	}
}

func hdiutil(c *cmd) {
	switch v := c.verb(); v {
	case "info", "imageinfo", "verify", "help", "":
		c.add(Read, Words("hdiutil "+v))
	default:
		c.add(LocalWrite, Words("hdiutil "+v))
		for _, w := range c.operands()[min(1, len(c.operands())):] {
			c.path(OpWrite, w)
		}
	}
}

func networkConfig(c *cmd) {
	if c.verb() == "show" || c.verb() == "" || c.verb() == "listnetworks" || c.verb() == "info" || c.verb() == "status" {
		if c.name == "wg" && c.has("private-key", "preshared-key") {
			c.add(Secret, Words("wg show prints keys"))
			return
		}
		c.add(Read, Words(c.name+" shows"))
		return
	}
	c.add(Privilege, Words(c.name+" changes this machine's network"))
}

// tracer: attached to a running process, a tracer reads its memory — a
// key, a cookie, sayso's own — whatever it is.
func tracer(c *cmd) {
	if c.name == "gcore" || c.has("-p", "--attach") || c.shortFlag('p') {
		c.add(Secret, Words(c.name+" attaches to a running process and reads its memory"))
		return
	}
	c.add(Read, Words(c.name+" lists its options"))
}

func gpg(c *cmd) {
	c.outputs([]string{"-o", "--output"}, nil)
	switch {
	case c.has("--export-secret-keys", "--export-secret-subkeys", "--decrypt", "-d", "--export-ownertrust", "--gen-revoke"):
		c.add(Secret, Words(c.name+" prints secret keys or decrypted data"))
	case c.has("--list-keys", "-k", "--list-secret-keys", "-K", "--verify", "--fingerprint", "--version", "--list-sigs", "--export", "--armor") && !c.has("--sign", "-s", "--encrypt", "-e", "--import", "--delete-key", "--delete-secret-key"):
		c.add(Read, Words(c.name+" lists or verifies"))
	case c.has("--delete-secret-key", "--delete-key", "--delete-secret-and-public-key"):
		c.add(Destructive, Words(c.name+" deletes keys"))
	default:
		c.add(LocalWrite, Words(c.name+" signs, encrypts or imports"))
	}
}

func gdb(c *cmd) {
	for _, w := range c.args {
		if w.Value == "-p" || w.Value == "--pid" || strings.HasPrefix(w.Value, "--pid=") || w.Value == "attach" || c.name == "lldb" && (w.Value == "--attach-pid" || w.Value == "-n") {
			c.add(Secret, Words(c.name+" attaches to a running process and reads its memory"))
			return
		}
	}
	for _, w := range c.args {
		v := w.Value
		if v == "-ex" || v == "--ex" || v == "-x" || v == "--command" || v == "-batch" || v == "--batch" || v == "-iex" || v == "-o" || v == "--one-line" || v == "-s" && c.name == "lldb" {
			c.add(Opaque, Words(c.name+" runs debugger commands, which can run programs"))
			return
		}
	}
	c.add(LocalWrite, Words(c.name+" debugs a program of the project"))
}

func sshKeygen(c *cmd) {
	if c.has("-l", "-F", "-H", "-R", "-y", "-Y") {
		c.add(Read, Words("ssh-keygen inspects keys"))
		if c.has("-y") {
			c.add(Secret, Words("ssh-keygen -y reads a private key"))
		}
		return
	}
	c.add(LocalWrite, Words("ssh-keygen makes a key"))
	for i, w := range c.args {
		if w.Value == "-f" && i+1 < len(c.args) {
			c.path(OpWrite, c.args[i+1])
		}
	}
}

func sshAdd(c *cmd) {
	if c.has("-l", "-L") {
		c.add(Read, Words("ssh-add lists keys"))
		return
	}
	c.add(Secret, Words("ssh-add loads a private key"))
}

// systemctlUser: with --user, systemctl acts on the person's own units.
func systemctlUser(c *cmd) bool {
	if !c.has("--user") {
		return false
	}
	var rest []shell.Word
	for _, w := range c.args {
		if w.Value != "--user" {
			rest = append(rest, w)
		}
	}
	inner := &cmd{a: c.a, i: c.i, seg: c.seg, name: c.name, args: rest}
	switch v := inner.verb(); v {
	case "start", "stop", "restart", "reload", "try-restart", "reload-or-restart", "kill", "reset-failed", "daemon-reload":
		c.add(LocalWrite, Words("systemctl --user "+v+" changes the person's own services"))
		return true
	case "enable", "link", "edit", "set-property", "add-wants", "preset", "import-environment", "set-environment":
		c.add(InstructionPatch, Words("systemctl --user "+v+" changes what starts at login"))
		return true
	}
	systemctl(inner)
	return true
}
