package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// Context is where a step runs. Paths are absolute; Classify does not touch
// the disk, so symlinks are the caller's to resolve.
type Context struct {
	Root         string   // the project root
	Roots        []string // more folders in scope (a container's /tmp)
	Cwd          string   // the step's working folder; Root when empty
	Home         string   // the home folder ~ stands for
	TrustedHosts []string // hosts a plain fetch may reach; nil means DefaultTrustedHosts
	Protected    []string // paths no step may touch, each with what lies below it
	// TempDir is what $TMPDIR holds where the step runs, as the caller
	// read it from the client's environment; "" when it is not set or not
	// known: $TMPDIR/x is then unknown (unset, it is /x).
	TempDir string
	// Packages are the project's own npm packages and the programs they
	// install (package.json's dependencies, node_modules/.bin), read by
	// the caller; nil when they were not read. A package runner (npx,
	// pnpm dlx, bunx) of a name not among them downloads and runs it.
	Packages map[string]bool
	// Scripts are the project's package.json scripts, name to body, read
	// by the caller: a step that runs one is judged by what it runs.
	Scripts map[string]string
	// Commands are the programs the project declares as its own, name to
	// the file that declares it (package.json's bin, pyproject.toml's
	// [project.scripts]), read by the caller: run by its bare name, or by
	// npx and npm exec, such a program is the project's own code, local
	// work inside the wall, unless the registry knows the name (a project
	// cannot make git or curl its own code by naming it).
	Commands map[string]string
	// Recipes are the project Makefile's targets, name to recipe lines,
	// read by the caller; "" names the first target, make's default.
	Recipes map[string][]string
	// Compose are the compose files read by the caller, keyed by the path
	// a compose step named (a file, or the folder compose searches from):
	// a step that starts containers is judged by what they hand them. A
	// path missing here was not read: the step is opaque.
	Compose map[string]Compose

	depth int // scripts inside scripts, bounded
}

// The files a project declares its own commands in, as Context.Commands
// names them.
const (
	CommandOfPackageJSON = "package.json"   // bin
	CommandOfPyproject   = "pyproject.toml" // [project.scripts], [project.gui-scripts], [tool.poetry.scripts]
)

// TestPackages are the packages of the project the corpora are judged in:
// a project that depends on these, as the everyday commands' projects do.
var TestPackages = map[string]bool{
	"prettier": true, "eslint": true, "typescript": true, "tsc": true, "vitest": true, "jest": true,
	"playwright": true, "@playwright/test": true, "hugo-bin": true, "hugo": true, "@tailwindcss/cli": true,
	"renovate": true, "renovate-config-validator": true, "vite": true, "next": true, "tsx": true, "ts-node": true, "prisma": true,
}

// DefaultTrustedHosts are the package registries a plain fetch may reach
// without asking, and this machine.
var DefaultTrustedHosts = []string{
	"localhost", "127.0.0.1", "::1",
	"registry.npmjs.org", "registry.yarnpkg.com", "proxy.golang.org", "sum.golang.org",
	"pkg.go.dev", "pypi.org", "files.pythonhosted.org", "crates.io", "static.crates.io",
	"index.crates.io", "rubygems.org", "repo.maven.apache.org", "repo1.maven.org",
	"deb.debian.org", "security.debian.org",
}

// Op is what a step does to a path.
type Op uint8

const (
	OpRead Op = iota
	OpWrite
	OpDelete
	OpRun
)

func (o Op) String() string {
	return [...]string{"read", "write", "delete", "run"}[o]
}

// PathUse is one path a step reads, writes, deletes or runs.
type PathUse struct {
	Op      Op
	Path    string // absolute and clean; "" when it cannot be known
	Raw     string // as written
	Segment int
}

// Finding is one reason for one class.
type Finding struct {
	Class   Class
	Segment int // index into the script's segments; -1 for the whole step
	Reason  Reason
}

// Why is the finding's reason in words, rendered from its kind.
func (f Finding) Why() string { return f.Reason.String() }

// Assessment is what Classify found.
type Assessment struct {
	Classes  Set
	Findings []Finding
	Paths    []PathUse
	// Repos are the folders a git segment finds its repository from: its
	// working folder, or the git folder --git-dir or GIT_DIR names. Whose
	// repository that is, and what its configuration and hooks run, is on
	// the disk: the caller looks (policy.Resolve).
	Repos []PathUse
	// Compose are the compose files, or the folders compose searches from,
	// a compose step uses: the caller reads them (policy.Resolve) into
	// Context.Compose, and the step is judged again.
	Compose []PathUse
	// GitConfig are the folders whose repository configuration git itself
	// writes with its own keys (a branch's upstream, a remote, user.name):
	// a step made only of git may be let write it (hook.Walls).
	GitConfig []PathUse
	Script    *shell.Script
	segments  []Set      // the classes of each segment
	folders   [][]string // the folders each segment acts in (Folders)
}

// SegmentClasses returns the classes found in segment i.
func (a *Assessment) SegmentClasses(i int) Set {
	if i < 0 || i >= len(a.segments) {
		return 0
	}
	return a.segments[i]
}

// Folders returns the folders segment i acts in when it does a ceiling's
// work: every folder it may run in when it does it (after cd, a wrapper's
// chdir, git -C) and every folder it names for its program to work on
// (git --git-dir and --work-tree, GIT_DIR, terraform -chdir). "" stands
// for a folder sayso cannot know. A lease binds to these, not to the
// folder the step starts in.
func (a *Assessment) Folders(i int) []string {
	if i < 0 || i >= len(a.folders) {
		return nil
	}
	return a.folders[i]
}

// Command classifies a shell command.
func Command(src string, ctx Context) Assessment {
	return Classify(shell.Parse(src), ctx)
}

// Classify classifies a parsed command. A compound step is never less risky
// than any of its parts: its classes are the union of theirs.
func Classify(s *shell.Script, ctx Context) Assessment {
	if ctx.Cwd == "" {
		ctx.Cwd = ctx.Root
	}
	if ctx.TrustedHosts == nil {
		ctx.TrustedHosts = DefaultTrustedHosts
	}
	a := &assessor{ctx: ctx, script: s, cwds: []string{ctx.Cwd}, stages: stagesOf(s)}
	a.out.Script = s
	a.out.segments = make([]Set, len(s.Segments))
	// Most segments give one finding or two: room for them at once, not
	// a slice grown finding by finding.
	a.out.Findings = make([]Finding, 0, len(s.Segments)+1)
	for _, o := range s.Opaque {
		a.add(-1, Opaque, HidesWhatRuns.By("", "", o.Why+" (at "+o.Pos.String()+")"))
	}
	a.env = gatherEnv(s)
	for i := range s.Segments {
		a.cur = i
		a.segment(i)
	}
	a.cur = -1 // a loop's variables are read only where the loop binds them
	a.pipelines()
	for i := range s.Segments {
		seg := &s.Segments[i]
		if (seg.Many || seg.Loop) && a.actsOnMany(i) {
			r := EachInput.By("", "", "")
			if !seg.Many {
				r = EachInLoop.By("", "", "")
			}
			a.add(i, Count, r)
		}
	}
	if a.findSecret {
		for i := range s.Segments {
			seg := &s.Segments[i]
			if len(seg.Via) > 0 && (strings.HasPrefix(seg.Via[0], "find -") || strings.HasPrefix(seg.Via[0], "fd -")) {
				a.add(i, Secret, EachSecretFound.By(seg.Via[0], "", ""))
			}
			for _, w := range seg.Wrappers {
				if w == "xargs" || w == "parallel" {
					a.add(i, Secret, EachSecretFound.By(w, "", ""))
				}
			}
		}
	}
	if a.out.Classes.Empty() {
		a.add(-1, Read, ChangesNothing.By("", "", ""))
	}
	return a.out
}

type assessor struct {
	ctx        Context
	script     *shell.Script
	out        Assessment
	env        map[string]string // every literal assignment in the step, last wins
	cwds       []string          // the folders a segment may run in; "" when unknown
	roles      map[int]role
	deletes    map[int]bool  // segments that delete a path
	stages     map[int][]int // the segments of each pipeline
	links      []symlink     // symbolic links the step makes
	findSecret bool
	branch     string          // the branch a checkout in the step moved to
	fetched    map[string]bool // files a download in the step wrote
	made       map[string]bool // files the step writes, copies or links: running one runs code made in the step
	unpacked   bool            // the step extracts a downloaded archive
	dirs       map[string]bool // folders the step makes
	cur        int             // the segment being classified; -1 after
	depth      int             // words expanded inside one another (a loop's words)
	setVars    map[string]bool // variables the step may set other than by an assignment
	assigned   map[string]bool // variables the step assigns
	unreadCode bool            // the step runs code in this shell that sayso does not read
	partial    bool            // the last path resolved may also be one sayso does not know
	vars       map[string][]binding
	varFacts   map[string]varFacts // per variable and folder
	inVar      map[string]bool     // variables being expanded

	// madeText holds the files the step last wrote with cat from a
	// here-doc it holds whole, with their text (runsHereText).
	madeText map[string]string
}

func (a *assessor) add(seg int, c Class, r Reason) {
	a.out.Classes = a.out.Classes.Add(c)
	if seg >= 0 {
		a.out.segments[seg] = a.out.segments[seg].Add(c)
		if c.Ceiling() {
			a.actsIn(seg, a.cwds...)
		}
	}
	// Findings come segment by segment: a repeat sits among the last ones.
	for j := len(a.out.Findings) - 1; j >= 0 && a.out.Findings[j].Segment == seg; j-- {
		if f := a.out.Findings[j]; f.Class == c && f.Reason == r {
			return
		}
	}
	a.out.Findings = append(a.out.Findings, Finding{Class: c, Segment: seg, Reason: r})
}

// actsIn records folders segment seg acts in ("" for one not known).
func (a *assessor) actsIn(seg int, dirs ...string) {
	if seg < 0 || seg >= len(a.script.Segments) {
		return
	}
	if a.out.folders == nil {
		a.out.folders = make([][]string, len(a.script.Segments)) // only a step with a ceiling pays
	}
	for _, d := range dirs {
		if !containsString(a.out.folders[seg], d) {
			a.out.folders[seg] = append(a.out.folders[seg], d)
		}
	}
}

// actsInWord records the folders a word names for segment seg's program
// to work on; a git folder (.git) stands for the repository holding it.
func (a *assessor) actsInWord(seg int, w shell.Word) {
	ps := a.resolve(w)
	if ps == nil {
		a.actsIn(seg, "")
		return
	}
	for _, p := range ps {
		if path.Base(p) == ".git" {
			p = path.Dir(p)
		}
		a.actsIn(seg, p)
	}
}

func (a *assessor) segClasses(i int) Set { return a.out.SegmentClasses(i) }

// actsOnMany reports whether segment i, run once per item, does more than
// local work: it deletes, or reaches past the project.
func (a *assessor) actsOnMany(i int) bool {
	return !Safe(a.segClasses(i)) || a.deletes[i]
}

// Safe reports whether s holds only read and local-write.
func Safe(s Set) bool { return s.Without(Read).Without(LocalWrite).Empty() }

// gatherEnv collects every literal assignment in the step: before a
// command, standing alone, exported or given to env. Whether a variable is
// exported at the time a later command runs is not tracked; every
// assignment counts (set -a exports them all).
func gatherEnv(s *shell.Script) map[string]string {
	var env map[string]string
	for i := range s.Segments {
		for _, as := range s.Segments[i].Assigns {
			if env == nil {
				env = map[string]string{}
			}
			if as.Value.Literal {
				env[as.Name] = as.Value.Value
			} else {
				env[as.Name] = "\x00dynamic"
			}
		}
	}
	return env
}

// resolve returns the absolute paths w may name, one per folder the segment
// may run in and per word its braces make, after the expansions bash would
// do (expand.go), or nil when the path cannot be known.
func (a *assessor) resolve(w shell.Word) []string {
	a.partial = false
	if strings.Contains(w.Value, "{}") {
		return nil // a file find or xargs hands over
	}
	var out []string
	for _, d := range a.cwds {
		vs := a.expandWord(w, d)
		if vs == nil {
			return nil
		}
		for _, v := range vs {
			if v == "" {
				return nil
			}
			if !path.IsAbs(v) {
				if d == "" {
					return nil
				}
				v = d + "/" + v
			}
			v, ok := procPath(v, d)
			if !ok {
				return nil
			}
			v, ok = a.follow(path.Clean(v))
			if !ok {
				return nil // through a link this step made to a place sayso cannot know
			}
			if !contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// symlink is a symbolic link the step makes at at, to to ("" when the
// target cannot be known).
type symlink struct{ at, to string }

// follow rewrites p through the links the step made above it, up to 16
// times; false when one of them goes where sayso cannot know.
func (a *assessor) follow(p string) (string, bool) {
	for n := 0; n < 16; n++ {
		moved := false
		for _, l := range a.links {
			// The link itself leads there too: rm -rf link/ deletes
			// what it leads to, echo > link writes it.
			if rest, ok := strings.CutPrefix(p, l.at+"/"); ok || p == l.at {
				if l.to == "" {
					return "", false
				}
				p, moved = path.Join(l.to, rest), true
				break
			}
		}
		if !moved {
			return p, true
		}
	}
	return "", false
}

// InScope reports whether p lies in one of the context's roots.
func (ctx *Context) InScope(p string) bool {
	if p == "" {
		return false
	}
	if within(p, ctx.Root) {
		return true
	}
	for _, r := range ctx.Roots {
		if within(p, r) {
			return true
		}
	}
	return false
}

// Scratch reports whether p lies below one of the machine's temporary
// folders (place.Temp), which the wall lets every step write, and not in
// the home (a home kept under /tmp).
func (ctx *Context) Scratch(p string) bool {
	return p != "" && tempPath(p) && !(ctx.Home != "" && within(p, ctx.Home))
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	if dir == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}
