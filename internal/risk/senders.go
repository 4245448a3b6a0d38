// Programs whose job is to send or open a connection: openssl, swaks, websockets, tunnels.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// openssl: s_client and friends talk to hosts; other commands work on
// local files.
func openssl(c *cmd) {
	v := c.verb()
	switch v {
	case "s_client", "s_time", "ocsp":
		c.add(Network, Words("openssl "+v+" connects to a host"))
		if c.seg.Pipeline != 0 && c.seg.Stage > 0 {
			c.add(Exfil, Words("openssl "+v+" sends its input to the host"))
		}
		for _, r := range c.seg.Redirs {
			if r.Reads() || r.Input() {
				c.add(Exfil, Words("openssl "+v+" sends its input to the host"))
			}
		}
	case "s_server":
		c.add(Network, Words("openssl s_server listens for connections"))
	case "version", "help", "list", "ciphers", "errstr", "rand", "speed", "":
		c.add(Read, Words("openssl "+v))
	default:
		c.add(Read, Words("openssl "+v))
		for i, w := range c.args {
			switch {
			case (w.Value == "-out" || w.Value == "-keyout") && i+1 < len(c.args):
				c.write(c.args[i+1])
			case w.Value == "-in" && (v == "x509" || v == "verify" || v == "crl" || v == "asn1parse" && false) && i+1 < len(c.args):
				// a certificate: x509 will not print a key
				c.readIfProtected(c.args[i+1])
			case (w.Value == "-in" || w.Value == "-key" || w.Value == "-inkey" || w.Value == "-CAkey") && i+1 < len(c.args):
				c.path(OpRead, c.args[i+1])
			}
		}
	}
}

// readIfProtected records w as read only when it is sayso's own.
func (c *cmd) readIfProtected(w shell.Word) {
	for _, p := range c.a.resolve(w) {
		if c.a.protected(p) {
			c.path(OpRead, w)
			return
		}
	}
}

func swaks(c *cmd) {
	if c.has("--help", "--version") {
		c.add(Read, Words("swaks"))
		return
	}
	c.add(Exfil, Words("swaks sends mail"))
}

func websocket(c *cmd) {
	for _, w := range c.operands() {
		v := w.Value
		if strings.Contains(v, "://") && !strings.Contains(v, "://localhost") && !strings.Contains(v, "://127.0.0.1") {
			c.add(Exfil, Words(c.name+" sends its input to "+v))
			return
		}
	}
	if c.has("-s", "--server", "-l", "--listen") {
		c.add(Network, Words(c.name+" listens"))
		return
	}
	c.add(LocalWrite, Words(c.name+" talks to a local server"))
}

func tailscale(c *cmd) {
	switch v := c.verb(); v {
	case "status", "ip", "ping", "netcheck", "whois", "version", "dns", "exit-node", "metrics", "licenses", "bugreport", "":
		if v == "exit-node" && c.words(2)[1] != "list" {
			c.add(Privilege, Words("tailscale exit-node"))
			return
		}
		c.add(Read, Words("tailscale "+v))
	case "funnel", "serve":
		if w := c.words(2)[1]; w == "status" || c.has("status") {
			c.add(Read, Words("tailscale "+v+" status"))
			return
		}
		c.add(Exfil, Words("tailscale "+v+" exposes a local service"))
	case "file":
		if c.words(2)[1] == "cp" {
			c.add(Exfil, Words("tailscale file cp sends files"))
			return
		}
		c.add(LocalWrite, Words("tailscale file get"))
	case "ssh", "nc":
		c.add(Network, Words("tailscale "+v))
		c.add(Opaque, Words("tailscale "+v+" runs a session on another machine"))
	case "login", "logout", "switch", "cert":
		c.add(Secret, Words("tailscale "+v))
	default:
		c.add(Privilege, Words("tailscale "+v+" changes this machine's network"))
	}
}

func sshCopyID(c *cmd) {
	c.add(RemoteWrite, Words("ssh-copy-id installs a key on another host"))
	c.add(Privilege, Words("ssh-copy-id grants login to another host"))
}

func grpcurl(c *cmd) {
	if c.has("-d") {
		c.add(Exfil, Words("grpcurl -d sends data to a host"))
		return
	}
	c.add(Network, Words("grpcurl reaches a host"))
}

func tunnel(c *cmd) {
	c.add(Exfil, Words(c.name+" exposes a local port to the internet"))
}
