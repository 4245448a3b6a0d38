package program

// system registers the programs risk classifies in risk/system.go.
func (r builder) system() {
	// Editors, pagers and calculators whose commands can start a shell.
	r.add(Escapes, `gdb lldb`)

	// Runners of the project's tasks and of programs the project names.
	r.add(Launcher|RunsArgs, `nsenter unshare gdb lldb`)

	r.add(0, `sgdisk gdisk cgdisk diskutil hdiutil ssh-keygen ssh-add gpg gpg2 crontab at batch systemctl
		launchctl service mount umount modprobe insmod rmmod sysctl iptables ip6tables nft ufw useradd
		userdel usermod groupadd passwd chpasswd visudo setcap sudoedit newgrp reboot shutdown halt
		poweroff init op pass security gopass bw lpass keepassxc-cli secret-tool zerotier-cli wg
		wg-quick gcore softwareupdate installer update-alternatives ldconfig networksetup pmset nmcli
		cron`)

	r.add(Wrapper, `strace ltrace`)
	r.add(Wrapper|AsUser, `sudo doas pkexec su`)
}
