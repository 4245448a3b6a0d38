package policy

import (
	"fmt"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
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
			return -1, "no lease covers " + f.Class.String() + " that belongs to the whole step: " + f.Why
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
	var out []string
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
