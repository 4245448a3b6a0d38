package program

import (
	"strings"
	"sync"
)

// registry returns every program sayso knows. A program is registered in
// the file named like the file of package risk that classifies it (git.go
// here, risk/git.go there), and nowhere else: risk's tests fail when one
// is missing from the other (TestLayout) or registered in another file
// (TestProgramFiles). It is built once, on first use, by buildRegistry,
// from each file's builder method: a process that links the package only
// for its lists of names (the hook's forwarder, through package paths)
// never builds it.
var registry = sync.OnceValue(buildRegistry)

// buildRegistry makes the registry at its size (a map grown entry by entry
// is rehashed several times on the way, a third of its cost), one file's
// programs after another.
func buildRegistry() map[string]Program {
	r := make(builder, registrySize)
	r.builders()
	r.builds()
	r.builtins()
	r.clouds()
	r.clusters()
	r.containers()
	r.daemons()
	r.databases()
	r.editors()
	r.everyday()
	r.files()
	r.forges()
	r.git()
	r.listen()
	r.looks()
	r.net()
	r.packages()
	r.programs()
	r.runners()
	r.sayso()
	r.senders()
	r.system()
	r.toolbox()
	r.wrappers()
	r.writesArchive()
	r.writesBuild()
	r.writesDb()
	r.writesPatch()
	r.writesSystem()
	r.writesText()
	return r
}

// builder is the registry while buildRegistry fills it.
type builder map[string]Program

// registrySize is room for every program registered; TestRegistrySize
// fails when the registry outgrows it.
const registrySize = 1400

// add registers each name in names (space-separated) with traits t.
func (r builder) add(t Trait, names string) {
	for _, n := range strings.Fields(names) {
		p := r[n]
		p.Traits |= t
		r[n] = p
	}
}

// list names one of the lists of a Program.
type list uint8

const (
	verbs    list = iota // Verbs: the subcommands that run code
	progOpts             // ProgOpts: options whose value is a program or a command line
	workOpts             // WorkOpts: options whose value is the folder or file it works on
	repoOpts             // RepoOpts: options whose value names another repository
	state                // State: the folders of the home where it keeps its own state
	creds                // Credentials: the credentials, relative to the home, it needs
)

// verbs, progOpts, workOpts, repoOpts, state and creds append to that
// list of name's entry.
func (r builder) verbs(name string, vs ...string)    { r.set(verbs, name, vs...) }
func (r builder) progOpts(name string, vs ...string) { r.set(progOpts, name, vs...) }
func (r builder) workOpts(name string, vs ...string) { r.set(workOpts, name, vs...) }
func (r builder) repoOpts(name string, vs ...string) { r.set(repoOpts, name, vs...) }
func (r builder) state(name string, vs ...string)    { r.set(state, name, vs...) }
func (r builder) creds(name string, vs ...string)    { r.set(creds, name, vs...) }

// set appends vs to the list l of name's entry.
func (r builder) set(l list, name string, vs ...string) {
	p := r[name]
	f := [...]*[]string{&p.Verbs, &p.ProgOpts, &p.WorkOpts, &p.RepoOpts, &p.State, &p.Credentials}[l]
	*f = append(*f, vs...)
	r[name] = p
}
