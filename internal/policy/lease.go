package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// Leasable are the categories a lease may be granted for: risk's table of
// class gates says.
var Leasable = risk.Leasable()

// coveringLease returns the index of the live lease that covers a step
// whose ceilings are ceilings, or -1 and why none does. A lease is one
// action: every ceiling of the step must be its category and, for a shell
// step, lie in one segment, which must act only in the lease's folder (the
// folders Assessment.Folders gives, translated into the container) and
// name no path outside it (what it reads included: the manifest it
// applies, the package it publishes). The lease must be bound to this session, turn,
// epoch and the step's exact cwd, unexpired and unconsumed.
func coveringLease(req *Request, w *where, a *risk.Assessment, ceilings risk.Set) (int, string) {
	if ceilings.Empty() || ceilings.Len() != 1 || ceilings&Leasable != ceilings {
		return -1, "no lease covers " + ceilings.String()
	}
	seg, why := ceilingSegment(a)
	if why != "" {
		return -1, why
	}
	cat := ceilings.Top()
	cwd := req.Context.Cwd
	if cwd == "" {
		cwd = req.Context.Root
	}
	s := &req.Session
	fail := ""
	for i, l := range req.Leases {
		switch {
		case l.Consumed, l.Category != cat, l.Session == "" || l.Session != s.ID, l.Turn != s.Turn,
			l.Epoch != s.Epoch, l.Cwd == "" || l.Cwd != cwd, req.Now.IsZero() || !req.Now.Before(l.Expires):
			continue
		}
		dir := l.Cwd
		if w.container {
			dir = translate(dir, w.hostRoot, w.mount)
		}
		if f := actsOutside(a, seg, dir); f != "" {
			fail = fmt.Sprintf("lease %s is for %s; the %s segment %s", l.ID, l.Cwd, cat, f)
			continue
		}
		return i, ""
	}
	if fail != "" {
		return -1, fail
	}
	return -1, "no live lease covers " + ceilings.String()
}

// ceilingSegment returns the one segment of a shell step that does a
// ceiling's work, -1 for a step that is not a shell command, or why a
// lease cannot cover the step: more than one segment does, or a ceiling
// belongs to the whole step.
func ceilingSegment(a *risk.Assessment) (int, string) {
	if a.Script == nil || len(a.Script.Segments) == 0 {
		return -1, ""
	}
	for _, f := range a.Findings {
		if f.Segment < 0 && f.Class.Ceiling() {
			return -1, "no lease covers " + f.Class.String() + " that belongs to the whole step: " + f.Why()
		}
	}
	seg, n := -1, 0
	for i := range a.Script.Segments {
		if !ceilingSet(a.SegmentClasses(i)).Empty() {
			seg, n = i, n+1
		}
	}
	if n > 1 {
		return -1, fmt.Sprintf("a lease covers one ceiling action, and this step holds %d", n)
	}
	return seg, ""
}

// actsOutside says how segment seg acts outside dir, or "". A step that is
// not a shell command acts in its own folder, which the lease's cwd
// already matched.
func actsOutside(a *risk.Assessment, seg int, dir string) string {
	if seg < 0 {
		return ""
	}
	out := namesElsewhere(a, seg, dir)
	for _, f := range a.Folders(seg) {
		switch {
		case f == "":
			out = append(out, "acts in a folder sayso cannot know")
		case f != dir:
			out = append(out, "acts in "+f)
		}
	}
	for _, p := range a.Paths {
		switch {
		case p.Segment != seg:
		case p.Path == "":
			out = append(out, p.Op.String()+"s "+p.Raw+", which sayso cannot know")
		case !within(p.Path, dir):
			out = append(out, p.Op.String()+"s "+p.Path)
		}
	}
	return strings.Join(out, ", ")
}

// namesElsewhere says how segment seg may act outside dir in ways the
// folders sayso follows do not show: it runs once per item, inside a
// runner that may change folder (find -execdir, tmux -c, watchexec
// --workdir), with variables the step sets (GIT_DIR, TF_DATA_DIR,
// GH_REPO), or names a path outside dir among its words (npm --prefix,
// yarn --cwd=, cargo --manifest-path, terraform -state=) or a word built at
// run time where a path may stand. A lease is one action in one folder:
// what sayso cannot bind to that folder it does not cover.
func namesElsewhere(a *risk.Assessment, seg int, dir string) []string {
	s := &a.Script.Segments[seg]
	var out []string
	if s.Many {
		out = append(out, "runs once per item")
	}
	for _, v := range s.Via {
		if !plainVia(v) {
			out = append(out, "runs inside "+v+", whose folder sayso does not follow")
		}
	}
	for i := range a.Script.Segments {
		x := &a.Script.Segments[i]
		if len(x.Assigns) > 0 || x.Name() == "export" || x.Name() == "declare" || x.Name() == "typeset" || x.Name() == "readonly" || x.Name() == "local" {
			out = append(out, "runs with variables the step sets")
			break
		}
	}
	if len(s.Args) < 2 {
		return out
	}
	for i, w := range s.Args[1:] {
		after := s.Args[i] // the word before w
		optionValue := after.Literal && strings.HasPrefix(after.Value, "-")
		if !w.Literal {
			if strings.ContainsAny(w.Raw, "/~") || strings.Contains(w.Raw, "HOME") || strings.Contains(w.Raw, "PWD") ||
				optionValue || strings.HasPrefix(w.Raw, "-") {
				out = append(out, "names "+w.Raw+", which sayso cannot know")
			}
			continue
		}
		v := w.Value
		// Another repository (gh --repo) is the registry's RepoOpts, which
		// risk records as a folder sayso cannot know.
		if strings.HasPrefix(v, "-") {
			_, val, ok := strings.Cut(v, "=")
			if !ok {
				continue
			}
			v = val
		}
		if p, ok := pathOf(v, dir); ok && !within(p, dir) {
			out = append(out, "names "+p)
		}
	}
	return out
}

// plainVia reports whether a segment inside via runs where the step does:
// a shell's -c, eval, a substitution, a here-doc, a function.
func plainVia(via string) bool {
	switch {
	case via == "eval" || via == "here-doc" || strings.HasPrefix(via, "$") || strings.HasPrefix(via, "`") ||
		strings.HasPrefix(via, "<(") || strings.HasPrefix(via, ">(") || strings.HasPrefix(via, "function "):
		return true
	case strings.HasSuffix(via, " -c"):
		return shell.IsShell(strings.TrimSuffix(via, " -c"))
	}
	return false
}

// pathOf returns the absolute path a word names when it reads as a path
// leaving the folder it is used in: absolute, from the home (~), or
// climbing (..). Other words are not taken for paths.
func pathOf(v, dir string) (string, bool) {
	switch {
	case strings.HasPrefix(v, "/"):
		return path.Clean(v), true
	case v == "~" || strings.HasPrefix(v, "~"):
		return "~", true // the home, or another person's: outside a project
	case v == ".." || strings.HasPrefix(v, "../") || strings.Contains(v, "/../") || strings.HasSuffix(v, "/.."):
		return path.Join(dir, v), true
	}
	return "", false
}
