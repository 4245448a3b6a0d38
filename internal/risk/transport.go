// Transport security turned off, or a proxy chosen, on a fetch or an install.

package risk

import "strings"

// A step that turns certificate checks off, or sends its traffic through a
// proxy it names, hands the credential helper's token and the package
// stream to whatever answers on the way: another host than the one it
// names. It is network, the class of a fetch from a host the policy does
// not trust, with its own reason; an install that also runs what comes
// back is judged by its own verb besides.

// transportVar says how an assignment turns transport security off or
// chooses a proxy for the command it prefixes, "" when it does neither
// (each from the manual of the program that reads it).
func transportVar(name, value string, literal bool) string {
	set := !literal || value != ""
	off := !literal || value == "0" || strings.EqualFold(value, "false") || strings.EqualFold(value, "no") || strings.EqualFold(value, "off")
	switch name {
	case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "FTP_PROXY", "ftp_proxy",
		"PIP_PROXY", "CARGO_HTTP_PROXY", "npm_config_proxy", "npm_config_https_proxy", "NPM_CONFIG_PROXY", "NPM_CONFIG_HTTPS_PROXY",
		"YARN_HTTP_PROXY", "YARN_HTTPS_PROXY":
		// curl(1) ENVIRONMENT, pip's --proxy, cargo's http.proxy, npm's
		// proxy and https-proxy, yarn's httpProxy
		if set {
			return "sets " + name + ": its traffic goes through a proxy the step chose"
		}
	case "NODE_TLS_REJECT_UNAUTHORIZED":
		// node(1): 0 accepts any certificate
		if !literal || value == "0" {
			return "sets NODE_TLS_REJECT_UNAUTHORIZED=0: node accepts any certificate"
		}
	case "GIT_SSL_NO_VERIFY":
		// git(1): set at all, it turns http.sslVerify off
		if !literal || value != "" {
			return "sets GIT_SSL_NO_VERIFY: git accepts any certificate"
		}
	case "PYTHONHTTPSVERIFY":
		if !literal || value == "0" {
			return "sets PYTHONHTTPSVERIFY=0: python accepts any certificate"
		}
	case "npm_config_strict_ssl", "NPM_CONFIG_STRICT_SSL", "YARN_STRICT_SSL", "YARN_ENABLE_STRICT_SSL",
		"CARGO_HTTP_CHECK_REVOKE", "CARGO_HTTP_SSL_VERIFY":
		if off {
			return "sets " + name + " off: certificates are not checked"
		}
	case "UV_INSECURE_HOST", "PIP_TRUSTED_HOST", "GOINSECURE":
		if set {
			return "sets " + name + ": that host is reached without certificate checks"
		}
	case "GOPROXY", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "UV_INDEX_URL", "UV_DEFAULT_INDEX", "npm_config_registry", "NPM_CONFIG_REGISTRY":
		if literal && plainHTTP(value) {
			return "sets " + name + " to plain http: packages come unauthenticated"
		}
	case "GOFLAGS":
		if literal && strings.Contains(value, "-insecure") {
			return "sets GOFLAGS=-insecure: go fetches without certificate checks"
		}
	case "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO",
		"GIT_SSL_CAPATH", "PIP_CERT", "CARGO_HTTP_CAINFO", "npm_config_cafile", "NPM_CONFIG_CAFILE":
		// a certificate authority the step chose vouches for whoever answers
		return "sets " + name + ": the step chooses which certificate authority is trusted"
	}
	return ""
}

// plainHTTP reports whether a URL list holds a plain http URL to another
// machine.
func plainHTTP(v string) bool {
	for _, u := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '|' || r == ' ' }) {
		rest, ok := strings.CutPrefix(strings.ToLower(u), "http://")
		if !ok {
			continue
		}
		host, _, _ := strings.Cut(rest, "/")
		host, _, _ = strings.Cut(host, ":")
		if host != "localhost" && host != "127.0.0.1" && host != "[::1]" {
			return true
		}
	}
	return false
}

// transportOff adds the finding when an option of the step turns
// certificate checks off or names a proxy (each from the program's
// manual).
func (c *cmd) transportOff() {
	if why := transportOpt(c); why != "" {
		c.add(Network, Words(c.name+" "+why))
	}
}

func transportOpt(c *cmd) string {
	if why := transportSetting(c); why != "" {
		return why
	}
	for i, a := range c.args {
		v := a.Value
		if !a.Literal {
			continue
		}
		next := ""
		if i+1 < len(c.args) {
			next = c.args[i+1].Value
		}
		name, val, hasVal := strings.Cut(v, "=")
		switch {
		// options whose names say it, whoever reads them: kubectl, helm
		// and oc's --insecure-skip-tls-verify, podman and skopeo's
		// --tls-verify=false, aws's --no-verify-ssl.
		case name == "--insecure-skip-tls-verify" && (!hasVal || val != "false"),
			(name == "--tls-verify" || name == "--src-tls-verify" || name == "--dest-tls-verify") && hasVal && (val == "false" || val == "0"),
			v == "--no-verify-ssl", v == "--skip-tls-verify", v == "--insecure-skip-verify", v == "--tls-skip-verify":
			return v + " turns certificate checks off"
		}
		switch c.name {
		case "curl":
			// curl(1): -k/--insecure, --proxy-insecure, --doh-insecure;
			// -x/--proxy, --preproxy, --socks4/5 name a proxy.
			switch {
			case v == "--insecure" || v == "--proxy-insecure" || v == "--doh-insecure":
				return v + " turns certificate checks off"
			case v == "-x" || v == "--proxy" || v == "--preproxy" || strings.HasPrefix(v, "--socks") || v == "--proxy1.0":
				if next == "" {
					return v + " sends through the proxy it names"
				}
				return v + " " + next + " sends through a proxy the step chose"
			case strings.HasPrefix(v, "--proxy=") || strings.HasPrefix(v, "--preproxy=") || strings.HasPrefix(v, "--socks"):
				return v + " sends through a proxy the step chose"
			case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1:
				// a cluster of short flags: -sSfk, -kL, -sx proxy
				for j := 1; j < len(v); j++ {
					if curlArgOpts["-"+v[j:j+1]] && v[j] != 'x' {
						break // the rest is that option's value
					}
					switch v[j] {
					case 'k':
						return v + " (-k) turns certificate checks off"
					case 'x':
						return v + " (-x) sends through a proxy the step chose"
					}
				}
			}
		case "wget":
			// wget(1): --no-check-certificate; -e use_proxy/https_proxy and
			// check_certificate=off are .wgetrc commands given inline.
			if v == "--no-check-certificate" {
				return v + " turns certificate checks off"
			}
			cmdText := ""
			switch {
			case v == "-e" || v == "--execute":
				cmdText = next
			case strings.HasPrefix(v, "--execute="):
				cmdText = strings.TrimPrefix(v, "--execute=")
			case strings.HasPrefix(v, "-e") && len(v) > 2:
				cmdText = v[2:]
			}
			l := strings.ToLower(strings.ReplaceAll(cmdText, " ", ""))
			if strings.HasPrefix(l, "check_certificate=off") || strings.HasPrefix(l, "check-certificate=off") {
				return "-e " + cmdText + " turns certificate checks off"
			}
			if strings.HasSuffix(strings.SplitN(l, "=", 2)[0], "_proxy") || strings.HasSuffix(strings.SplitN(l, "=", 2)[0], "-proxy") {
				return "-e " + cmdText + " sends through a proxy the step chose"
			}
		case "http", "https", "xh", "httpie":
			// httpie: --verify=no, --proxy; xh: --verify=no, --proxy
			if v == "--verify=no" || v == "--verify=false" || v == "--verify" && (next == "no" || next == "false") {
				return "--verify=no turns certificate checks off"
			}
			if name == "--proxy" {
				return v + " sends through a proxy the step chose"
			}
		case "pip", "pip3", "uv", "pipx", "poetry":
			// pip(1): --trusted-host, --proxy; uv: --allow-insecure-host
			if name == "--trusted-host" || name == "--allow-insecure-host" || name == "--insecure-host" {
				return v + " turns certificate checks off for a host"
			}
			if name == "--proxy" {
				return v + " sends through a proxy the step chose"
			}
			if (name == "--index-url" || name == "-i" || name == "--extra-index-url" || name == "--default-index" || name == "--index") &&
				plainHTTP(val+next) {
				return v + " fetches packages over plain http"
			}
		case "npm", "pnpm", "yarn", "npx", "bun":
			// npm-config(7): strict-ssl, proxy, https-proxy, registry
			switch {
			case v == "--strict-ssl=false" || v == "--no-strict-ssl" || v == "--strict-ssl" && next == "false":
				return "--strict-ssl=false turns certificate checks off"
			case name == "--proxy" || name == "--https-proxy":
				return v + " sends through a proxy the step chose"
			case name == "--registry" && plainHTTP(val+next):
				return v + " fetches packages over plain http"
			}
		case "git":
			// git-config(1): http.sslVerify, http.<url>.sslVerify,
			// http.proxy, https.proxy, given with -c or -c to clone
			if (v == "-c" || v == "--config") && next != "" {
				v = next
			} else if !strings.HasPrefix(v, "--config=") {
				continue
			}
			v = strings.TrimPrefix(v, "--config=")
			k, val, _ := strings.Cut(v, "=")
			k = strings.ToLower(k)
			switch {
			case (strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".sslverify")) && (val == "false" || val == "0" || val == "no" || val == "off"):
				return "-c " + v + " turns certificate checks off"
			case strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".proxy") || k == "https.proxy":
				if val != "" {
					return "-c " + v + " sends through a proxy the step chose"
				}
			}
		case "cargo":
			// cargo-config(5): http.proxy, http.cainfo, http.check-revoke,
			// given with --config KEY=VALUE
			if v == "--config" {
				v = next
			} else if !strings.HasPrefix(v, "--config=") {
				continue
			}
			v = strings.TrimPrefix(v, "--config=")
			k, val, _ := strings.Cut(strings.ReplaceAll(v, " ", ""), "=")
			switch {
			case k == "http.proxy" && strings.Trim(val, `"'`) != "":
				return "--config " + v + " sends through a proxy the step chose"
			case k == "http.cainfo":
				return "--config " + v + " chooses which certificate authority is trusted"
			case k == "http.check-revoke" && val == "false":
				return "--config " + v + " turns certificate revocation checks off"
			}
		case "go":
			// go help get: -insecure (before modules)
			if v == "-insecure" {
				return "-insecure fetches without certificate checks"
			}
		}
	}
	return ""
}

// transportSetting reads the settings a step stores for later runs — npm,
// yarn and pnpm config set, pip config set, git config, go env -w — as the
// variables and options they stand for.
func transportSetting(c *cmd) string {
	var ws []string
	for _, a := range c.args {
		if !a.Literal {
			return ""
		}
		if !strings.HasPrefix(a.Value, "-") {
			ws = append(ws, a.Value)
		}
	}
	pair := func(i int) (string, string) {
		if i >= len(ws) {
			return "", ""
		}
		if k, v, ok := strings.Cut(ws[i], "="); ok {
			return k, v
		}
		if i+1 < len(ws) {
			return ws[i], ws[i+1]
		}
		return ws[i], ""
	}
	switch {
	case (c.name == "npm" || c.name == "pnpm" || c.name == "yarn") && len(ws) > 2 && ws[0] == "config" && ws[1] == "set":
		// npm-config(7): strict-ssl, proxy, https-proxy, cafile, registry
		k, v := pair(2)
		switch strings.ToLower(k) {
		case "strict-ssl", "strictssl", "enablestrictssl":
			if v == "false" || v == "0" {
				return "config set " + k + " false turns certificate checks off for every later install"
			}
		case "proxy", "https-proxy", "httpproxy", "httpsproxy":
			if v != "" {
				return "config set " + k + " sends every later install through a proxy the step chose"
			}
		case "cafile", "ca":
			return "config set " + k + " chooses which certificate authority every later install trusts"
		case "registry", "npmregistryserver":
			if plainHTTP(v) {
				return "config set " + k + " fetches every later install over plain http"
			}
		}
	case (c.name == "pip" || c.name == "pip3") && len(ws) > 2 && ws[0] == "config" && ws[1] == "set":
		// pip-config(1): global.trusted-host, global.proxy, global.cert, global.index-url
		k, v := pair(2)
		_, opt, _ := strings.Cut(k, ".")
		switch opt {
		case "trusted-host":
			return "config set " + k + " turns certificate checks off for a host in every later install"
		case "proxy":
			return "config set " + k + " sends every later install through a proxy the step chose"
		case "cert":
			return "config set " + k + " chooses which certificate authority every later install trusts"
		case "index-url", "extra-index-url":
			if plainHTTP(v) {
				return "config set " + k + " fetches every later install over plain http"
			}
		}
	case c.name == "git" && len(ws) > 1 && ws[0] == "config":
		// git-config(1): http.sslVerify, http.<url>.sslVerify, http.proxy
		k, v := strings.ToLower(ws[1]), ""
		if len(ws) > 2 {
			v = strings.ToLower(ws[2])
		}
		switch {
		case strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".sslverify") && (v == "false" || v == "0" || v == "no" || v == "off"):
			return "config " + ws[1] + " false turns certificate checks off for every later fetch and push"
		case (strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".proxy") || k == "https.proxy") && v != "":
			return "config " + ws[1] + " sends every later fetch and push through a proxy the step chose"
		case strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".sslcainfo"):
			return "config " + ws[1] + " chooses which certificate authority every later fetch trusts"
		}
	case c.name == "go" && len(ws) > 1 && ws[0] == "env":
		// go help environment: go env -w NAME=VALUE
		if !c.has("-w") {
			return ""
		}
		for _, w := range ws[1:] {
			if k, v, ok := strings.Cut(w, "="); ok {
				if why := transportVar(k, v, true); why != "" {
					return "env -w " + strings.TrimPrefix(why, "sets ") + ", for every later go command"
				}
			}
		}
	}
	return ""
}
