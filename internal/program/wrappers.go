package program

// wrappers registers the programs that run the command following their
// own options: package shell peels each of them, and risk's wrappers
// family (risk/wrappers.go) classifies those that come alone.
func (r builder) wrappers() {
	r.add(Wrapper, `nohup setsid nice ionice stdbuf time timeout env xargs parallel busybox toybox
		watch caffeinate unbuffer chrt flock strace ltrace setarch linux32 linux64 fakeroot faketime
		numactl xvfb-run valgrind catchsegv firejail taskset chronic dbus-launch dbus-run-session
		ssh-agent proxychains proxychains4 torsocks sshpass entr dtach`)
	r.add(Wrapper, `ccache sccache distcc cross-env`)
	r.add(Wrapper|AsUser, `sudo doas pkexec su runuser chroot run0 sg`)
	r.add(Wrapper|Builtin, `builtin exec command`)
	r.add(StdinArgs, `xargs parallel`)
}
