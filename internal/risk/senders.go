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
		c.add(Network, ReachesHost.By("openssl", v, ""))
		if c.seg.Pipeline != 0 && c.seg.Stage > 0 {
			c.add(Exfil, SendsData.By("openssl", v, ""))
		}
		for _, r := range c.seg.Redirs {
			if r.Reads() || r.Input() {
				c.add(Exfil, SendsData.By("openssl", v, ""))
			}
		}
	case "s_server":
		c.add(Network, ReachesHost.By("openssl", "s_server", ""))
	case "version", "help", "list", "ciphers", "errstr", "rand", "speed", "":
		c.add(Read, OnlyReads.By("openssl", v, ""))
	default:
		c.add(Read, OnlyReads.By("openssl", v, ""))
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

func opensslFamily() family {
	return family{names: []string{"openssl"}, classify: openssl}
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

func swaksFamily() family { return family{names: []string{"swaks"}, classify: swaks} }

func swaks(c *cmd) { c.byFlag([]string{"--help", "--version"}, "", Read, OnlyReads, Exfil, SendsData) }

func websocketFamily() family {
	return family{names: []string{"websocat", "wscat"}, classify: websocket}
}

func websocket(c *cmd) {
	for _, w := range c.operands() {
		v := w.Value
		if strings.Contains(v, "://") && !strings.Contains(v, "://localhost") && !strings.Contains(v, "://127.0.0.1") {
			c.add(Exfil, SendsData.By(c.name, "", v))
			return
		}
	}
	if c.has("-s", "--server", "-l", "--listen") {
		c.add(Network, ReachesHost.By(c.name, "", ""))
		return
	}
	c.add(LocalWrite, ServesLocally.By(c.name, "", ""))
}

func tailscaleFamily() family {
	return family{names: []string{"tailscale"}, classify: tailscale}
}

func tailscale(c *cmd) {
	switch v := c.verb(); v {
	case "status", "ip", "ping", "netcheck", "whois", "version", "dns", "exit-node", "metrics", "licenses", "bugreport", "":
		if v == "exit-node" && c.words(2)[1] != "list" {
			c.add(Privilege, RaisesPrivilege.By("tailscale", "exit-node", ""))
			return
		}
		c.add(Read, OnlyReads.By("tailscale", v, ""))
	case "funnel", "serve":
		if w := c.words(2)[1]; w == "status" || c.has("status") {
			c.add(Read, OnlyReads.By("tailscale", v+" status", ""))
			return
		}
		c.add(Exfil, ExposesService.By("tailscale", v, ""))
	case "file":
		if c.words(2)[1] == "cp" {
			c.add(Exfil, SendsData.By("tailscale", "file cp", ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("tailscale", "file get", ""))
	case "ssh", "nc":
		c.add(Network, ReachesHost.By("tailscale", v, ""))
		c.add(Opaque, RunsUnread.By("tailscale", v, ""))
	case "login", "logout", "switch", "cert":
		c.add(Secret, TouchesCredential.By("tailscale", v, ""))
	default:
		c.add(Privilege, ChangesSystem.By("tailscale", v, ""))
	}
}

func sshCopyID(c *cmd) {
	c.add(RemoteWrite, ChangesServer.By("ssh-copy-id", "", ""))
	c.add(Privilege, RaisesPrivilege.By("ssh-copy-id", "", ""))
}

func sshCopyIDFamily() family {
	return family{names: []string{"ssh-copy-id"}, classify: sshCopyID}
}

func grpcurl(c *cmd) { c.byFlag([]string{"-d"}, "-d", Exfil, SendsData, Network, ReachesHost) }

func grpcurlFamily() family {
	return family{names: []string{"grpcurl"}, classify: grpcurl}
}

func tunnelFamily() family {
	return family{names: []string{"ngrok", "cloudflared", "lt", "bore", "localtunnel"}, classify: tunnel}
}

func tunnel(c *cmd) {
	c.add(Exfil, ExposesService.By(c.name, "", ""))
}
