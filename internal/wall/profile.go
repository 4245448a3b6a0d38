package wall

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/place"
)

// Scope is how far a walled step may write. The zero value is the
// narrowest.
type Scope int

const (
	// Read writes nowhere but the null-like devices and the temp folders.
	Read Scope = iota
	// Local writes the project root, the temp folders and the user's
	// build caches.
	Local
	// Approved writes what Local writes and the places the decision
	// read as written for this step (Inputs.Writes), and what the
	// person's policy names for every approved step (Inputs.Widen):
	// nothing else, whatever the step's code does.
	Approved
)

var scopeNames = []string{"read", "local", "approved"}

func (s Scope) String() string {
	if s < 0 || int(s) >= len(scopeNames) {
		return fmt.Sprintf("Scope(%d)", int(s))
	}
	return scopeNames[s]
}

// MarshalText renders the scope as its name.
func (s Scope) MarshalText() ([]byte, error) {
	if s < 0 || int(s) >= len(scopeNames) {
		return nil, fmt.Errorf("unknown scope %d", int(s))
	}
	return []byte(scopeNames[s]), nil
}

// UnmarshalText reads a scope's name.
func (s *Scope) UnmarshalText(b []byte) error {
	v, err := ParseScope(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseScope reads a scope's name and rejects any other text.
func ParseScope(s string) (Scope, error) {
	for i, n := range scopeNames {
		if s == n {
			return Scope(i), nil
		}
	}
	return Read, fmt.Errorf("unknown scope %q", s)
}

// Inputs is what the wall of one step is made from.
type Inputs struct {
	Home, Root string // the user's home; the project root (absolute)
	// Worktrees are the project repository's other work trees (git
	// worktree list): a Local step writes them as it writes the root,
	// and each is kept as the root is (its instructions, the clients'
	// folders, its .git).
	Worktrees []string
	Hidden    []string // neither readable nor writable: sayso's folders and binaries
	Scope     Scope
	// Daemons lets a Read or Local step reach the machine's and the
	// session's daemons (docker, podman, systemd, the buses, tmux, X11):
	// each of them runs what it is asked outside the wall. Approved steps
	// reach them always.
	Daemons bool
	// State are folders of the home (relative to it) where the step's
	// tools keep what they write for themselves (gcloud's .config/gcloud):
	// writable in Read and Local, made first when missing. Set for a step
	// made only of such tools and programs that only read.
	State []string
	// GitConfig lets the step write the configuration of the project's
	// repository (its worktrees' and modules' too), which is otherwise
	// read-only: set for a step made only of git commands that write their
	// own keys there (a branch's upstream, a remote, user.name). The hooks
	// stay read-only.
	GitConfig bool
	// Unlock are the paths an Approved step was approved to write that
	// the wall would keep read-only (an instruction file, a client's
	// settings): the person's say-so named them. Hidden paths stay hidden.
	Unlock []string
	// Writes are the places the decision read as written or deleted for
	// an Approved step (the engine's write targets, absolute): the step
	// writes each (a folder whole; a file, or a path still to be made,
	// through the folder it lies in, unless that folder is too wide to
	// open: see written). Other scopes ignore them.
	Writes []string
	// Widen are folders the person's policy lets every Approved step
	// write beside its own (approved_writes), granted whole: the person
	// named them.
	Widen []string
	// Credentials are the person's credentials (entries of
	// place.Credentials, relative to the home) the step may read: set for
	// a step made only of programs sayso knows that need them for what was
	// decided (a git fetch over ssh gets .ssh). The other credentials stay
	// hidden; with none, the step also gets no secret-named variable and
	// no ssh or gpg agent.
	Credentials []string
	// Secrets gives the step every credential, the environment's secrets
	// and the agents: the person said yes to this very step. A step a mode
	// let through wide (autopilot, an allow entry, a rule) does not have
	// them: no one saw what it would do with them.
	Secrets bool
	// Hosts are the hosts the step's traffic may reach through the wall's
	// egress proxy: it has no network of its own.
	Hosts []string
	// HostNetwork lets the step use the machine's network as it is: set
	// where it is granted a credential (Credentials, or Secrets for a
	// step made only of the programs sayso knows), whose programs reach
	// only what the decision read on their command line.
	HostNetwork bool
	// Session is the socket of the session's holder (absolute), where the
	// session's steps share one network and the processes they leave
	// running; "" gives the step a network of its own that ends with it.
	Session string
	// PagePort is the port the person's page is served on, when not
	// place.PagePort: no session forwards a port its steps listen on to it.
	PagePort int
	// Ledger is sayso serve's socket (absolute), where the wall reports
	// the connections it refuses; SessionID the client's session they are
	// reported under.
	Ledger, SessionID string
	// Same are the files that say what the step runs, with their SHA-256
	// when it was decided ("" for none): a step the person approved runs
	// only while each is as it was (Profile.Same).
	Same map[string]string
}

// Profile is what the launcher enforces. Every list holds absolute,
// clean paths; a path missing when the step starts is skipped (Make
// creates its folders first).
type Profile struct {
	Scope Scope
	// Write are the trees the step may write (Landlock).
	Write []string
	// ReadOnly are paths bound read-only over themselves: the step may
	// read them but not change, move or delete them.
	ReadOnly []string
	// Hidden are paths covered by an empty read-only folder of mode 0,
	// or, for a file, by a socket inode no process listens on: the step
	// can neither read nor write them (root included), nor reach a
	// socket in them.
	Hidden []string
	// Make are folders made empty before the wall when missing, so that
	// they can be bound read-only: a step cannot plant them.
	Make []string
	// Absent are files that do not exist when the step starts and must
	// not when it ends: a repository's commondir, which would send the
	// person's next git command to another folder's configuration (its
	// core.fsmonitor, its hooks). Missing files cannot be bound; the
	// launcher removes what the step made there, and says so.
	Absent []string
	// Secrets lets the step keep the variables of its environment whose
	// name says they hold a secret (place.SecretVar) and reach the ssh and
	// gpg agents: a step the person said yes to, or one granted a
	// credential.
	Secrets bool
	// Kept are trees the scope does not let write — the home, and the
	// project of a Read step — bound read-only over itself, with the Write
	// trees inside it bound writable again: Landlock leaves a file's mode,
	// owner, times and extended attributes alone, and cannot take a right
	// away below a tree that has it (a home under /tmp).
	Kept []string
	// Hosts, HostNetwork, Session, Ledger and SessionID are the step's
	// network and where its refusals are reported (Inputs).
	Hosts             []string
	HostNetwork       bool
	Session           string
	Ledger, SessionID string
	// PagePort is the person's page's port, when not place.PagePort
	// (Inputs).
	PagePort int
	// Same are "SUM:PATH": files that must be as they were decided when
	// the step starts, or it does not run (a process the session left
	// running rewrote what the person approved).
	Same []string
	// Overlay are the shared caches a step writes through an overlay: it
	// reads the person's cache and writes to an upper layer of the wall's
	// own (under Upper, which the launcher that runs the step names), so
	// that nothing it writes there is what the person's own runs read.
	Overlay []string
	Upper   string
	// InClientSandbox says the step may be started inside a client's own
	// sandbox (a read-only or workspace-write one), where no namespace
	// can be made: there the launcher applies what of the wall Landlock
	// alone holds (ClientSandboxPart) instead of failing. Where it can
	// make its namespaces, it sets up the whole wall as without it.
	InClientSandbox bool
}

// tempDirs are the temp folders every scope may write: place.Temp, the
// one table the engine reads too.
var tempDirs = place.Temp

// devices every scope may read and write (and ioctl: terminals).
var devices = []string{
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty", "/dev/ptmx", "/dev/pts",
}

// runCaches are the folders of the caches whose programs run again
// without a check, outside the wall, at the person's next command of the
// same name (npx reuses what it installed in ~/.npm/_npx), by the cache
// they sit in: read-only in local, made when missing in a project; a
// cache whose one is missing elsewhere is not written. An approved step
// writes them.
var runCaches = map[string]string{".npm": ".npm/_npx"}

// treeKept adds to ro the tree places of folder dir that act later, and
// sayso's own (place.Table): the agents' instructions and settings, what
// tools run later on their own. A missing file can be created there: a
// missing file cannot be bound. The folders marked to be made (the
// clients' folders, sayso's policy folder) are added to mk when made is
// set, so that a step cannot plant them: an archive unpacked or a branch
// checked out in the project, local work, must neither rewrite the
// person's deny entries nor plant entries of its own.
func treeKept(ro, mk []string, dir string, made bool) ([]string, []string) {
	for _, pl := range place.Table {
		if pl.Base != place.Tree || !pl.Kind.Acts() && pl.Kind != place.Own {
			continue
		}
		ro = append(ro, pl.In(dir, 0))
		if made && pl.Make {
			mk = append(mk, pl.In(dir, 0))
		}
	}
	return ro, mk
}

// systemDirs hold the machine's programs, settings and state: a folder
// in one is never a project a Local step may write.
var systemDirs = []string{
	"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc",
	"/run", "/sbin", "/sys", "/usr", "/var/lib", "/var/spool", "/var/log", "/var/cache",
	"/var/run", "/var/db", "/var/mail",
}

// isProject reports whether root may be written as a project by a Local
// step. The root follows the working folder the agent's own steps leave
// (cd /etc, then the next step), so a root that is /, the home or one of
// its ancestors, a system folder, or a dot-folder of the home (~/.ssh,
// ~/.local/bin, ~/.config/…) is not a project.
func isProject(root, home string) bool {
	if root == "" || root == "/" {
		return false
	}
	if home != "" && (root == home || strings.HasPrefix(home, root+"/")) {
		return false
	}
	for _, d := range systemDirs {
		if root == d || strings.HasPrefix(root, d+"/") {
			return false
		}
	}
	if home != "" && strings.HasPrefix(root, home+"/.") {
		return false
	}
	return true
}

// For is the profile of a step: the scope's writable trees and the fixed
// lists of what no walled step may change or read. A root that is not a
// project (see isProject) is not written by a Local step.
func For(in Inputs) Profile {
	home := clean(in.Home)
	root := clean(in.Root)
	p := Profile{Scope: in.Scope, Hosts: in.Hosts, HostNetwork: in.HostNetwork, Session: clean(in.Session), Ledger: clean(in.Ledger), SessionID: in.SessionID}
	if in.PagePort > 0 && in.PagePort < 1<<16 && in.PagePort != place.PagePort {
		p.PagePort = in.PagePort
	}
	if !sessionID(p.SessionID) {
		p.SessionID = ""
	}
	for path, sum := range in.Same {
		if c := clean(path); c != "" {
			p.Same = append(p.Same, sum+":"+c)
		}
	}
	slices.Sort(p.Same)

	p.Write = append(p.Write, tempDirs...)
	p.Write = append(p.Write, devices...)
	switch in.Scope {
	case Local, Approved:
		if isProject(root, home) {
			p.Write = append(p.Write, root)
		}
		for _, wt := range in.Worktrees {
			if wt = clean(wt); wt != root && isProject(wt, home) {
				p.Write = append(p.Write, wt)
			}
		}
		if home != "" {
			made := isProject(root, home)
			for _, pl := range place.Of(place.Home, place.Cache) {
				c := pl.Path
				if rc, ok := runCaches[c]; ok {
					d := filepath.Join(home, rc)
					if _, err := os.Lstat(d); err != nil && !made {
						continue // missing, and not made here: the step could plant it
					}
					p.ReadOnly = append(p.ReadOnly, d)
					if made {
						p.Make = append(p.Make, d)
					}
				}
				p.Write = append(p.Write, filepath.Join(home, c))
				p.Overlay = append(p.Overlay, filepath.Join(home, c))
			}
		}
	}
	wide := false // an Approved step granted the home whole, or a folder above it
	if in.Scope == Approved {
		for _, t := range append(slices.Clone(in.Writes), in.Unlock...) {
			p.Write = append(p.Write, written(t, home)...)
		}
		for _, d := range in.Widen {
			if d = clean(d); d != "" {
				p.Write = append(p.Write, d)
				wide = wide || home != "" && (d == home || strings.HasPrefix(home, d+"/"))
			}
		}
	}
	if home != "" {
		for _, d := range in.State {
			if d = filepath.Clean(d); d != "." && !filepath.IsAbs(d) && !strings.HasPrefix(d, "..") {
				ro, mk, ok := stateKept(home, d)
				if !ok {
					continue
				}
				p.Write = append(p.Write, filepath.Join(home, d))
				p.Make = append(p.Make, filepath.Join(home, d))
				p.Make = append(p.Make, mk...)
				p.ReadOnly = append(p.ReadOnly, ro...)
			}
		}
	}

	// What acts later (place.Kind.Acts: the engine asks before a step
	// writes one) is kept read-only, or hidden where its content may hold
	// a secret; the credentials no step may be granted are hidden.
	for _, pl := range place.Table {
		switch {
		case pl.Base == place.Tree || pl.Base == place.Home && home == "":
		case pl.Kind.Acts() && pl.Hide || pl.Kind == place.Credential && pl.Hide && pl.Base == place.Home:
			p.Hidden = append(p.Hidden, pl.In(home, os.Getuid()))
		case pl.Kind.Acts():
			p.ReadOnly = append(p.ReadOnly, pl.In(home, os.Getuid()))
		}
	}
	trees := []string{root}
	for _, wt := range in.Worktrees {
		if wt = clean(wt); wt != "" && wt != root {
			trees = append(trees, wt)
		}
	}
	for _, root := range trees {
		if root == "" || root == "/" {
			continue
		}
		// Folders are made only in a project: never in a system folder
		// or a dot-folder of the home a step's cd led the root to.
		made := isProject(root, home)
		p.ReadOnly, p.Make = treeKept(p.ReadOnly, p.Make, root, made)
		if git := filepath.Join(root, ".git"); isDir(git) && !exists(filepath.Join(git, "commondir")) {
			p.Absent = append(p.Absent, filepath.Join(git, "commondir"))
		}
		ro, configs, mk := gitPaths(root, home)
		if in.GitConfig {
			ro = unlocked(ro, configs)
		}
		p.ReadOnly = append(p.ReadOnly, ro...)
		if made {
			p.Make = append(p.Make, mk...)
		}
	}
	// The agents read their instructions, and the shell and the tools
	// their settings, from the folders above the project too, up to the
	// home and the home's own.
	if home != "" {
		for d := filepath.Dir(root); strings.HasPrefix(d, home+"/"); d = filepath.Dir(d) {
			p.ReadOnly, _ = treeKept(p.ReadOnly, nil, d, false)
		}
		p.ReadOnly, _ = treeKept(p.ReadOnly, nil, home, false)
	}
	if !in.Daemons {
		// Each runs what it is asked outside the wall: an approved step
		// reaches them only as a daemon's client, or it would write
		// through them where it was not approved to.
		for _, pl := range place.Of(place.Machine, place.Daemon) {
			p.Hidden = append(p.Hidden, pl.In("", os.Getuid()))
		}
	}
	p.Secrets = in.Secrets || len(in.Credentials) > 0
	if !in.Secrets && home != "" {
		for _, c := range place.Credentials {
			if !slices.Contains(in.Credentials, c) {
				p.Hidden = append(p.Hidden, filepath.Join(home, c))
			}
		}
	}
	for _, h := range in.Hidden {
		if h = clean(h); h != "" {
			p.Hidden = append(p.Hidden, h)
		}
	}
	if in.Scope == Approved && len(in.Unlock) > 0 {
		p.ReadOnly, p.Make = approvedOnly(p.ReadOnly, in.Unlock), approvedOnly(p.Make, in.Unlock)
	}
	// Landlock restricts writing a file's content and the folders'
	// entries, not its mode, owner, times or extended attributes, and
	// cannot take a right away below a tree that has it (a home under
	// /tmp): the home is kept whole, and so is a project a Read step
	// runs in.
	if home != "" && home != "/" && !wide {
		p.Kept = append(p.Kept, home)
	}
	if in.Scope == Read && root != "" && root != "/" {
		p.Kept = append(p.Kept, root)
	}
	p.Write = outermost(uniq(p.Write))
	p.ReadOnly = uniq(p.ReadOnly)
	p.Hidden = uniq(p.Hidden)
	p.Make = uniq(p.Make)
	p.Kept = uniq(p.Kept)
	p.Absent = uniq(p.Absent)
	return p
}

// shared are the folders of the home that hold many tools' files (what
// runs at the person's next login, editor or command among them) or the
// person's keys: a named write of one file in one does not open it
// whole (a yes to a line added to ~/.ssh/config is not one to replace
// the person's key beside it).
var shared = []string{".config", ".local", ".local/share", ".local/state", ".local/lib", ".cache", ".ssh", ".gnupg"}

// written is what an Approved step may write for a place the decision
// read as written or deleted: a folder whole; a file, or a path still to
// be made, through the folder it lies in, so that a write by rename (git
// config, sed -i) or a removal works. A folder too wide to open for one
// file — /, the home or a folder above it, a system folder, one of the
// home's shared folders — is not opened: the file alone is written in
// place, when it exists, and nothing is made there.
func written(t, home string) []string {
	if t = clean(t); t == "" {
		return nil
	}
	fi, err := os.Stat(t)
	if err == nil && fi.IsDir() {
		if tooWide(t, home) {
			return nil
		}
		return []string{t}
	}
	d := filepath.Dir(t)
	if err != nil {
		// A path still to be made (git clone into ~/src/new/x): the
		// nearest folder above it that exists.
		for !exists(d) && d != "/" {
			d = filepath.Dir(d)
		}
	}
	if !tooWide(d, home) {
		return []string{d}
	}
	if err == nil {
		return []string{t}
	}
	return nil
}

// tooWide reports whether folder d is one a named write never opens
// whole (see written).
func tooWide(d, home string) bool {
	if d == "/" || home != "" && (d == home || strings.HasPrefix(home, d+"/")) {
		return true
	}
	for _, s := range systemDirs {
		if d == s || strings.HasPrefix(d, s+"/") {
			return true
		}
	}
	for _, s := range shared {
		if home != "" && d == filepath.Join(home, s) {
			return true
		}
	}
	return false
}

// outermost is write without the trees that lie inside another of its
// trees: the mounts keep a writable tree inside the home by binding it
// over itself again, and a tree bound inside another could then not be
// removed or renamed (an approved rm -rf build/ in the project). The
// temp folders and devices, which the home may lie in, do not count.
func outermost(write []string) []string {
	var outer []string
	for _, w := range write {
		if !slices.Contains(tempDirs, w) && !slices.Contains(devices, w) {
			outer = append(outer, w)
		}
	}
	return slices.DeleteFunc(write, func(w string) bool {
		for _, o := range outer {
			if o != w && (o == "/" || strings.HasPrefix(w, o+"/")) {
				return true
			}
		}
		return false
	})
}

// clean is an absolute path made clean, or "" for any other text.
func clean(p string) string {
	if p == "" || !filepath.IsAbs(p) || strings.ContainsRune(p, 0) {
		return ""
	}
	return filepath.Clean(p)
}

func uniq(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// under reports whether path is one of roots or below one.
func under(path string, roots []string) bool {
	for _, r := range roots {
		if r == "/" || path == r || strings.HasPrefix(path, r+"/") {
			return true
		}
	}
	return false
}

// unlocked is list without the entries that are, or hold, a path the
// person approved writing.
func unlocked(list, approved []string) []string {
	return without(list, approved, func(x, a string) bool { return a == x || strings.HasPrefix(a, x+"/") })
}

// without is list without the entries x for which drop(x, a) holds for
// one of the approved paths a (clean and absolute).
func without(list, approved []string, drop func(x, a string) bool) []string {
	var out []string
	for _, x := range list {
		keep := true
		for _, a := range approved {
			if a = clean(a); a != "" && drop(x, a) {
				keep = false
			}
		}
		if keep {
			out = append(out, x)
		}
	}
	return out
}

// approvedOnly is list without the entries that are a path the person
// approved writing, or lie inside one. A read-only folder that holds an
// approved path stays read-only: the rest of it (a client's agents and
// commands beside its instructions, other units beside one) is not what the
// person approved, and the wall binds no file writable inside a read-only
// folder, so that write fails.
func approvedOnly(list, approved []string) []string {
	return without(list, approved, func(x, a string) bool { return a == x || strings.HasPrefix(x, a+"/") })
}

// keptState are, in a tool's state folder, what names a program, an
// extension or a setting the tool runs or trusts at the person's next
// command: read-only in the wall. Folders are made when missing; a
// missing file is one the step could create, so its folder is then not
// granted at all.
var keptState = map[string]struct{ files, dirs []string }{
	".config/gh":     {files: []string{"config.yml", "hosts.yml"}},
	".azure":         {files: []string{"config"}, dirs: []string{"cliextensions"}},
	".config/gcloud": {files: []string{"active_config"}, dirs: []string{"configurations", "virtenv"}},
}

// stateKept is what of state folder d (relative to home) stays read-only
// and which folders are made for it; false when d is not to be granted.
func stateKept(home, d string) (ro, mk []string, ok bool) {
	k := keptState[d]
	for _, f := range k.files {
		p := filepath.Join(home, d, f)
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			return nil, nil, false
		}
		ro = append(ro, p)
	}
	for _, f := range k.dirs {
		p := filepath.Join(home, d, f)
		ro = append(ro, p)
		mk = append(mk, p)
	}
	// gcloud keeps legacy settings beside its configurations.
	if p := filepath.Join(home, d, "properties"); d == ".config/gcloud" && isRegular(p) {
		ro = append(ro, p)
	}
	return ro, mk, true
}

func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func isRegular(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// sessionID reports whether s may name a client's session on the
// launcher's command line: printable, no spaces, not too long.
func sessionID(s string) bool {
	if len(s) > 200 {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			return false
		}
	}
	return true
}
