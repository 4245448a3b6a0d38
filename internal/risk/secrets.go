package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// moreSecretPath names the secrets agents' own tools and platforms keep:
// agent credentials, .envrc, git's credential store, mounted secrets and
// the cluster's service-account token, other tools' tokens; "" when p is
// none of them.
func moreSecretPath(p, home string) string {
	base := path.Base(p)
	rel := p
	if home != "" && within(p, home) {
		rel = "~" + strings.TrimPrefix(p, home)
	}
	switch {
	case rel == "~/.claude/.credentials.json" || rel == "~/.claude.json" || rel == "~/.codex/auth.json" ||
		rel == "~/.gemini/oauth_creds.json" || rel == "~/.gemini/google_accounts.json" || rel == "~/.config/github-copilot/hosts.json" ||
		rel == "~/.config/github-copilot/apps.json" || rel == "~/.aider.conf.yml" || strings.HasPrefix(rel, "~/.local/share/opencode/auth"):
		return "an agent's credentials"
	case base == ".envrc" || base == ".env.local" || base == ".dev.vars" || base == "secrets.yaml" && !strings.Contains(rel, "/templates/"):
		return "an environment file"
	case rel == "~/.config/git/credentials" || strings.HasPrefix(rel, "~/.git-credential-cache"):
		return "stored passwords"
	case strings.HasPrefix(p, "/run/secrets/") || strings.HasPrefix(p, "/var/run/secrets/") || p == "/run/secrets" || p == "/var/run/secrets":
		return "mounted secrets"
	case rel == "~/.terraform.d/credentials.tfrc.json" || rel == "~/.config/doctl/config.yaml" || rel == "~/.fly/config.yml" ||
		rel == "~/.kaggle/kaggle.json" || rel == "~/.huggingface/token" || rel == "~/.cache/huggingface/token" ||
		rel == "~/.config/rclone/rclone.conf" || rel == "~/.s3cfg" || rel == "~/.boto" || strings.HasPrefix(rel, "~/.config/sops/") ||
		rel == "~/.config/hub" || rel == "~/.config/op" || strings.HasPrefix(rel, "~/.config/op/") || rel == "~/.vercel/auth.json" ||
		strings.HasSuffix(rel, "/com.vercel.cli/auth.json") || rel == "~/.netlify/config.json" || rel == "~/.config/netlify/config.json" ||
		rel == "~/.wrangler/config/default.toml" || strings.HasPrefix(rel, "~/.config/.wrangler/") || rel == "~/.railway/config.json" ||
		rel == "~/.config/stripe/config.toml" || rel == "~/.oci/config" || strings.HasPrefix(rel, "~/.oci/") || rel == "~/.bluemix/config.json" ||
		rel == "~/.config/glab-cli/config.yml" || rel == "~/.config/tea/config.yml" || rel == "~/.jfrog/jfrog-cli.conf" ||
		rel == "~/.m2/settings.xml" || rel == "~/.m2/settings-security.xml" || rel == "~/.gradle/gradle.properties" || rel == "~/.nuget/NuGet/NuGet.Config" ||
		rel == "~/.composer/auth.json" || rel == "~/.config/composer/auth.json" || rel == "~/.yarnrc.yml" || rel == "~/.bunfig.toml" ||
		rel == "~/.config/pip/pip.conf" || rel == "~/.pip/pip.conf" || rel == "~/.config/pypoetry/auth.toml" || rel == "~/.age/key.txt":
		return "a tool's stored token"
	case base == "auth.json" && strings.Contains(rel, "/.codex/") || base == "oauth_creds.json":
		return "an agent's credentials"
	}
	return ""
}

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
		for _, f := range secretFolders {
			if globMatchesPrefix(strings.TrimPrefix(p, home+"/"), f) {
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
