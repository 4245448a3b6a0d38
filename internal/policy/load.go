package policy

import (
	"errors"
	"io/fs"
	"net/url"
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
)

// Files says where a step's policy files are and how to read them. The
// loader is the one part of the package that reads files, through
// ReadFile (os.ReadFile), so that what it does can be tested without a
// disk.
type Files struct {
	Person   string // the person's file: $SAYSO_CONFIG_DIR/policy.toml
	Root     string // the project root: <root>/.sayso/policy.toml and <root>/.git/config
	ReadFile func(name string) ([]byte, error)
}

// ProjectFile is where the project's policy file lies below its root.
const ProjectFile = ".sayso/policy.toml"

// Look is one policy file Load looked for, and whether it was there.
type Look struct {
	Path   string `json:"path"`
	Whose  string `json:"whose"` // "person" or "project"
	Exists bool   `json:"exists"`
}

// Starter is an entry to start a policy file with: the first thing a
// person without one is shown, and one that Parse reads as it is.
const Starter = `[[deny]]
command = "terraform destroy"
`

// Load reads the person's policy file and the project's, and adds the
// project's git remotes to the trusted hosts. A missing file is no file;
// one that cannot be read is reported and gives nothing that widens.
// Looked lists both files, there or not.
func Load(f Files) *Policy {
	var p *Policy
	data, err := f.ReadFile(f.Person)
	switch {
	case err == nil:
		p = Parse(f.Person, data)
	case errors.Is(err, fs.ErrNotExist):
		p = Defaults()
	default:
		p = Defaults()
		p.Problems = append(p.Problems, Problem{Source: Source{File: f.Person}, Text: "cannot be read (" + err.Error() + "): no allow entry or setting of it is used"})
	}
	p.Looked = []Look{{Path: f.Person, Whose: "person", Exists: !errors.Is(err, fs.ErrNotExist)}}
	if f.Root == "" {
		return p
	}
	project := path.Join(f.Root, ProjectFile)
	data, err = f.ReadFile(project)
	switch {
	case err == nil:
		p.AddProject(project, data)
	case !errors.Is(err, fs.ErrNotExist):
		p.Problems = append(p.Problems, Problem{Source: Source{File: project}, Text: "cannot be read: " + err.Error()})
	}
	p.Looked = append(p.Looked, Look{Path: project, Whose: "project", Exists: !errors.Is(err, fs.ErrNotExist)})
	if data, err := f.ReadFile(path.Join(f.Root, ".git", "config")); err == nil {
		if hosts := RemoteHosts(data); len(hosts) > 0 {
			base := p.TrustedHosts
			if base == nil {
				base = risk.DefaultTrustedHosts
			}
			p.TrustedHosts = append(append([]string(nil), base...), hosts...)
		}
	}
	return p
}

// RemoteHosts reads the hosts of the remotes in a git config file.
func RemoteHosts(config []byte) []string {
	var out []string
	inRemote := false
	for _, line := range strings.Split(string(config), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			inRemote = strings.HasPrefix(line, "[remote ")
			continue
		}
		if !inRemote {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if k = strings.TrimSpace(k); k != "url" && k != "pushurl" {
			continue
		}
		if h := remoteHost(strings.TrimSpace(v)); h != "" && !containsString(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// remoteHost is the host of a git remote URL: scheme://[user@]host[:port]/…
// or [user@]host:path.
func remoteHost(v string) string {
	if strings.Contains(v, "://") {
		u, err := url.Parse(v)
		if err != nil || u.Scheme == "file" {
			return ""
		}
		return strings.ToLower(u.Hostname())
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 || strings.Contains(v[:i], "/") {
		return "" // a local path
	}
	h := v[:i]
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	return strings.ToLower(h)
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
