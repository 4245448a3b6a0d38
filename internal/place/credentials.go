package place

import "strings"

// Credentials are the places of a home, relative to it, that hold the
// person's credentials: a program that reads one can act as the person
// somewhere else (push, publish, deploy, pay). A walled step that reads
// or does local work does not see them, unless it is made only of
// programs sayso knows that need one for what was decided (a git fetch
// over ssh gets ~/.ssh).
var Credentials = []string{
	// Keys and agents' keyrings.
	".ssh", ".gnupg", ".password-store", ".local/share/keyrings", ".age",
	// Stored passwords.
	".netrc", ".git-credentials", ".config/git/credentials", ".pgpass", ".my.cnf", ".vault-token",
	// git's credential-cache daemon: asked on its socket, it answers with
	// the passwords it keeps.
	".cache/git/credential", ".git-credential-cache",
	// Clouds and clusters.
	".aws", ".azure", ".kube/config", ".config/gcloud/credentials.db", ".config/gcloud/access_tokens.db",
	".config/gcloud/legacy_credentials", ".config/gcloud/application_default_credentials.json",
	".oci", ".config/doctl/config.yaml", ".fly/config.yml", ".terraform.d/credentials.tfrc.json",
	".config/rclone/rclone.conf", ".s3cfg", ".boto", ".config/sops",
	// Forges, registries and their tools' tokens.
	".config/gh/hosts.yml", ".config/glab-cli/config.yml", ".config/hub", ".config/tea/config.yml",
	".docker/config.json", ".npmrc", ".pypirc", ".config/pypoetry/auth.toml", ".gem/credentials",
	".cargo/credentials", ".cargo/credentials.toml", ".composer/auth.json", ".config/composer/auth.json",
	".m2/settings-security.xml", ".gradle/gradle.properties", ".nuget/NuGet/NuGet.Config",
	".jfrog/jfrog-cli.conf", ".huggingface/token", ".cache/huggingface/token", ".kaggle/kaggle.json",
	".vercel/auth.json", ".netlify/config.json", ".config/netlify/config.json", ".config/.wrangler",
	".wrangler/config/default.toml", ".railway/config.json", ".config/stripe/config.toml", ".config/op",
	".bluemix/config.json",
	// Other agents' credentials (the three clients' own are hidden in
	// every scope by the wall).
	".config/github-copilot/hosts.json", ".config/github-copilot/apps.json", ".local/share/opencode/auth.json",
}

// IsCredential reports whether rel, a path relative to the home, is one
// of Credentials or lies inside one.
func IsCredential(rel string) bool {
	for _, c := range Credentials {
		if under(rel, c) {
			return true
		}
	}
	return false
}

// under reports whether p is dir or below it, building no string: the
// engine asks for every path of every step.
func under(p, dir string) bool {
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// SecretVar reports whether a variable's name says it holds a secret
// (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DATABASE_PASSWORD, NPM_AUTH,
// GH_PAT): sayso calls printing one a secret read, and the wall leaves it
// out of the environment of a step that reads or does local work.
func SecretVar(name string) bool {
	u := strings.ToUpper(name)
	for _, s := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH", "SESSION_KEY", "CLIENT_KEY"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	// a personal access token (GH_PAT, PAT_GITHUB), not a PATH
	if strings.HasSuffix(u, "_PAT") || strings.Contains(u, "_PAT_") || strings.HasPrefix(u, "PAT_") || u == "PAT" {
		return true
	}
	return strings.HasSuffix(u, "_KEY")
}
