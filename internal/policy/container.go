package policy

import (
	"errors"
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
)

// Container is where a host says its steps run: a container with the
// project mounted in it.
type Container struct {
	Mounts     []Mount `json:"mounts"`
	Privileged bool    `json:"privileged,omitempty"`
	Network    string  `json:"network,omitempty"` // "host" is refused
}

// Mount is one folder of the host mounted in the container.
type Mount struct {
	Host   string `json:"host_root"` // the project folder on the host
	Target string `json:"mount"`     // where it is inside: "/work"
}

// ContainerTmp is the container's own /tmp, in scope there.
const ContainerTmp = "/tmp"

// Validate checks that the container contains what it runs before sayso
// trusts "in a container": exactly one mount, strictly below base, with no
// empty, absolute, "." or ".." segment; no Docker socket; not privileged;
// not on the host's network; holding none of sayso's own files.
func (c *Container) Validate(base string, protected []string) error {
	if len(c.Mounts) != 1 {
		return errors.New("want exactly one mount")
	}
	m := c.Mounts[0]
	switch {
	case c.Privileged:
		return errors.New("the container is privileged")
	case c.Network == "host":
		return errors.New("the container shares the host's network")
	case strings.Contains(m.Host, "docker.sock") || strings.Contains(m.Target, "docker.sock"):
		return errors.New("the Docker socket is mounted")
	case m.Target == "" || !path.IsAbs(m.Target) || path.Clean(m.Target) != m.Target || m.Target == "/":
		return errors.New("mount point " + quote(m.Target) + " is not a clean absolute folder below /")
	case m.Target == ContainerTmp || strings.HasPrefix(m.Target, ContainerTmp+"/"):
		return errors.New("mount point " + m.Target + " is inside the container's /tmp")
	case base == "" || !path.IsAbs(base):
		return errors.New("no projects base to hold the mount against")
	}
	base = path.Clean(base)
	rest, ok := strings.CutPrefix(m.Host, strings.TrimSuffix(base, "/")+"/")
	if !ok || rest == "" {
		return errors.New("host folder " + quote(m.Host) + " is not strictly below the projects base " + base)
	}
	for _, seg := range strings.Split(rest, "/") {
		switch seg {
		case "":
			return errors.New("host folder " + quote(m.Host) + " has an empty or absolute segment")
		case ".", "..":
			return errors.New("host folder " + quote(m.Host) + " has a " + seg + " segment")
		}
	}
	for _, q := range protected {
		if within(q, m.Host) {
			return errors.New("host folder " + m.Host + " holds sayso's own files (" + q + ")")
		}
	}
	return nil
}

func quote(s string) string { return `"` + s + `"` }

// where is the scope a step is held against: the host's, or a valid
// container's, translated as the runner translates.
type where struct {
	ctx       risk.Context
	container bool
	hostRoot  string // the project folder on the host, in a container
	mount     string
	invalid   string // why a container spec was refused, or ""
}

// place works out where a step runs. In a container the root is the mount
// point plus the container's /tmp, and the host cwd is translated by the
// runner's rule: the host root becomes the mount, a folder below it the
// same folder below the mount, anything else stays as it came. On the
// host the root is the project and the host's /tmp is outside.
func place(req *Request, pol *Policy) where {
	ctx := req.Context
	if ctx.Cwd == "" {
		ctx.Cwd = ctx.Root
	}
	w := where{ctx: ctx}
	if req.Container == nil {
		return w
	}
	base := expandHome(pol.ProjectsBase, ctx.Home)
	if base == "" {
		base = ctx.Home
	}
	if err := req.Container.Validate(base, ctx.Protected); err != nil {
		w.invalid = err.Error()
		return w
	}
	m := req.Container.Mounts[0]
	w.container, w.hostRoot, w.mount = true, path.Clean(m.Host), m.Target
	w.ctx.Root = m.Target
	w.ctx.Roots = []string{ContainerTmp}
	w.ctx.Cwd = translate(ctx.Cwd, w.hostRoot, m.Target)
	return w
}

// translate maps a host folder into the container.
func translate(cwd, hostRoot, mount string) string {
	switch {
	case cwd == hostRoot:
		return mount
	case strings.HasPrefix(cwd, hostRoot+"/"):
		return mount + cwd[len(hostRoot):]
	}
	return cwd
}

func (w *where) String() string {
	if w.container {
		return "in a container: root " + w.mount + " (host " + w.hostRoot + ") and its /tmp, cwd " + w.ctx.Cwd
	}
	s := "on the host: root " + w.ctx.Root
	if w.invalid != "" {
		s += " (container spec refused: " + w.invalid + ")"
	}
	return s
}

func expandHome(p, home string) string {
	switch {
	case p == "~":
		return home
	case strings.HasPrefix(p, "~/") && home != "":
		return home + p[1:]
	}
	return p
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	if dir == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}
