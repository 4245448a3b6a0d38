package policy

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
)

// Disk is how Resolve reads the disk: the caller's, so that Evaluate
// stays pure.
type Disk struct {
	// EvalSymlinks is filepath.EvalSymlinks.
	EvalSymlinks func(string) (string, error)
	// RepoRuns says what the configuration and hooks of the repository
	// git finds from folder dir run, when that repository is not the
	// project's own; "" when nothing or when it is. Nil looks at nothing.
	RepoRuns func(dir string) string
	// Compose reads the compose file at path, or the files compose finds
	// from folder path. Nil reads none: a compose step is then opaque.
	Compose func(path string) risk.Compose
	// Sum is the SHA-256 of the file at path, hex, or "" when there is no
	// such file. Nil sums nothing.
	Sum func(path string) string
}

// manifests are the project's files that say what its commands run: a
// step the person approves runs them as they were when it was decided.
var manifests = []string{"package.json", "pyproject.toml", "Makefile", "makefile", "GNUmakefile"}

// Resolve fills req.Links with the real path of every path the step names
// that exists (or whose folder exists), as its symlinks lead,
// req.Context.Compose with the compose files its compose segments use, and
// req.Repos with what the repositories its git segments use would run.
func Resolve(req *Request, disk Disk) {
	evalSymlinks := disk.EvalSymlinks
	pol := policyOf(req)
	w := place(req, pol)
	a := assess(req, pol, &w)
	links := map[string]string{}
	for _, p := range a.Paths {
		if p.Path == "" {
			continue
		}
		host := p.Path
		if w.container {
			if within(host, ContainerTmp) {
				continue // the container's /tmp is not the host's
			}
			host = translate(host, w.mount, w.hostRoot)
		}
		real := realPath(host, evalSymlinks)
		// A ".." after a symlink climbs from where the link leads, not from
		// where it sits: resolve the path as written too.
		if raw := p.Raw; !path.IsAbs(raw) && strings.Contains(raw, "..") && !w.container {
			if r := realPath(w.ctx.Cwd+"/"+raw, evalSymlinks); r != "" && r != host {
				real = r
			}
		}
		if real != "" && real != host {
			links[p.Path] = real
		}
	}
	req.Links = links
	if disk.Sum != nil && !w.container {
		// What the step runs: the files it runs by path, and the project's
		// manifests, whose scripts and recipes it may run by name.
		req.Seen = map[string]string{}
		if root := w.ctx.Root; root != "" && root != "/" {
			for _, m := range manifests {
				req.Seen[path.Join(root, m)] = disk.Sum(path.Join(root, m))
			}
		}
		for _, p := range a.Paths {
			if p.Op == risk.OpRun && p.Path != "" {
				req.Seen[p.Path] = disk.Sum(p.Path)
			}
		}
	}
	if disk.Compose != nil && len(a.Compose) > 0 {
		read := make(map[string]risk.Compose, len(a.Compose))
		for _, p := range a.Compose {
			host := p.Path
			if w.container {
				continue // the container's folders: compose runs on the host
			}
			if _, done := read[p.Path]; !done {
				read[p.Path] = disk.Compose(host)
				if req.Seen != nil {
					req.Seen[host] = disk.Sum(host)
				}
			}
		}
		req.Context.Compose = read
	}
	if disk.RepoRuns == nil || len(a.Repos) == 0 {
		return
	}
	req.Repos = map[string]string{}
	for _, p := range a.Repos {
		host := p.Path
		if w.container {
			if within(host, ContainerTmp) {
				continue
			}
			host = translate(host, w.mount, w.hostRoot)
		}
		if _, done := req.Repos[p.Path]; !done {
			req.Repos[p.Path] = disk.RepoRuns(host)
		}
	}
}

// withRepos holds a git segment whose repository is not the project's,
// and whose configuration or hooks run a program, to opaque: the wall
// keeps the project's repository, not one a step made, and what that
// program does is not in the step.
func withRepos(a *risk.Assessment, repos map[string]string) {
	for _, p := range a.Repos {
		if why := repos[p.Path]; why != "" {
			a.Classes = a.Classes.Add(risk.Opaque)
			a.Findings = append(a.Findings, risk.Finding{Class: risk.Opaque, Segment: p.Segment, Reason: risk.Words(why)})
		}
	}
}

// realPath is p with its symlinks resolved, through its longest existing
// folder when p itself does not exist; "" when nothing of it exists.
func realPath(p string, evalSymlinks func(string) (string, error)) string {
	rest := ""
	for dir := p; ; {
		if r, err := evalSymlinks(dir); err == nil {
			return path.Join(r, rest)
		}
		parent := path.Dir(dir)
		if parent == dir {
			return ""
		}
		rest = path.Join(path.Base(dir), rest)
		dir = parent
	}
}

// withLinks holds the real path of every symlinked path to the same checks
// as the path itself: protected, secret, instruction files, and scope.
func withLinks(a *risk.Assessment, links map[string]string, w *where) {
	if len(links) == 0 {
		return
	}
	n := len(a.Paths)
	for i := 0; i < n; i++ {
		p := a.Paths[i]
		real, ok := links[p.Path]
		if !ok {
			continue
		}
		if w.container && within(real, w.hostRoot) {
			real = translate(real, w.hostRoot, w.mount)
		}
		c := risk.CheckPath(p.Op, real, w.ctx)
		for _, f := range c.Findings {
			if f.Class == risk.Read || f.Class == risk.LocalWrite {
				continue
			}
			addFinding(a, f.Class, p.Raw+" leads through a symlink to "+real+": "+f.Why())
		}
		a.Paths = append(a.Paths, risk.PathUse{Op: p.Op, Path: real, Raw: p.Raw + " (through a symlink)", Segment: p.Segment})
	}
}

func addFinding(a *risk.Assessment, c risk.Class, why string) {
	a.Classes = a.Classes.Add(c)
	a.Findings = append(a.Findings, risk.Finding{Class: c, Segment: -1, Reason: risk.Words(why)})
}
