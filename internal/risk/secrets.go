package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// envDump: printing every process's environment, or this one's, shows the
// secrets it holds: ps e, declare -x, jq env, awk ENVIRON.
func (c *cmd) envDump() {
	switch c.name {
	case "ps":
		for _, w := range c.args {
			v := w.Value
			if !strings.HasPrefix(v, "-") && strings.Contains(v, "e") || v == "-E" || v == "--env" ||
				strings.HasPrefix(v, "-o") && strings.Contains(v, "environ") || strings.HasPrefix(v, "e") {
				c.add(Secret, PrintsCredential.By("ps", v, ""))
				return
			}
		}
	case "declare", "typeset", "export":
		for _, w := range c.args {
			if w.Value == "-x" || w.Value == "-p" || w.Value == "-px" || w.Value == "-xp" {
				if len(c.operands()) == 0 && len(c.seg.Assigns) == 0 {
					c.add(Secret, PrintsCredential.By(c.name, w.Value, ""))
					return
				}
			}
		}
	case "jq", "gojq", "yq":
		for _, w := range c.args {
			if containsWord(w.Value, "env") || strings.Contains(w.Value, "$ENV") {
				c.add(Secret, ReadsCredential.By(c.name, "", w.Raw))
				return
			}
		}
	case "awk", "gawk", "mawk", "nawk":
		for _, w := range c.args {
			if strings.Contains(w.Value, "ENVIRON") {
				c.add(Secret, ReadsCredential.By(c.name, "", ""))
				return
			}
		}
	case "git":
		for _, w := range c.args {
			l := strings.ToLower(w.Value)
			if strings.Contains(l, "extraheader") || strings.Contains(l, "credential") && !strings.HasPrefix(l, "-") && false {
				c.add(Secret, ReadsCredential.By("git", "", w.Raw))
				return
			}
		}
	}
}

// containsWord reports whether s holds w as a word of identifier bytes.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordByte(s[j-1]) && s[j-1] != '.' && s[j-1] != '$' && s[j-1] != '"'
		after := j+len(w) >= len(s) || !isWordByte(s[j+len(w)]) && s[j+len(w)] != '"'
		if before && after {
			return true
		}
		i = j + 1
	}
}

// secretPattern reports whether a find pattern aims at secrets.
func secretPattern(n string) bool {
	for _, s := range []string{".aws", ".ssh", ".gnupg", ".kube", ".docker", ".netrc", ".npmrc", ".pypirc", "token", "secret", "id_ed25519", "id_ecdsa", ".key", "credential", ".git-credentials", "auth.json", ".envrc"} {
		if strings.Contains(strings.ToLower(n), s) {
			return true
		}
	}
	return false
}

// globSecret: a glob in a folder name may reach the home's key folders
// (~/.s?h/id_*, ~/.a*/credentials): it is read as every path it may match.
func (c *cmd) globSecret(w shell.Word) {
	if !w.Glob || metaOnly[c.name] {
		return
	}
	for _, p := range c.a.resolve(w) {
		home := c.a.ctx.Home
		if home == "" || !within(p, home) {
			continue
		}
		rel := strings.TrimPrefix(p, home+"/")
		for _, f := range secretFolders {
			if globMatchesPrefix(rel, f) {
				c.add(Secret, Reason{Kind: PathCredential, Program: c.name, Verb: "read", Object: w.Raw, What: "what a glob may match, ~/" + f + " included"})
				return
			}
		}
	}
}

// globMatchesPrefix reports whether the first path element of pattern may
// match the first element of f.
func globMatchesPrefix(pattern, f string) bool {
	pe, _, _ := strings.Cut(pattern, "/")
	fe, _, _ := strings.Cut(f, "/")
	ok, err := path.Match(pe, fe)
	return err == nil && ok && pe != fe && strings.ContainsAny(pe, "*?[")
}
