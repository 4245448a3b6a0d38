// Listening: servers, port-forwards and tunnels bound to every address,
// what they serve, and shells handed to whoever connects.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// listenOpts are the options by which servers and port-forwards name the
// address they listen on (uvicorn --host, flask run --host, vite --host,
// kubectl port-forward --address, http.server --bind, jupyter --ip).
var listenOpts = []string{"--host", "--bind", "--address", "--addr", "--listen", "--ip", "--host-ip", "--hostname", "--listen-address", "--http-addr"}

// everyAddress reports whether an address, with or without a port after
// it, is every address of the machine: 0.0.0.0, ::, [::], * (bind(2)'s
// INADDR_ANY and in6addr_any), or a port alone (":8080", which Go's
// net.Listen and most servers built on it bind on every address).
func everyAddress(v string) bool {
	v = strings.Trim(v, `"'`)
	if port, ok := strings.CutPrefix(v, ":"); ok && port != "" && strings.Trim(port, "0123456789") == "" {
		return true
	}
	for _, a := range []string{"0.0.0.0", "[::]", "::", "*", "[::0]", "::0"} {
		if v == a || strings.HasPrefix(v, a+":") && a != "::" {
			return true
		}
	}
	return false
}

// listenAll classifies a listener bound to every address: others on the
// network reach what it serves, past the wall's loopback.
func (c *cmd) listenAll(n string, opts ...string) {
	for i, w := range c.args {
		if !w.Literal {
			continue
		}
		v := w.Value
		for _, o := range opts {
			val := ""
			switch {
			case v == o && i+1 < len(c.args) && c.args[i+1].Literal:
				val = c.args[i+1].Value
			case len(v) > len(o) && v[len(o)] == '=' && strings.HasPrefix(v, o):
				val = v[len(o)+1:]
			default:
				continue
			}
			for _, a := range strings.Split(val, ",") { // kubectl port-forward --address localhost,0.0.0.0
				if everyAddress(a) {
					c.add(Network, ListensEverywhere.By(n, o+" "+val, ""))
					return
				}
			}
		}
	}
}

// listens: a server or forward of any program, bound to every address by
// a listen option, or by an address:port operand (php -S 0.0.0.0:8000,
// docker run -p 0.0.0.0:80:80, ssh -L 0.0.0.0:5432:db:5432). Programs that
// only look or print take such words as data.
func (c *cmd) listens() {
	if program.Is(c.name, program.Looks) || c.name == "git" {
		return
	}
	c.listenAll(c.name, listenOpts...)
	for _, w := range c.args {
		if w.Literal {
			v := w.Value
			if at := strings.IndexByte(v, '='); at > 0 && strings.HasPrefix(v, "-") {
				v = v[at+1:]
			}
			if strings.HasPrefix(v, "0.0.0.0:") || strings.HasPrefix(v, "[::]:") || strings.HasPrefix(v, "*:") {
				c.add(Network, ExposesService.By(c.name, "", w.Value))
				return
			}
		}
	}
}

// servesRoot: a file server whose root is the home or the whole file
// system (python -m http.server --directory, its working folder when
// none is named) hands every key in it to whoever connects.
func (c *cmd) servesRoot(n string, rest []shell.Word, opts ...string) {
	root := shell.Word{Raw: ".", Value: ".", Literal: true}
	for i, w := range rest {
		for _, o := range opts {
			switch {
			case w.Value == o && i+1 < len(rest):
				root = rest[i+1]
			case strings.HasPrefix(o, "--") && strings.HasPrefix(w.Value, o+"="):
				v := w.Value[len(o)+1:]
				root = shell.Word{Raw: v, Value: v, Literal: w.Literal, Tilde: strings.HasPrefix(v, "~")}
			}
		}
	}
	ps := c.a.resolve(root)
	if ps == nil {
		c.add(Opaque, PathUnknown.By(n, "serve", root.Raw))
		return
	}
	for _, p := range ps {
		if p == "/" || p == c.a.ctx.Home || p == "/home" || p == "/root" || p == "/Users" || secretPath(p, c.a.ctx.Home) != "" {
			c.add(Exfil, ExposesService.By(n, "", p))
			return
		}
	}
}

// bindShell: nc -l with -e or -c (nc(1) of netcat-traditional, ncat(1)
// --exec, --sh-exec, --lua-exec) hands a shell, or the program named, to
// whoever connects; a plain nc -l listens on every address.
func (c *cmd) bindShell() {
	if c.has("-e", "-c", "--exec", "--sh-exec", "--lua-exec") || c.shortFlag('e') && !c.has("--") {
		c.add(Exfil, ExposesService.By(c.name, "-l", ""))
		return
	}
	if !c.has("-s", "--source") && !c.hasLocalOperand() {
		c.add(Network, ListensEverywhere.By(c.name, "-l", ""))
	}
}

// hasLocalOperand reports whether an operand names this machine's loopback.
func (c *cmd) hasLocalOperand() bool {
	for _, w := range c.operands() {
		switch w.Value {
		case "localhost", "127.0.0.1", "::1":
			return true
		}
	}
	return false
}

// socatShell: a socat listening address (TCP-LISTEN, TCP4-L, …) joined
// to EXEC or SYSTEM (socat(1)) runs the program for whoever connects.
func (c *cmd) socatShell() {
	listen, run := false, false
	for _, w := range c.operands() {
		l := strings.ToLower(w.Value)
		kind, _, _ := strings.Cut(l, ":")
		switch {
		case strings.Contains(kind, "listen") || strings.HasSuffix(kind, "-l") || strings.HasSuffix(kind, "-recvfrom"):
			listen = true
		case kind == "exec" || kind == "system":
			run = true
		}
	}
	if listen && run {
		c.add(Exfil, ExposesService.By("socat", "", ""))
	}
}

// sshForwards: ssh -R opens a port on the remote host that leads into
// this machine; -D runs a SOCKS proxy; -L forwards a local port, on
// every address with -g or a bind address of 0.0.0.0 (ssh(1)).
func (c *cmd) sshForwards() {
	for i, w := range c.args {
		v := w.Value
		if !w.Literal || len(v) < 2 || v[0] != '-' || v[1] == '-' {
			continue
		}
		spec := ""
		for j := 1; j < len(v); j++ {
			f := v[j]
			if f != 'R' && f != 'D' && f != 'L' {
				if strings.IndexByte("bcEeFIiJlmOopQSWw", f) >= 0 {
					break // an option with a value: the rest is its value
				}
				continue
			}
			spec = v[j+1:]
			if spec == "" && i+1 < len(c.args) {
				spec = c.args[i+1].Value
			}
			switch f {
			case 'R':
				c.add(Exfil, ExposesService.By("ssh -R", spec, ""))
			case 'D':
				c.add(Network, ReachesHost.By("ssh -D", spec, ""))
			case 'L':
				c.add(Network, ReachesHost.By("ssh -L", spec, ""))
			}
			break
		}
	}
	if c.shortFlag('g') {
		c.add(Network, ReachesHost.By("ssh", "-g", ""))
	}
}

// jupyterFamily: notebook servers run whatever code a browser sends them;
// their token is what keeps others out.
func jupyterFamily() family {
	return family{names: []string{"jupyter"}, classify: jupyter}
}

// jupyter classifies a notebook server: with its token and password off
// (--ServerApp.token=”, --NotebookApp.token=”, --IdentityProvider.token=”
// in Jupyter Server's config reference), whoever reaches the port runs
// code on this machine; bound to every address, others reach it.
func jupyter(c *cmd) {
	c.add(LocalWrite, RunsProject.By("jupyter", "", ""))
	c.readSecrets()
	c.cwdWrite()
	for _, w := range c.args {
		k, v, ok := strings.Cut(w.Value, "=")
		if !ok || !w.Literal {
			continue
		}
		switch strings.ToLower(k) {
		case "--serverapp.token", "--notebookapp.token", "--identityprovider.token", "--serverapp.password", "--notebookapp.password":
			if strings.Trim(v, `"'`) == "" {
				c.add(Exfil, ExposesService.By("jupyter", k, ""))
			}
		case "--serverapp.disable_check_xsrf", "--notebookapp.disable_check_xsrf":
			if strings.EqualFold(v, "true") {
				c.add(Exfil, ExposesService.By("jupyter", k, ""))
			}
		}
	}
}
