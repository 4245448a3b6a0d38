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
		c.add(Read, OnlyReads.By("crontab", "-l", ""))
		return
	}
	if c.has("-r") {
		c.add(Destructive, Destroys.By("crontab", "-r", ""))
	}
	c.add(InstructionPatch, RunsLater.By("crontab", "", ""))
}

func crontabFamily() family {
	return family{names: []string{"crontab"}, classify: crontab}
}

func atCmd(c *cmd) {
	if c.has("-l") {
		c.add(Read, OnlyReads.By(c.name, "-l", ""))
		return
	}
	c.add(InstructionPatch, RunsLater.By(c.name, "", ""))
	c.add(Opaque, RunsUnread.By(c.name, "", ""))
}

func atCmdFamily() family {
	return family{names: []string{"at", "batch"}, classify: atCmd}
}

func systemctlFamily2() family {
	return family{names: []string{"service"}, classify: systemctl}
}

func systemctl(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "status", "show", "list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies", "is-active", "is-enabled", "is-failed", "cat", "help", "--version", "":
		c.add(Read, OnlyReads.By(c.name, v, ""))
	case "enable", "link", "edit", "set-property", "add-wants", "preset":
		c.add(InstructionPatch, RunsLater.By(c.name, v, ""))
		c.add(Privilege, RaisesPrivilege.By(c.name, v, ""))
	default:
		c.add(Privilege, ChangesSystem.By(c.name, v, ""))
	}
}

func launchctlFamily() family {
	return family{names: []string{"launchctl"}, classify: launchctl}
}

func launchctl(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "list", "print", "blame", "version", "help", "":
		c.add(Read, OnlyReads.By("launchctl", v, ""))
	default:
		c.add(InstructionPatch, RunsLater.By("launchctl", v, ""))
		if v == "submit" {
			c.launchctlSubmit()
		}
	}
}

func privilegedFamily() family {
	return family{names: []string{"softwareupdate", "installer", "update-alternatives", "ldconfig", "networksetup", "pmset", "nmcli", "cron", "newgrp", "mount", "umount", "modprobe", "insmod", "rmmod", "iptables", "ip6tables", "nft", "ufw", "useradd", "userdel", "usermod", "groupadd", "passwd", "chpasswd", "visudo", "setcap", "nsenter", "unshare", "sudo", "su", "doas", "pkexec"}, classify: privileged}
}

func privileged(c *cmd) {
	if c.has("--version", "--help", "-V") {
		c.add(Read, PrintsHelp.By(c.name, "", ""))
		return
	}
	if c.name == "mount" && len(c.args) == 0 {
		c.add(Read, OnlyReads.By("mount", "", ""))
		return
	}
	c.add(Privilege, ChangesSystem.By(c.name, "", ""))
}

func sysctlFamily() family {
	return family{names: []string{"sysctl"}, classify: sysctl}
}

func sysctl(c *cmd) {
	for _, w := range c.args {
		if w.Value == "-w" || strings.Contains(w.Value, "=") || w.Value == "-p" || w.Value == "--load" {
			c.add(Privilege, ChangesSystem.By("sysctl", "", ""))
			return
		}
	}
	c.add(Read, OnlyReads.By("sysctl", "", ""))
}

func sudoedit(c *cmd) {
	c.add(Privilege, RaisesPrivilege.By("sudoedit", "", ""))
	for _, w := range c.operands() {
		c.write(w)
	}
}

func sudoeditFamily() family {
	return family{names: []string{"sudoedit"}, classify: sudoedit}
}

func halt(c *cmd) { c.add(Destructive, ChangesSystem.By(c.name, "", "")) }

func haltFamily() family {
	return family{names: []string{"reboot", "shutdown", "halt", "poweroff", "init"}, classify: halt}
}

func passwordManagerFamily() family {
	return family{names: []string{"op", "pass", "gopass", "bw", "lpass", "keepassxc-cli", "secret-tool"}, classify: passwordManager}
}

func passwordManager(c *cmd) {
	if c.has("--version", "--help") {
		c.add(Read, PrintsHelp.By(c.name, "", ""))
		return
	}
	c.add(Secret, ReadsCredential.By(c.name, "", ""))
}

func securityFamily() family { return family{names: []string{"security"}, classify: security} }

func security(c *cmd) {
	v := c.words(1)[0]
	switch {
	case strings.HasPrefix(v, "find-") || strings.HasPrefix(v, "dump-") || v == "export" || strings.Contains(v, "password"):
		c.add(Secret, ReadsCredential.By("security", v, ""))
	case v == "add-trusted-cert" || v == "remove-trusted-cert" || v == "trust-settings-import" || v == "authorizationdb" && c.has("write", "remove"):
		c.add(Privilege, RaisesPrivilege.By("security", v, ""))
	case strings.HasPrefix(v, "delete-"):
		c.add(Destructive, Destroys.By("security", v, ""))
	case (v == "list-keychains" || v == "default-keychain" || v == "login-keychain") && c.has("-s", "-d"):
		c.add(LocalWrite, ChangesLocalSettings.By("security", v, ""))
	case v == "list-keychains" || v == "default-keychain" || v == "login-keychain" || v == "show-keychain-info" ||
		v == "verify-cert" || v == "cms" || v == "error" || v == "leaks" || v == "authorizationdb" || v == "help" || v == "":
		c.add(Read, OnlyReads.By("security", v, ""))
	case strings.HasPrefix(v, "create-") || strings.HasPrefix(v, "add-") || strings.HasPrefix(v, "set-") || v == "import" ||
		v == "lock-keychain" || v == "unlock-keychain" || v == "trust-settings-export":
		c.add(LocalWrite, LocalWork.By("security", v, ""))
	default:
		// man security lists more, and a macOS release may add one.
		c.add(Opaque, UnknownVerb.By("security", v, ""))
	}
}

func partitionerFamily() family {
	return family{names: []string{"sgdisk", "gdisk", "cgdisk"}, classify: partitioner}
}

func partitioner(c *cmd) {
	if c.has("-p", "--print", "-v", "--verify", "-i", "--info", "-l", "--list", "--version", "--help") && !c.has("-Z", "--zap-all", "-z", "--zap", "-o", "--clear", "-n", "--new", "-d", "--delete") {
		c.add(Read, OnlyReads.By(c.name, "", ""))
		return
	}
	c.add(Destructive, Reason{Kind: PathDevice, Program: c.name, Verb: "write", What: "a partition table"})
}

func diskutilFamily() family {
	return family{names: []string{"diskutil"}, classify: diskutil}
}

func diskutil(c *cmd) {
	ws := c.words(2)
	v := strings.ToLower(ws[0])
	switch {
	case v == "list" || v == "info" || v == "information" || v == "verifyvolume" || v == "verifydisk" || v == "activity" || v == "listfilesystems" || v == "":
		c.add(Read, OnlyReads.By("diskutil", ws[0], ""))
	case v == "apfs" || v == "cs" || v == "appleraid" || v == "ar" || v == "coreStorage":
		if strings.HasPrefix(strings.ToLower(ws[1]), "list") {
			c.add(Read, OnlyReads.By("diskutil", ws[0]+" "+ws[1], ""))
			return
		}
		c.add(Destructive, Destroys.By("diskutil", ws[0]+" "+ws[1], ""))
	case v == "mount" || v == "unmount" || v == "umount" || v == "mountdisk" || v == "unmountdisk" || v == "eject" || v == "rename" || v == "renamevolume" || v == "enableownership":
		c.add(Privilege, RaisesPrivilege.By("diskutil", ws[0], ""))
	default:
		c.add(Destructive, Destroys.By("diskutil", ws[0], ""))
	}
}

func hdiutilFamily() family {
	return family{names: []string{"hdiutil"}, classify: hdiutil}
}

func hdiutil(c *cmd) {
	switch v := c.verb(); v {
	case "info", "imageinfo", "verify", "help", "":
		c.add(Read, OnlyReads.By("hdiutil", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("hdiutil", v, ""))
		for _, w := range c.operands()[min(1, len(c.operands())):] {
			c.path(OpWrite, w)
		}
	}
}

func networkConfigFamily() family {
	return family{names: []string{"zerotier-cli", "wg", "wg-quick"}, classify: networkConfig}
}

func networkConfig(c *cmd) {
	if c.verb() == "show" || c.verb() == "" || c.verb() == "listnetworks" || c.verb() == "info" || c.verb() == "status" {
		if c.name == "wg" && c.has("private-key", "preshared-key") {
			c.add(Secret, PrintsCredential.By("wg", "show", ""))
			return
		}
		c.add(Read, OnlyReads.By(c.name, "", ""))
		return
	}
	c.add(Privilege, ChangesSystem.By(c.name, "", ""))
}

func tracerFamily() family {
	return family{names: []string{"strace", "ltrace", "gcore"}, classify: tracer}
}

// tracer: attached to a running process, a tracer reads its memory — a
// key, a cookie, sayso's own — whatever it is.
func tracer(c *cmd) {
	if c.name == "gcore" || c.has("-p", "--attach") || c.shortFlag('p') {
		c.add(Secret, TouchesCredential.By(c.name, "", ""))
		return
	}
	c.add(Read, OnlyReads.By(c.name, "", ""))
}

func gpgFamily() family {
	return family{names: []string{"gpg", "gpg2"}, classify: gpg}
}

func gpg(c *cmd) {
	c.outputs([]string{"-o", "--output"}, nil)
	switch {
	case c.has("--export-secret-keys", "--export-secret-subkeys", "--decrypt", "-d", "--export-ownertrust", "--gen-revoke"):
		c.add(Secret, PrintsCredential.By(c.name, "", ""))
	case c.has("--list-keys", "-k", "--list-secret-keys", "-K", "--verify", "--fingerprint", "--version", "--list-sigs", "--export", "--armor") && !c.has("--sign", "-s", "--encrypt", "-e", "--import", "--delete-key", "--delete-secret-key"):
		c.add(Read, OnlyReads.By(c.name, "", ""))
	case c.has("--delete-secret-key", "--delete-key", "--delete-secret-and-public-key"):
		c.add(Destructive, Destroys.By(c.name, "", ""))
	default:
		c.add(LocalWrite, LocalWork.By(c.name, "", ""))
	}
}

func gdbFamily() family {
	return family{names: []string{"gdb", "lldb"}, classify: gdb}
}

func gdb(c *cmd) {
	for _, w := range c.args {
		if w.Value == "-p" || w.Value == "--pid" || strings.HasPrefix(w.Value, "--pid=") || w.Value == "attach" || c.name == "lldb" && (w.Value == "--attach-pid" || w.Value == "-n") {
			c.add(Secret, TouchesCredential.By(c.name, "", ""))
			return
		}
	}
	for _, w := range c.args {
		v := w.Value
		if v == "-ex" || v == "--ex" || v == "-x" || v == "--command" || v == "-batch" || v == "--batch" || v == "-iex" || v == "-o" || v == "--one-line" || v == "-s" && c.name == "lldb" {
			c.add(Opaque, RunsUnread.By(c.name, "", ""))
			return
		}
	}
	c.add(LocalWrite, RunsProject.By(c.name, "", ""))
}

func sshKeygenFamily() family {
	return family{names: []string{"ssh-keygen"}, classify: sshKeygen}
}

func sshKeygen(c *cmd) {
	if c.has("-l", "-F", "-H", "-R", "-y", "-Y") {
		c.add(Read, OnlyReads.By("ssh-keygen", "", ""))
		if c.has("-y") {
			c.add(Secret, ReadsCredential.By("ssh-keygen", "-y", ""))
		}
		return
	}
	c.add(LocalWrite, LocalWork.By("ssh-keygen", "", ""))
	for i, w := range c.args {
		if w.Value == "-f" && i+1 < len(c.args) {
			c.path(OpWrite, c.args[i+1])
		}
	}
}

func sshAddFamily() family {
	return family{names: []string{"ssh-add"}, classify: sshAdd}
}

func sshAdd(c *cmd) {
	if c.has("-l", "-L") {
		c.add(Read, OnlyReads.By("ssh-add", "", ""))
		return
	}
	c.add(Secret, TouchesCredential.By("ssh-add", "", ""))
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
		c.add(LocalWrite, LocalWork.By("systemctl --user", v, ""))
		return true
	case "enable", "link", "edit", "set-property", "add-wants", "preset", "import-environment", "set-environment":
		c.add(InstructionPatch, RunsLater.By("systemctl --user", v, ""))
		return true
	}
	systemctl(inner)
	return true
}
