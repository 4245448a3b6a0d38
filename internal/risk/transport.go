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
// chooses a proxy for the command it prefixes, the zero Reason when it does
// neither (each from the manual of the program that reads it).
func transportVar(name, value string, literal bool) Reason {
	set := !literal || value != ""
	off := !literal || value == "0" || strings.EqualFold(value, "false") || strings.EqualFold(value, "no") || strings.EqualFold(value, "off")
	switch name {
	case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "FTP_PROXY", "ftp_proxy",
		"PIP_PROXY", "CARGO_HTTP_PROXY", "npm_config_proxy", "npm_config_https_proxy", "NPM_CONFIG_PROXY", "NPM_CONFIG_HTTPS_PROXY",
		"YARN_HTTP_PROXY", "YARN_HTTPS_PROXY":
		// curl(1) ENVIRONMENT, pip's --proxy, cargo's http.proxy, npm's
		// proxy and https-proxy, yarn's httpProxy
		if set {
			return ProxyChosen.By("", "", name)
		}
	case "NODE_TLS_REJECT_UNAUTHORIZED":
		// node(1): 0 accepts any certificate
		if !literal || value == "0" {
			return TLSOff.By("", "", "NODE_TLS_REJECT_UNAUTHORIZED")
		}
	case "GIT_SSL_NO_VERIFY":
		// git(1): set at all, it turns http.sslVerify off
		if !literal || value != "" {
			return TLSOff.By("", "", "GIT_SSL_NO_VERIFY")
		}
	case "PYTHONHTTPSVERIFY":
		if !literal || value == "0" {
			return TLSOff.By("", "", "PYTHONHTTPSVERIFY")
		}
	case "npm_config_strict_ssl", "NPM_CONFIG_STRICT_SSL", "YARN_STRICT_SSL", "YARN_ENABLE_STRICT_SSL",
		"CARGO_HTTP_CHECK_REVOKE", "CARGO_HTTP_SSL_VERIFY":
		if off {
			return TLSOff.By("", "", name)
		}
	case "UV_INSECURE_HOST", "PIP_TRUSTED_HOST", "GOINSECURE":
		if set {
			return TLSOff.By("", "", name)
		}
	case "GOPROXY", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "UV_INDEX_URL", "UV_DEFAULT_INDEX", "npm_config_registry", "NPM_CONFIG_REGISTRY":
		if literal && plainHTTP(value) {
			return PlainHTTP.By("", "", name)
		}
	case "GOFLAGS":
		if literal && strings.Contains(value, "-insecure") {
			return TLSOff.By("", "", "GOFLAGS")
		}
	case "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO",
		"GIT_SSL_CAPATH", "PIP_CERT", "CARGO_HTTP_CAINFO", "npm_config_cafile", "NPM_CONFIG_CAFILE":
		// a certificate authority the step chose vouches for whoever answers
		return CAChosen.By("", "", name)
	}
	return Reason{}
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
	if r := transportOpt(c); r.Kind != ReasonUnknown {
		r.Program = c.name
		c.add(Network, r)
	}
}

func transportOpt(c *cmd) Reason {
	if why := transportSetting(c); why.Kind != ReasonUnknown {
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
			return TLSOff.By("", v, "")
		}
		switch c.name {
		case "curl":
			// curl(1): -k/--insecure, --proxy-insecure, --doh-insecure;
			// -x/--proxy, --preproxy, --socks4/5 name a proxy.
			switch {
			case v == "--insecure" || v == "--proxy-insecure" || v == "--doh-insecure":
				return TLSOff.By("", v, "")
			case v == "-x" || v == "--proxy" || v == "--preproxy" || strings.HasPrefix(v, "--socks") || v == "--proxy1.0":
				if next == "" {
					return ProxyChosen.By("", v, "")
				}
				return ProxyChosen.By("", v+" "+next, "")
			case strings.HasPrefix(v, "--proxy=") || strings.HasPrefix(v, "--preproxy=") || strings.HasPrefix(v, "--socks"):
				return ProxyChosen.By("", v, "")
			case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1:
				// a cluster of short flags: -sSfk, -kL, -sx proxy
				for j := 1; j < len(v); j++ {
					if curlArgOpts["-"+v[j:j+1]] && v[j] != 'x' {
						break // the rest is that option's value
					}
					switch v[j] {
					case 'k':
						return TLSOff.By("", v, "")
					case 'x':
						return ProxyChosen.By("", v, "")
					}
				}
			}
		case "wget":
			// wget(1): --no-check-certificate; -e use_proxy/https_proxy and
			// check_certificate=off are .wgetrc commands given inline.
			if v == "--no-check-certificate" {
				return TLSOff.By("", v, "")
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
				return TLSOff.By("", "-e "+cmdText, "")
			}
			if strings.HasSuffix(strings.SplitN(l, "=", 2)[0], "_proxy") || strings.HasSuffix(strings.SplitN(l, "=", 2)[0], "-proxy") {
				return ProxyChosen.By("", "-e "+cmdText, "")
			}
		case "http", "https", "xh", "httpie":
			// httpie: --verify=no, --proxy; xh: --verify=no, --proxy
			if v == "--verify=no" || v == "--verify=false" || v == "--verify" && (next == "no" || next == "false") {
				return TLSOff.By("", "--verify=no", "")
			}
			if name == "--proxy" {
				return ProxyChosen.By("", v, "")
			}
		case "pip", "pip3", "uv", "pipx", "poetry":
			// pip(1): --trusted-host, --proxy; uv: --allow-insecure-host
			if name == "--trusted-host" || name == "--allow-insecure-host" || name == "--insecure-host" {
				return TLSOff.By("", v, "")
			}
			if name == "--proxy" {
				return ProxyChosen.By("", v, "")
			}
			if (name == "--index-url" || name == "-i" || name == "--extra-index-url" || name == "--default-index" || name == "--index") &&
				plainHTTP(val+next) {
				return PlainHTTP.By("", v, "")
			}
		case "npm", "pnpm", "yarn", "npx", "bun":
			// npm-config(7): strict-ssl, proxy, https-proxy, registry
			switch {
			case v == "--strict-ssl=false" || v == "--no-strict-ssl" || v == "--strict-ssl" && next == "false":
				return TLSOff.By("", "--strict-ssl=false", "")
			case name == "--proxy" || name == "--https-proxy":
				return ProxyChosen.By("", v, "")
			case name == "--registry" && plainHTTP(val+next):
				return PlainHTTP.By("", v, "")
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
				return TLSOff.By("", "-c "+v, "")
			case strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".proxy") || k == "https.proxy":
				if val != "" {
					return ProxyChosen.By("", "-c "+v, "")
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
				return ProxyChosen.By("", "--config "+v, "")
			case k == "http.cainfo":
				return CAChosen.By("", "--config "+v, "")
			case k == "http.check-revoke" && val == "false":
				return TLSOff.By("", "--config "+v, "")
			}
		case "go":
			// go help get: -insecure (before modules)
			if v == "-insecure" {
				return TLSOff.By("", "-insecure", "")
			}
		}
	}
	return Reason{}
}

// transportSetting reads the settings a step stores for later runs — npm,
// yarn and pnpm config set, pip config set, git config, go env -w — as the
// variables and options they stand for.
func transportSetting(c *cmd) Reason {
	var ws []string
	for _, a := range c.args {
		if !a.Literal {
			return Reason{}
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
				return TLSOff.By("", "config set "+k, "")
			}
		case "proxy", "https-proxy", "httpproxy", "httpsproxy":
			if v != "" {
				return ProxyChosen.By("", "config set "+k, "")
			}
		case "cafile", "ca":
			return CAChosen.By("", "config set "+k, "")
		case "registry", "npmregistryserver":
			if plainHTTP(v) {
				return PlainHTTP.By("", "config set "+k, "")
			}
		}
	case (c.name == "pip" || c.name == "pip3") && len(ws) > 2 && ws[0] == "config" && ws[1] == "set":
		// pip-config(1): global.trusted-host, global.proxy, global.cert, global.index-url
		k, v := pair(2)
		_, opt, _ := strings.Cut(k, ".")
		switch opt {
		case "trusted-host":
			return TLSOff.By("", "config set "+k, "")
		case "proxy":
			return ProxyChosen.By("", "config set "+k, "")
		case "cert":
			return CAChosen.By("", "config set "+k, "")
		case "index-url", "extra-index-url":
			if plainHTTP(v) {
				return PlainHTTP.By("", "config set "+k, "")
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
			return TLSOff.By("", "config "+ws[1], "")
		case (strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".proxy") || k == "https.proxy") && v != "":
			return ProxyChosen.By("", "config "+ws[1], "")
		case strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".sslcainfo"):
			return CAChosen.By("", "config "+ws[1], "")
		}
	case c.name == "go" && len(ws) > 1 && ws[0] == "env":
		// go help environment: go env -w NAME=VALUE
		if !c.has("-w") {
			return Reason{}
		}
		for _, w := range ws[1:] {
			if k, v, ok := strings.Cut(w, "="); ok {
				if why := transportVar(k, v, true); why.Kind != ReasonUnknown {
					why.Verb = "env -w"
					return why
				}
			}
		}
	}
	return Reason{}
}
