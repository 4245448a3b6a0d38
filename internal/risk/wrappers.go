package risk

import "github.com/sayso-dev/sayso/internal/program"

// wrappersFamily: the wrappers package shell peels (program/wrappers.go
// registers them), when they come alone or as shell did not peel them.
// The wrappers with a classifier of their own (sudo, env, xargs' stdin)
// belong to other families.
func wrappersFamily() family {
	return family{
		names: []string{"nohup", "setsid", "nice", "ionice", "stdbuf", "time", "timeout", "xargs", "parallel",
			"busybox", "toybox", "caffeinate", "unbuffer", "chrt", "flock", "setarch", "linux32", "linux64", "fakeroot",
			"faketime", "numactl", "xvfb-run", "valgrind", "catchsegv", "firejail", "taskset", "chronic", "dbus-launch",
			"dbus-run-session", "ssh-agent", "proxychains", "proxychains4", "torsocks", "sshpass", "dtach",
			"chroot", "runuser", "run0", "sg", "cross-env", "ccache", "sccache", "distcc"},
		traits:   program.Wrapper,
		classify: wrapperAlone,
	}
}

// wrapperAlone classifies a wrapper shell did not peel: one that acts on
// a running process or lists (ionice -p, flock FD) reads or tunes; any
// other hides what it runs.
func wrapperAlone(c *cmd) {
	if len(c.args) == 0 {
		c.add(Read, OnlyReads.By(c.name, "alone", ""))
		return
	}
	switch c.name {
	case "ionice", "chrt", "taskset":
		if c.has("-p", "--pid") || c.shortFlag('p') {
			c.add(LocalWrite, SignalsProcess.By(c.name, "", ""))
			return
		}
	case "flock", "ssh-agent":
		c.add(LocalWrite, LocalWork.By(c.name, "", ""))
		return
	case "dtach":
		if v := c.args[0].Value; v == "-a" || v == "-p" {
			c.add(LocalWrite, LocalWork.By("dtach", "", ""))
			return
		}
	}
	c.add(Opaque, RunsUnread.By(c.name, "", ""))
}
