package program

// wrappers registers the programs that run the command following their
// own options and that risk's wrappers family (risk/wrappers.go)
// classifies when they come alone: package shell peels each of them. Other
// wrappers (sudo, env, exec, strace) are registered with their families.
func (r builder) wrappers() {
	// Runners of the project's tasks and of programs the project names.
	r.add(Launcher|RunsArgs, `dtach`)

	r.add(Wrapper, `nohup setsid nice ionice stdbuf time timeout xargs parallel busybox toybox caffeinate unbuffer
		chrt flock setarch linux32 linux64 fakeroot faketime numactl xvfb-run valgrind catchsegv
		firejail taskset chronic dbus-launch dbus-run-session ssh-agent proxychains proxychains4
		torsocks sshpass dtach`)
	r.add(Wrapper, `ccache sccache distcc cross-env`)
	r.add(Wrapper|AsUser, `runuser chroot run0 sg`)
	r.add(StdinArgs, `xargs parallel`)
}
