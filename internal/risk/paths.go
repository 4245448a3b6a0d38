package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/place"
)

// secretPath says what secret p holds, or "" when it holds none sayso knows.
// A place of the table (place.Secret) says what it holds; what lies in one,
// and the files that hold a secret wherever they are, are named by their
// shape first.
func secretPath(p, home string) string {
	pl, inPlace := place.Secret(p, home)
	if inPlace && (p == pl.In(home, 0) || pl.Base == place.Tree && strings.HasSuffix(strings.ToLower(p), "/"+strings.ToLower(pl.Path))) {
		return reads(pl)
	}
	if why := namedSecret(p, home); why != "" {
		return why
	}
	if inPlace {
		return reads(pl)
	}
	if home != "" && within(p, home) && p != home && holdsCredential(strings.TrimPrefix(p, home+"/")) {
		return "a folder of keys"
	}
	return ""
}

// reads is what reading place pl reads.
func reads(pl place.Place) string {
	if pl.Kind != place.Credential {
		return pl.Token
	}
	return pl.What
}

// holdsCredential reports whether rel, a folder of the home other than
// the folders many tools share, holds one of the home's credential places
// (~/.kube holds .kube/config).
func holdsCredential(rel string) bool {
	switch rel {
	case ".config", ".local", ".local/share", ".cache":
		return false
	}
	for _, c := range secretFolders {
		if len(c) > len(rel) && c[len(rel)] == '/' && strings.HasPrefix(c, rel) {
			return true
		}
	}
	return false
}

// namedSecret says what secret p holds by its shape, wherever it lies
// (an environment file, a key, a history, a process's environment, any
// user's cloud credentials), or "" when its shape names none.
func namedSecret(p, home string) string {
	base := path.Base(p)
	rel := p
	if home != "" && within(p, home) {
		rel = "~" + strings.TrimPrefix(p, home)
	}
	switch {
	case base == ".env" || strings.HasPrefix(base, ".env.") && !envExample(base) || strings.HasPrefix(base, ".env*") || base == "*.env" || strings.HasPrefix(base, ".env") && strings.ContainsAny(base, "*?["):
		return "an environment file"
	case base == ".envrc" || base == ".env.local" || base == ".dev.vars" || base == "secrets.yaml" && !strings.Contains(rel, "/templates/"):
		return "an environment file"
	case strings.HasPrefix(p, "/run/secrets/") || strings.HasPrefix(p, "/var/run/secrets/") || p == "/run/secrets" || p == "/var/run/secrets":
		return "mounted secrets"
	case strings.Contains(rel, "/.ssh/") && !strings.HasSuffix(base, ".pub") && base != "known_hosts" && base != "config" && base != "authorized_keys":
		return "an ssh key"
	case strings.HasSuffix(rel, "/.aws/credentials") || strings.HasSuffix(rel, "/.aws/config"):
		return "cloud credentials"
	case strings.Contains(rel, "/.config/gcloud") || strings.Contains(rel, "/.azure/"):
		return "cloud credentials"
	case strings.HasSuffix(rel, "/.kube/config"):
		return "cluster credentials"
	case base == ".netrc" || base == "_netrc" || base == ".git-credentials" || base == ".pgpass" || base == ".my.cnf" || base == ".vault-token":
		return "stored passwords"
	case strings.Contains(rel, "/.gnupg/") || strings.Contains(rel, "/.password-store") || strings.Contains(rel, "/Library/Keychains") || strings.Contains(rel, "/.local/share/keyrings"):
		return "a keyring"
	case strings.HasSuffix(base, "_history") || base == ".histfile":
		return "shell history"
	case strings.HasPrefix(p, "/proc/") && (base == "environ" || base == "cmdline" || base == "mem"):
		return "a process's environment"
	case p == "/etc/shadow" || p == "/etc/gshadow" || p == "/etc/sudoers" || strings.HasPrefix(p, "/etc/ssh/ssh_host_"):
		return "system secrets"
	case strings.Contains(rel, "/.mozilla/") || strings.Contains(rel, "/.config/google-chrome") || strings.Contains(rel, "/.config/chromium") ||
		strings.Contains(rel, "/Library/Application Support/Google/Chrome") || strings.Contains(rel, "/.config/BraveSoftware") || strings.Contains(rel, "/Library/Cookies"):
		return "a browser profile"
	case strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key") || strings.HasSuffix(base, ".p12") || strings.HasSuffix(base, ".pfx") || strings.HasSuffix(base, ".keystore") || strings.HasSuffix(base, ".jks"):
		return "a private key"
	case base == "id_rsa" || base == "id_ed25519" || base == "id_ecdsa" || base == "id_dsa":
		return "an ssh key"
	case strings.HasPrefix(base, "credentials") && strings.HasSuffix(base, ".json") || strings.HasPrefix(base, "service-account") && strings.HasSuffix(base, ".json"):
		return "service credentials"
	case base == "terraform.tfstate" || base == "terraform.tfstate.backup":
		return "infrastructure state with secrets"
	}
	return ""
}

func envExample(base string) bool {
	for _, s := range []string{".example", ".sample", ".template", ".dist", ".defaults", ".schema"} {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	return false
}

// looksSecret judges a path that cannot be resolved by its text: it names
// one of the home's credential places, or a secret's shape.
func looksSecret(raw string) bool {
	raw += "/"
	for _, s := range []string{".env", "_history", "/environ", "id_rsa", "id_ed25519", "gcloud", ".kube/", ".docker/"} {
		if strings.Contains(raw, s) {
			return true
		}
	}
	for _, c := range secretDirs {
		if strings.Contains(raw, c) {
			return true
		}
	}
	return false
}

// instructionPath says which instructions or start-up code writing p
// changes, or "" when none: a place of the table that acts later
// (place.Written), or a repository's hooks or configuration. Names are
// matched without regard to case: on a case-insensitive file system
// .Vscode/ is .vscode/ and agents.md is AGENTS.md.
func instructionPath(p, home string) string {
	if pl, ok := place.Written(p, home); ok {
		if pl.What == "" {
			return "what an agent or a tool reads from the project (" + pl.Path + ")"
		}
		return pl.What
	}
	switch p = strings.ToLower(p); {
	case strings.Contains(p, "/.git/hooks/") || strings.HasSuffix(p, "/.git/hooks"):
		return "git hooks"
	case strings.HasSuffix(p, "/.git/config"):
		return "git configuration that can run programs"
	}
	return ""
}

// devicePath says which device writing p overwrites, or "" when p is not a
// disk or memory device.
func devicePath(p string) string {
	if !strings.HasPrefix(p, "/dev/") {
		return ""
	}
	switch base := path.Base(p); {
	case strings.HasPrefix(base, "sd") || strings.HasPrefix(base, "nvme") || strings.HasPrefix(base, "hd") ||
		strings.HasPrefix(base, "vd") || strings.HasPrefix(base, "xvd") || strings.HasPrefix(base, "mmcblk") ||
		strings.HasPrefix(base, "disk") || strings.HasPrefix(base, "rdisk") || strings.HasPrefix(base, "loop") ||
		strings.HasPrefix(base, "dm-") || strings.HasPrefix(p, "/dev/mapper/") || base == "mem" || base == "kmem" || base == "port":
		return "a disk or memory device"
	}
	return ""
}
