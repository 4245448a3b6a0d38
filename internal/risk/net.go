package risk

import (
	"net/url"
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// curlFamily: curl, its local-only forms read before the rest.
func curlFamily() family {
	return family{names: []string{"curl"}, traits: program.Remote, before: curlLocal, classify: curl}
}

// scpFamily copies to and from other hosts; a copy of the home is a
// secret leaving.
func scpFamily() family {
	return family{names: []string{"scp"}, traits: program.Remote, classify: scp, after: copiesHome}
}

// hostOf returns the host a URL-like word names, or "".
func hostOf(v string) string {
	if !strings.Contains(v, "://") {
		if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "@") || !strings.Contains(v, ".") && !strings.HasPrefix(v, "localhost") {
			return ""
		}
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

func (a *assessor) trusted(host string) bool {
	for _, h := range a.ctx.TrustedHosts {
		if host == h || strings.HasPrefix(h, "*.") && strings.HasSuffix(host, h[1:]) {
			return true
		}
	}
	return false
}

// savesDownload remembers that w holds what this step downloads: running it
// later in the same step runs downloaded code.
func (c *cmd) savesDownload(w shell.Word) {
	if c.a.fetched == nil {
		c.a.fetched = map[string]bool{}
	}
	for _, p := range c.a.resolve(w) {
		c.a.fetched[p] = true
	}
}

// savesDownloadsOf remembers the files curl -O and wget name after URLs.
func (c *cmd) savesDownloadsOf(urls []shell.Word) {
	for _, u := range urls {
		v := u.Value
		if i := strings.IndexAny(v, "?#"); i >= 0 {
			v = v[:i]
		}
		if j := strings.LastIndexByte(v, '/'); j >= 0 && j+1 < len(v) {
			c.savesDownload(shell.Word{Raw: v[j+1:], Value: v[j+1:], Literal: true})
		}
	}
}

// makes remembers that the step writes, copies or links w: running it
// later in the same step runs code sayso saw made but does not read.
func (c *cmd) makes(w shell.Word) {
	if c.a.made == nil {
		c.a.made = map[string]bool{}
	}
	for _, p := range c.a.resolve(w) {
		c.a.made[p] = true
		delete(c.a.madeText, p)
	}
}

// madeCode returns the text the step last wrote to each of ps with cat
// from a here-doc, when it wrote them all that way and the text is one.
func (a *assessor) madeCode(ps []string) (string, bool) {
	text, ok := "", false
	for i, p := range ps {
		t, known := a.madeText[p]
		if !known || i > 0 && t != text {
			return "", false
		}
		text, ok = t, true
	}
	return text, ok
}

// runsMade reports whether one of ps was written, copied or linked by an
// earlier segment of this step.
func (a *assessor) runsMade(ps []string) bool {
	for _, p := range ps {
		if a.made[p] {
			return true
		}
	}
	return false
}

// runsDownload reports whether p was saved by a download in this step, or
// may have been unpacked from one.
func (a *assessor) runsDownload(ps []string) bool {
	if a.unpacked && len(ps) > 0 {
		return true
	}
	for _, p := range ps {
		if a.fetched[p] {
			return true
		}
	}
	return false
}

// fetch classifies a plain download from the hosts named by urls.
func (c *cmd) fetch(urls []shell.Word) {
	if len(urls) == 0 {
		c.add(Network, ReachesHost.By(c.name, "", ""))
		return
	}
	for _, u := range urls {
		if !u.Literal {
			c.add(Network, BuiltAtRunTime.By(c.name, "", u.Raw))
			continue
		}
		if strings.HasPrefix(u.Value, "file:") {
			c.path(OpRead, shell.Word{Raw: u.Value, Value: strings.TrimPrefix(strings.TrimPrefix(u.Value, "file://"), "file:"), Literal: true})
			continue
		}
		h := hostOf(u.Value)
		switch {
		case h == "":
			c.add(Network, ReachesHost.By(c.name, "", u.Raw))
		case c.a.trusted(h):
			c.add(Read, FetchesTrusted.By(c.name, "", h))
		default:
			c.add(Network, FetchesUntrusted.By(c.name, "", h))
		}
	}
}

var curlArgOpts = map[string]bool{
	"-o": true, "--output": true, "-H": true, "--header": true, "-u": true, "--user": true, "-A": true, "--user-agent": true,
	"-e": true, "--referer": true, "-x": true, "--proxy": true, "-m": true, "--max-time": true, "--connect-timeout": true,
	"-w": true, "--write-out": true, "-c": true, "--cookie-jar": true, "-b": true, "--cookie": true, "-r": true, "--range": true,
	"--retry": true, "-C": true, "--continue-at": true, "--cacert": true, "--cert": true, "--key": true, "-E": true,
	"--resolve": true, "--connect-to": true, "-Y": true, "-y": true, "--limit-rate": true, "--max-filesize": true,
	"--url": false, "-X": true, "--request": true, "-D": true, "--dump-header": true, "--trace": true, "--trace-ascii": true,
	"--stderr": true, "--interface": true, "--dns-servers": true, "--oauth2-bearer": true, "--aws-sigv4": true,
	"--output-dir": true, "-z": true, "--time-cond": true, "--retry-delay": true, "--retry-max-time": true, "-Q": true, "--quote": true,
}

func curl(c *cmd) {
	var urls []shell.Word
	send, sendFile, stdin := false, false, false
	method := ""
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		name, val, hasVal := strings.Cut(v, "=")
		next := func() shell.Word {
			if hasVal {
				return shell.Word{Raw: val, Value: val, Literal: w.Literal}
			}
			if i+1 < len(c.args) {
				i++
				return c.args[i]
			}
			return shell.Word{}
		}
		if !strings.HasPrefix(v, "-") || v == "-" {
			urls = append(urls, w)
			continue
		}
		if !strings.HasPrefix(v, "--") {
			name, hasVal = v[:2], len(v) > 2
			val = v[2:]
			if hasVal && !curlArgOpts[name] && !isDataOpt(name) {
				// a cluster of flags such as -fsSL; the last may take a value
				last := "-" + v[len(v)-1:]
				switch {
				case curlArgOpts[last] || isDataOpt(last):
					name, hasVal = last, false
				case strings.ContainsRune(v[1:], 'O'):
					name, hasVal = "-O", false // -sLO saves under the URL's name
				default:
					continue
				}
			}
		}
		switch {
		case name == "--url":
			urls = append(urls, next())
		case isDataOpt(name):
			send = true
			d := next()
			dv := d.Value
			if name == "-T" || name == "--upload-file" {
				if dv == "-" || dv == "." {
					stdin = true
				} else {
					sendFile = true
					c.path(OpRead, d)
				}
				continue
			}
			if name == "-F" || name == "--form" {
				if _, fv, ok := strings.Cut(dv, "="); ok && (strings.HasPrefix(fv, "@") || strings.HasPrefix(fv, "<")) {
					f := strings.TrimLeft(fv, "@<")
					if j := strings.IndexByte(f, ';'); j >= 0 {
						f = f[:j]
					}
					if f == "-" {
						stdin = true
					} else {
						sendFile = true
						c.path(OpRead, shell.Word{Raw: f, Value: f, Literal: d.Literal, Tilde: strings.HasPrefix(f, "~")})
					}
				}
				continue
			}
			if strings.HasPrefix(dv, "@") && name != "--data-raw" {
				f := dv[1:]
				if f == "-" {
					stdin = true
				} else {
					sendFile = true
					c.path(OpRead, shell.Word{Raw: f, Value: f, Literal: d.Literal, Tilde: strings.HasPrefix(f, "~")})
				}
			}
		case name == "-X" || name == "--request":
			method = strings.ToUpper(next().Value)
		case name == "-o" || name == "--output":
			o := next()
			if !quietDevice(o) {
				c.write(o)
				c.savesDownload(o)
			}
		case name == "--output-dir":
			c.writesUnder(next())
		case name == "-D" || name == "--dump-header" || name == "-c" || name == "--cookie-jar" || name == "--trace" || name == "--trace-ascii" ||
			name == "--stderr" || name == "--libcurl" || name == "--etag-save" || name == "--hsts" || name == "--alt-svc":
			// files curl writes beside the download: headers, cookies, traces
			if o := next(); !quietDevice(o) && o.Value != "-" && o.Value != "%" {
				c.write(o)
			}
		case name == "-O" || name == "--remote-name" || name == "--remote-name-all":
			c.add(LocalWrite, SavesDownload.By("curl", "-O", ""))
			c.cwdWrite()
			defer func() { c.savesDownloadsOf(urls) }()
		case name == "-K" || name == "--config":
			c.add(Opaque, RunsUnread.By("curl", "", ""))
			next()
		case name == "-H" || name == "--header":
			h := next()
			for _, p := range h.Params {
				if secretVar(p) {
					c.add(Network, SendsCredential.By("curl", "", p))
				}
			}
		case curlArgOpts[name] && !hasVal:
			next()
		}
	}
	if method != "" && method != "GET" && method != "HEAD" && method != "OPTIONS" {
		send = true
	}
	switch {
	case sendFile:
		c.add(Exfil, SendsData.By("curl", "", ""))
	case stdin:
		c.a.mark(c.i, roleSend)
		c.add(Exfil, SendsData.By("curl", "", ""))
	case send:
		c.add(Exfil, SendsData.By("curl", "", ""))
	default:
		c.a.mark(c.i, roleFetch)
		c.fetch(urls)
	}
}

func isDataOpt(n string) bool {
	switch n {
	case "-d", "--data", "--data-binary", "--data-raw", "--data-ascii", "--data-urlencode", "--json", "-F", "--form", "--form-string", "-T", "--upload-file":
		return true
	}
	return false
}

func wgetFamily() family {
	return family{names: []string{"wget", "aria2c"}, classify: wget}
}

func wget(c *cmd) {
	var urls []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		name, val, hasVal := strings.Cut(v, "=")
		switch {
		case name == "--post-file" || name == "--body-file":
			f := val
			if !hasVal && i+1 < len(c.args) {
				i++
				f = c.args[i].Value
			}
			c.path(OpRead, shell.Word{Raw: f, Value: f, Literal: true, Tilde: strings.HasPrefix(f, "~")})
			c.add(Exfil, SendsData.By("wget", "", ""))
			return
		case name == "--post-data" || name == "--body-data" || name == "--method" && !strings.EqualFold(val, "GET"):
			c.add(Exfil, SendsData.By("wget", "", ""))
			return
		case name == "-O" || name == "--output-document" || strings.HasPrefix(v, "-O") && len(v) > 2:
			o := val
			if strings.HasPrefix(v, "-O") && len(v) > 2 {
				o = v[2:]
			} else if !hasVal && i+1 < len(c.args) {
				i++
				o = c.args[i].Value
			}
			if o == "-" {
				c.a.mark(c.i, roleFetch)
			} else if o != "/dev/null" {
				ow := shell.Word{Raw: o, Value: o, Literal: true, Tilde: strings.HasPrefix(o, "~")}
				c.write(ow)
				c.savesDownload(ow)
			}
		case name == "-P" || name == "--directory-prefix" || name == "-o" || name == "--output-file" || name == "-a" || name == "--append-output":
			// the folder it saves into, or the file it logs to
			o := shell.Word{Raw: val, Value: val, Literal: w.Literal}
			if !hasVal && i+1 < len(c.args) {
				i++
				o = c.args[i]
			}
			if name == "-P" || name == "--directory-prefix" {
				c.writesUnder(o)
			} else if !quietDevice(o) {
				c.write(o)
			}
		case name == "-i" || name == "--input-file" || name == "-e" || name == "--execute" || name == "-U" || name == "--user-agent" || name == "--header" || name == "-t" || name == "-T" || name == "-Q":
			if name == "-e" || name == "--execute" {
				c.add(Opaque, RunsUnread.By("wget", "-e", ""))
			}
			if !hasVal {
				i++
			}
		case strings.HasPrefix(v, "-"):
		default:
			urls = append(urls, w)
		}
	}
	if !c.has("-O", "--output-document") && !c.a.is(c.i, roleFetch) {
		c.add(LocalWrite, SavesDownload.By("wget", "", ""))
		c.cwdWrite()
		c.savesDownloadsOf(urls)
	}
	c.fetch(urls)
	if c.a.is(c.i, roleFetch) {
		return
	}
	// wget -qO- prints the download.
	for _, w := range c.args {
		if strings.HasPrefix(w.Value, "-") && strings.HasSuffix(w.Value, "O-") {
			c.a.mark(c.i, roleFetch)
		}
	}
}

func httpieFamily() family {
	return family{names: []string{"httpie", "http", "https", "xh"}, classify: httpie}
}

func httpie(c *cmd) {
	ops := c.operands()
	method := ""
	if len(ops) > 0 && isHTTPMethod(ops[0].Value) {
		method = strings.ToUpper(ops[0].Value)
		ops = ops[1:]
	}
	items := 0
	if len(ops) > 1 {
		items = len(ops) - 1
		for _, w := range ops[1:] {
			if strings.Contains(w.Value, "@") {
				c.add(Exfil, SendsData.By(c.name, "", ""))
			}
		}
	}
	if method != "" && method != "GET" && method != "HEAD" || items > 0 && method == "" && hasDataItem(ops[1:]) {
		c.add(Exfil, SendsData.By(c.name, "", ""))
		return
	}
	c.a.mark(c.i, roleFetch)
	c.fetch(ops[:min(1, len(ops))])
}

func isHTTPMethod(v string) bool {
	switch strings.ToUpper(v) {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
		return true
	}
	return false
}

func hasDataItem(ws []shell.Word) bool {
	for _, w := range ws {
		if strings.Contains(w.Value, "=") && !strings.Contains(w.Value, "==") || strings.Contains(w.Value, ":=") {
			return true
		}
	}
	return false
}

func sshFamily() family {
	return family{names: []string{"mosh", "autossh", "ssh"}, classify: ssh}
}

func ssh(c *cmd) {
	c.sshForwards()
	var pos []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if strings.HasPrefix(v, "-o") {
			opt := strings.TrimPrefix(v, "-o")
			if opt == "" && i+1 < len(c.args) {
				i++
				opt = c.args[i].Value
			}
			l := strings.ToLower(opt)
			if strings.HasPrefix(l, "proxycommand") || strings.HasPrefix(l, "localcommand") || strings.HasPrefix(l, "permitlocalcommand") || strings.HasPrefix(l, "knownhostscommand") || strings.HasPrefix(l, "match") {
				c.add(Opaque, RunsUnread.By("ssh -o", opt, ""))
			}
			continue
		}
		if len(v) > 1 && v[0] == '-' {
			if strings.ContainsAny(v[len(v)-1:], "bcDEeFIiJLlmOpQRSWw") && len(v) == 2 {
				if v == "-F" || v == "-i" {
					if i+1 < len(c.args) {
						c.path(OpRead, c.args[i+1])
					}
				}
				if v == "-J" {
					c.add(Network, ReachesHost.By("ssh", "", ""))
				}
				i++
			}
			continue
		}
		pos = append(pos, w)
	}
	if len(pos) == 0 {
		c.add(Read, OnlyReads.By("ssh", "", ""))
		return
	}
	c.a.mark(c.i, roleSend)
	for _, r := range c.seg.Redirs {
		if r.Reads() || r.Input() {
			c.add(Exfil, SendsData.By("ssh", pos[0].Raw, r.Target.Raw))
		}
	}
	c.add(Opaque, RunsUnread.By("ssh", "", pos[0].Raw))
	c.add(RemoteWrite, ChangesServer.By("ssh", "", pos[0].Raw))
}

func scpFamily2() family {
	return family{names: []string{"sftp"}, classify: scp}
}

func scp(c *cmd) {
	ops := c.operands()
	for i, w := range c.args {
		if (w.Value == "-S" || w.Value == "-o" && i+1 < len(c.args) && strings.HasPrefix(strings.ToLower(c.args[i+1].Value), "proxycommand")) && i+1 < len(c.args) {
			c.add(Opaque, RunsOptionProgram.By("scp", "", w.Value))
		}
	}
	if c.name == "sftp" {
		c.add(Exfil, SendsData.By("sftp", "", strings.Join(shell.Words(ops), " ")))
		return
	}
	if len(ops) < 2 {
		c.add(Read, ChangesNothing.By("scp", "", ""))
		return
	}
	if c.sendsToHost("scp", ops, true) {
		return
	}
	dst := ops[len(ops)-1]
	c.add(Network, ReachesHost.By("scp", "", ""))
	c.write(dst)
}

func socatFamily() family {
	return family{names: []string{"socat"}, classify: socat}
}

func socat(c *cmd) {
	remote, file := false, false
	for _, w := range c.operands() {
		l := strings.ToLower(w.Value)
		kind, _, hasColon := strings.Cut(l, ":")
		if !hasColon && strings.Contains(l, "/") {
			kind = "gopen" // a bare path is socat's GOPEN
			w.Value = kind + ":" + w.Value
		}
		switch {
		case !w.Literal:
			c.add(Opaque, BuiltAtRunTime.By("socat", "address", ""))
		case kind == "exec" || kind == "system":
			c.add(Opaque, RunsOptionProgram.By("socat", "", ""))
		case strings.HasPrefix(kind, "tcp") || strings.HasPrefix(kind, "udp") || strings.HasPrefix(kind, "openssl") || strings.HasPrefix(kind, "sctp"):
			remote = true
		case (kind == "file" || kind == "open" || kind == "gopen" || kind == "create") && len(w.Value) > len(kind):
			file = true
			f := w.Value[len(kind)+1:]
			if i := strings.IndexByte(f, ','); i >= 0 {
				f = f[:i]
			}
			c.path(OpRead, shell.Word{Raw: f, Value: f, Literal: true, Tilde: strings.HasPrefix(f, "~")})
		}
	}
	c.socatShell()
	switch {
	case remote && file:
		c.add(Exfil, SendsData.By("socat", "", ""))
	case remote:
		c.a.mark(c.i, roleSend)
		c.add(Network, ReachesHost.By("socat", "", ""))
	default:
		c.add(LocalWrite, ServesLocally.By("socat", "", ""))
	}
}

func netcatFamily() family {
	return family{names: []string{"lftp", "ncftp", "smbclient", "nc", "ncat", "netcat", "telnet", "ftp", "tftp"}, classify: netcat}
}

func netcat(c *cmd) {
	if c.has("-l", "--listen") || c.shortFlag('l') {
		c.add(LocalWrite, ServesLocally.By(c.name, "", ""))
		c.bindShell()
		return
	}
	if c.has("-e", "-c", "--exec", "--sh-exec", "--lua-exec") || c.name == "socat" && strings.Contains(strings.Join(shell.Words(c.args), " "), "EXEC:") || c.name == "socat" && strings.Contains(strings.Join(shell.Words(c.args), " "), "SYSTEM:") {
		c.add(Opaque, RunsOptionProgram.By(c.name, "", ""))
	}
	c.a.mark(c.i, roleSend)
	for _, r := range c.seg.Redirs {
		if r.Reads() {
			c.add(Exfil, SendsData.By(c.name, "", ""))
		}
	}
	if c.has("-z") || c.shortFlag('z') {
		c.add(Network, ReachesHost.By(c.name, "-z", ""))
		return
	}
	c.add(Network, ReachesHost.By(c.name, "", ""))
}

func mail(c *cmd) {
	c.a.mark(c.i, roleSend)
	c.add(Exfil, SendsData.By(c.name, "", ""))
}

func mailFamily() family {
	return family{names: []string{"mail", "sendmail", "mutt"}, classify: mail}
}

// HostsNamed are the hosts the words of a step name as URLs
// (https://host/…) or as remotes (git@host:repo). A step the person
// approved reaches these through its wall as well as the trusted hosts:
// its card showed them.
func HostsNamed(script *shell.Script) []string {
	if script == nil {
		return nil
	}
	var out []string
	for i := range script.Segments {
		seg := &script.Segments[i]
		for _, w := range seg.Args {
			v := w.Value
			if !w.Literal || v == "" {
				continue
			}
			if !strings.Contains(v, "://") {
				// user@host:path, as ssh and git spell a remote.
				user, rest, ok := strings.Cut(v, "@")
				host, _, colon := strings.Cut(rest, ":")
				if !ok || !colon || user == "" || strings.ContainsAny(user, "/:") || !strings.Contains(host, ".") {
					continue
				}
				v = "ssh://" + user + "@" + host
			}
			if h := hostOf(v); h != "" {
				out = append(out, h)
			}
		}
	}
	return out
}

// curlLocal: data sent to this machine (a dev server on localhost) stays
// on it, unless a proxy, a resolve or a file sends it elsewhere.
func curlLocal(c *cmd) bool {
	local := false
	skip := false
	for i, w := range c.args {
		v := w.Value
		if !w.Literal {
			return false
		}
		if skip {
			skip = false
			continue
		}
		name, val, _ := strings.Cut(v, "=")
		switch {
		case name == "-x" || name == "--proxy" || name == "--preproxy" || strings.HasPrefix(name, "--socks") || name == "--resolve" ||
			name == "--connect-to" || name == "-K" || name == "--config" || name == "-T" || name == "--upload-file" || strings.HasPrefix(v, "-x") && len(v) > 2:
			return false
		case isDataOpt(name):
			d := val
			if d == "" && i+1 < len(c.args) {
				d = c.args[i+1].Value
			}
			if strings.HasPrefix(d, "@") || strings.Contains(d, "=@") || strings.Contains(d, "<") {
				return false // a file or stdin: the files' checks apply
			}
			skip = val == "" && v == name
		case strings.Contains(v, "://"):
			if !localURL(v) {
				return false
			}
			local = true
		case strings.HasPrefix(v, "localhost:") || strings.HasPrefix(v, "127.0.0.1:") || v == "localhost" || v == "127.0.0.1":
			local = true
		case strings.HasPrefix(v, "-") && !strings.Contains(v, "=") && (curlArgOpts[v] || isDataOpt(v) || v == "--url"):
			if v == "--url" && i+1 < len(c.args) && !localURL(c.args[i+1].Value) && !strings.HasPrefix(c.args[i+1].Value, "localhost") {
				return false
			}
			skip = true
		case strings.HasPrefix(v, "-"):
		default:
			return false // a host without a scheme, or a word sayso does not place
		}
	}
	send := false
	for i, w := range c.args {
		name, val, _ := strings.Cut(w.Value, "=")
		if isDataOpt(name) {
			send = true
		}
		if (name == "-X" || name == "--request") && (val != "" || i+1 < len(c.args)) {
			m := val
			if m == "" {
				m = c.args[i+1].Value
			}
			send = send || !strings.EqualFold(m, "GET") && !strings.EqualFold(m, "HEAD")
		}
		if strings.HasPrefix(w.Value, "-X") && len(w.Value) > 2 {
			send = send || !strings.EqualFold(w.Value[2:], "GET")
		}
	}
	if !local || !send {
		return false // a plain fetch: curl's own reading applies
	}
	c.add(LocalWrite, ServesLocally.By("curl", "", ""))
	return true
}
