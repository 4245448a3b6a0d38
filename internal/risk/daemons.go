// Process managers: programs that hand a command to a daemon, which runs
// it after the step, restarts it, and runs it outside the wall when the
// daemon was started outside it.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// daemonFamily: pm2, forever and supervisorctl ask their daemon to run a
// command (pm2 start --help, forever --help, supervisorctl help).
func daemonFamily() family {
	return family{names: []string{"pm2", "forever", "supervisorctl"}, classify: daemon}
}

func daemon(c *cmd) {
	v := c.verb()
	n := c.name + " " + v
	switch c.name {
	case "supervisorctl":
		switch v {
		case "status", "avail", "pid", "tail", "help", "version", "":
			c.add(Read, OnlyReads.By(n, "", ""))
		case "stop", "clear":
			c.add(LocalWrite, LocalWork.By(n, "", ""))
		default:
			c.add(Opaque, RunsUnread.By(n, "", ""))
		}
		return
	case "forever":
		switch v {
		case "list", "logs", "columns", "config", "--help", "-h", "":
			c.add(Read, OnlyReads.By(n, "", ""))
		case "stop", "stopall", "cleanlogs":
			c.add(LocalWrite, LocalWork.By(n, "", ""))
		default:
			c.add(LocalWrite, LocalWork.By(n, "", ""))
			c.managed(n, "-c", "--command")
		}
		return
	}
	switch v {
	case "deploy":
		c.add(Deploy, Deploys.By("pm2", "deploy", ""))
	case "list", "ls", "l", "status", "logs", "show", "info", "describe", "monit", "jlist", "prettylist", "ping", "env", "report", "":
		c.add(Read, OnlyReads.By(n, "", ""))
	case "start", "startOrRestart", "startOrReload", "startOrGracefulReload":
		c.add(LocalWrite, LocalWork.By(n, "", ""))
		c.managed(n, "--interpreter", "-i")
	default:
		c.add(LocalWrite, SignalsProcess.By(n, "", ""))
	}
}

// managed judges what a process manager's daemon runs: a file of the
// project is the project's code; a program or a shell line is classified
// as a segment, as the daemon will run it after the step, outside the
// wall when it was started outside it.
func (c *cmd) managed(n string, interpOpts ...string) {
	ops := c.operands()
	if len(ops) < 2 {
		return
	}
	target := ops[1]
	if !target.Literal {
		c.add(Opaque, BuiltAtRunTime.By(n, "", target.Raw))
		return
	}
	var words []string
	for i, w := range c.args {
		if matchOpt(w.Value, interpOpts...) {
			v := strings.TrimPrefix(strings.TrimPrefix(w.Value, w.Value[:strings.IndexByte(w.Value+"=", '=')]), "=")
			if v == "" && i+1 < len(c.args) {
				v = c.args[i+1].Raw
			}
			words = append(words, v)
		}
	}
	v := target.Value
	switch {
	case len(words) == 0 && !strings.ContainsAny(v, " \t;|&") && (strings.Contains(v, "/") || strings.Contains(v, ".")):
		c.runScript(target) // app.js, ./server, ecosystem.config.js
		return
	case strings.ContainsAny(v, " \t;|&"):
		words = append(words, v) // a shell line
	default:
		words = append(words, target.Raw)
	}
	for i, w := range c.args {
		if w.Literal && w.Value == "--" {
			for _, a := range c.args[i+1:] {
				words = append(words, a.Raw)
			}
			break
		}
	}
	for _, f := range c.innerHere(words) {
		switch f.Class {
		case Read, LocalWrite:
			continue
		}
		c.add(f.Class, FromDaemon.By(n, "", f.Why()))
	}
}

// innerHere classifies words a daemon runs in this project, later.
func (c *cmd) innerHere(words []string) []Finding {
	if len(words) == 0 || c.a.ctx.depth >= 3 {
		return nil
	}
	ctx := c.a.ctx
	ctx.depth++
	return Classify(shell.Parse(strings.Join(words, " ")), ctx).Findings
}

// systemdRunValues are systemd-run's options that take the next word as
// their value (systemd-run(1)).
var systemdRunValues = map[string]bool{
	"-u": true, "--unit": true, "-p": true, "--property": true, "--description": true, "--slice": true, "-E": true,
	"--setenv": true, "-H": true, "--host": true, "-M": true, "--machine": true, "--uid": true, "--gid": true,
	"--nice": true, "-D": true, "--working-directory": true, "--on-active": true, "--on-boot": true, "--on-startup": true,
	"--on-unit-active": true, "--on-unit-inactive": true, "--on-calendar": true, "--timer-property": true,
	"--path-property": true, "--socket-property": true, "--service-type": true,
}

func systemdRunFamily() family {
	return family{names: []string{"systemd-run"}, classify: systemdRun}
}

// systemdRun: systemd-run hands a command to the service manager, the
// system's or with --user the person's, which runs it outside the wall,
// later with a timer option (systemd-run(1)); the command is judged as
// a segment.
func systemdRun(c *cmd) {
	privileged(c)
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].Value
		if v == "--" {
			i++
		} else if strings.HasPrefix(v, "-") {
			if systemdRunValues[v] {
				i++
			}
			continue
		}
		var words []string
		for _, w := range c.args[i:] {
			words = append(words, w.Raw)
		}
		c.daemonRuns(c.name, words)
		return
	}
}

// launchctlSubmit: launchctl submit -l LABEL -- COMMAND has launchd run
// the command and keep it alive (launchctl(1)).
func (c *cmd) launchctlSubmit() {
	for i, w := range c.args {
		if w.Literal && w.Value == "--" {
			var words []string
			for _, a := range c.args[i+1:] {
				words = append(words, a.Raw)
			}
			c.daemonRuns("launchctl submit", words)
			return
		}
	}
}

// daemonRuns classifies the words a service manager runs for the step.
func (c *cmd) daemonRuns(n string, words []string) {
	for _, f := range c.innerHere(words) {
		switch f.Class {
		case Read, LocalWrite:
			continue
		}
		c.add(f.Class, FromDaemon.By(n, "", f.Why()))
	}
}
