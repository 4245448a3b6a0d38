package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// Plan is what a shell step that goes through may reach once walled
// (DESIGN §13): the core decides it with the decision, the diagnostic
// explains it (Why), and the wall carries it out — package hook turns it
// into the launcher's profile and decides nothing of its own. The zero
// value walls nothing: a denied step, a step that is not the shell's, or
// one the person let run outside the wall (Outside).
type Plan struct {
	// Reach is how far the step writes: the project, or wide on the
	// person's say-so or autopilot; none runs nothing walled.
	Reach Reach `json:"reach"`
	// Outside reports a step that gains root privilege on the person's
	// say-so for exactly it: it runs as approved, outside the wall, where
	// its setuid program works.
	Outside   bool     `json:"outside,omitempty"`
	Root      string   `json:"root,omitempty"`      // the project it writes
	Worktrees []string `json:"worktrees,omitempty"` // the repository's other work trees, written as the project
	// Daemons: the machine's daemons (the container engines, systemd,
	// the buses), for a step made only of their clients.
	Daemons bool `json:"daemons,omitempty"`
	// GitConfig: the project's repository configuration, for a step made
	// only of git commands that write their own keys there.
	GitConfig bool     `json:"git_config,omitempty"`
	State     []string `json:"state,omitempty"`  // the folders of the home the step's tools keep their own state in (relative to the home)
	Unlock    []string `json:"unlock,omitempty"` // the protected paths the person's say-so lets a wide step write
	Writes    []string `json:"writes,omitempty"` // the places the decision read as written: a wide step writes them
	Widen     []string `json:"widen,omitempty"`  // the folders the person's policy lets every wide step write
	// Credentials are the person's credentials the step's tools need
	// (relative to the home); Secrets is every credential: the person
	// said yes to this step.
	Credentials []string `json:"credentials,omitempty"`
	Secrets     bool     `json:"secrets,omitempty"`
	// Hosts are the hosts its traffic may reach through the wall's proxy;
	// HostNetwork is the machine's network, which goes with a credential.
	Hosts       []string `json:"hosts,omitempty"`
	HostNetwork bool     `json:"host_network,omitempty"`
	Hidden      []string `json:"hidden,omitempty"` // the policy's protected paths: hidden whatever the person said
	// Same are the files that say what it runs, with their SHA-256 when
	// decided: the person's yes is to that.
	Same map[string]string `json:"same,omitempty"`
	// Why explains what the plan grants and withholds.
	Why []string `json:"why,omitempty"`
}

// PlanOf is the plan of the step req asks about, decided d with diag.
// Evaluate sets it in the diagnostic; whoever changes the decision after
// Evaluate — the person's answer on the step's card — asks for it again.
// An ask gets the plan of the person's yes in the client's own dialog.
func PlanOf(d Decision, diag *Diagnostic, req *Request) Plan {
	if d == Deny {
		return Plan{}
	}
	if outsideWall(d, diag, req.Dialog) {
		return Plan{Outside: true, Why: []string{"it gains root privilege on the person's say-so for exactly this step: it runs as approved, outside the wall, where no setuid program works"}}
	}
	reach := diag.Reach
	if d == Ask && reach == ReachNone {
		reach = ReachWide // what the person lets through still runs walled
	}
	if reach == ReachNone {
		return Plan{}
	}
	p := grants(diag, reach, d == Ask && req.Dialog)
	p.Root, p.Worktrees = req.Context.Root, req.Context.Roots
	if !req.Wall.On {
		p.Why = append(p.Why, "there is no wall here ("+wallWhy(req.Wall)+"): it runs unwalled")
	}
	p.Why = append(p.Why, "walled, it writes "+reachWords[reach])
	script := diag.Assessment.Script
	dir := req.Dir
	if dir == "" {
		dir = req.Context.Cwd
	}
	if len(p.Credentials) > 0 && usesGit(script) && (path.Clean(dir) != p.Root || !req.Project.GitFolder) {
		// In a folder below the root, or where .git is a file naming a
		// folder elsewhere, git may use a repository the step wrote and
		// run what its configuration names (core.fsmonitor).
		p.Credentials = nil
		p.Why = append(p.Why, "git's credentials are withheld: git may use a repository other than the project's own here")
	}
	if (p.GitConfig || len(p.Credentials) > 0 && usesGit(script)) && !req.Project.NoHooks {
		// A hook runs the project's code, which would then write the
		// configuration git reads at the person's next command, or read
		// the keys git was handed.
		p.GitConfig, p.Credentials = false, nil
		p.Why = append(p.Why, "the repository's configuration and git's credentials are withheld: a git hook may run the project's code here")
	}
	if p.GitConfig {
		p.Why = append(p.Why, "it may write the repository's configuration: it is made only of git commands that write their own keys there")
	}
	if p.Daemons {
		p.Why = append(p.Why, "it may reach the machine's daemons: it is made only of their clients")
	}
	// The machine's network goes with a credential: to a step granted one,
	// and to a step the person said yes to made only of the programs that
	// need one (a push over ssh), whose programs reach what the decision
	// read on their command line. Any other step's traffic leaves only
	// through the wall's proxy, to the hosts the decision let it reach.
	p.HostNetwork = len(p.Credentials) > 0 || p.Secrets && len(toolCredentials(script)) > 0
	switch {
	case len(p.Credentials) > 0:
		p.Why = append(p.Why, "its tools get the credentials they need ("+strings.Join(p.Credentials, ", ")+"), and the machine's network with them")
	case p.Secrets:
		p.Why = append(p.Why, "the person said yes to this step: it may read their credentials")
	}
	return p
}

var reachWords = [...]string{ReachProject: "only in the project, the temporary folder and the build caches", ReachWide: "in the project and the places the decision read it writing, never sayso's own folders or the clients' settings"}

// grants is what the decided step may reach at reach (shown: the
// client's own dialog shows the person this step): the daemons when it is
// made only of their clients; the repository's configuration when it is
// made only of git commands that write their own keys there; what the
// person approved it to write when it runs wide.
func grants(diag *Diagnostic, reach Reach, shown bool) Plan {
	script := diag.Assessment.Script
	p := Plan{Reach: reach, Daemons: reachesDaemons(script), State: toolState(script), Credentials: toolCredentials(script),
		Hosts: diag.Hosts, Hidden: diag.ProtectedPaths}
	p.GitConfig = len(diag.Assessment.GitConfig) > 0 && onlyGit(script)
	if reach == ReachWide {
		// What the decision let through wide writes where it read the
		// step writing, beside the project: nothing else, whatever code
		// of the project's it runs.
		p.Writes = approvedWrites(diag.Assessment)
		p.Widen = diag.ApprovedWrites
	}
	if reach == ReachWide && (diag.Answered || shown) {
		// Only the person's answer to this step unlocks: what the mode
		// lets through (autopilot, the autonomy wildcard, an allow entry,
		// a kept rule, the reviewer), a lease for one action beside it,
		// or an ask the client answers without them (bypassPermissions,
		// its classifier), no one saw.
		p.Unlock = approvedWrites(diag.Assessment)
		p.Secrets = true
		p.Hosts = append(slices.Clone(p.Hosts), risk.HostsNamed(script)...)
		p.Same = diag.Seen
	}
	return p
}

// toolState are the folders of the home where the tools of a step keep
// their own state (gcloud's logs and token cache), when the step is made
// only of such tools and of programs that only read, seen whole, with no
// assignment: gcloud fails without them, and none of these runs code of
// the project's or of the step's that could write there instead.
func toolState(script *shell.Script) []string { return ofTools(script, program.State) }

// toolCredentials are the person's credentials the tools of a step need
// for their own work (git's keys to fetch, gh's token), on the same terms:
// none of these runs code of the project's or of the step's that could
// read them instead. (A git step in a repository where a hook could run
// gets none: see PlanOf.)
func toolCredentials(script *shell.Script) []string {
	out := ofTools(script, program.Credentials)
	if len(out) == 0 || namesOtherCode(script) {
		return nil
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// namesOtherCode reports whether a segment of the step points its tool at
// something the step may have written, which the tool then runs: git run
// with any global option before its verb (-C, -c, --git-dir, --work-tree:
// another repository, whose configuration runs its core.fsmonitor), a
// kubeconfig given on the command line (its users' exec plugins), helm's
// post-renderer.
func namesOtherCode(script *shell.Script) bool {
	for i := range script.Segments {
		seg := &script.Segments[i]
		name := seg.Name()
		for j, w := range seg.Args[1:] {
			v := w.Value
			switch {
			case name == "git" && j == 0 && strings.HasPrefix(v, "-"):
				return true
			case (name == "kubectl" || name == "helm") && (strings.HasPrefix(v, "--kubeconfig") || strings.HasPrefix(v, "--post-renderer")):
				return true
			}
		}
	}
	return false
}

// ofTools is what of gives for each program of a step made only of
// programs it gives something for and of programs that only read, seen
// whole, with no assignment; nil for any other step.
func ofTools(script *shell.Script, of func(name string) []string) []string {
	if script == nil || len(script.Segments) == 0 {
		return nil
	}
	var out []string
	for i := range script.Segments {
		seg := &script.Segments[i]
		if !whole(seg) || len(seg.Assigns) > 0 {
			return nil
		}
		name := seg.Name()
		switch got := of(name); {
		case len(got) > 0:
			out = append(out, got...)
		case program.Is(name, program.Looks):
		default:
			return nil
		}
	}
	return out
}

// whole reports whether sayso reads the segment whole: nothing opaque in
// it, no wrapper and nothing it runs through.
func whole(seg *shell.Segment) bool {
	return len(seg.Opaque) == 0 && len(seg.Wrappers) == 0 && len(seg.Via) == 0
}

// usesGit reports whether a segment of the step runs git.
func usesGit(script *shell.Script) bool {
	if script == nil {
		return false
	}
	for i := range script.Segments {
		if script.Segments[i].Name() == "git" {
			return true
		}
	}
	return false
}

// onlyGit reports whether every segment of the step is git, seen whole.
func onlyGit(script *shell.Script) bool {
	return every(script, func(seg *shell.Segment) bool { return seg.Name() == "git" && len(seg.Assigns) == 0 })
}

// daemonClients are the programs whose whole job is to ask a daemon: a
// step made only of them, each judged by its own table (a compose step by
// the compose files the decision read), may reach the daemons. A daemon
// runs what it is asked outside any wall, so a step that runs anything
// else — the project's code above all — may not.
var daemonClients = map[string]bool{
	"docker": true, "docker-compose": true, "podman": true, "podman-compose": true, "nerdctl": true,
	"systemctl": true, "journalctl": true, "busctl": true, "loginctl": true,
}

// reachesDaemons reports whether every segment of the decided step is a
// daemon's client, seen whole.
func reachesDaemons(script *shell.Script) bool {
	return every(script, func(seg *shell.Segment) bool { return daemonClients[seg.Name()] })
}

// every reports whether the step has segments and every one is read
// whole and is what ok says.
func every(script *shell.Script, ok func(*shell.Segment) bool) bool {
	if script == nil || len(script.Segments) == 0 {
		return false
	}
	for i := range script.Segments {
		if seg := &script.Segments[i]; !whole(seg) || !ok(seg) {
			return false
		}
	}
	return true
}

// approvedWrites are the paths a step let through wide names as written
// or deleted — their instruction files or settings, what the system or
// ssh start (~/.ssh/config), their credentials (npm login's ~/.npmrc), a
// tool's settings (gcloud's configurations), an install's folder: the
// wall lets the step write those (Plan.Writes), and, on the person's
// say-so, those it keeps read-only (Plan.Unlock). What the step only runs
// is not among them.
func approvedWrites(a risk.Assessment) []string {
	var out []string
	for _, p := range a.Paths {
		if (p.Op == risk.OpWrite || p.Op == risk.OpDelete) && p.Path != "" {
			out = append(out, p.Path)
		}
	}
	return out
}

// outsideWall reports a step that gains root privilege (sudo, doas, a
// setuid program) on the person's say-so for exactly it: asked where the
// client's own dialog shows the person this command (dialog: an attended
// terminal in a mode that asks, not a bypass or the client's classifier),
// or allowed by the person on the page; let through by a lease, it is
// that one command alone. It runs as approved, outside the wall: inside,
// no_new_privs and the user namespace make every setuid program fail, so
// the wall would turn the person's yes into an error. Anything else in a
// leased step keeps the whole step walled, and so does the reviewer's
// waiver.
func outsideWall(d Decision, diag *Diagnostic, dialog bool) bool {
	a := &diag.Assessment
	if !a.Classes.Has(risk.Privilege) || a.Script == nil {
		return false
	}
	// The reviewer waiving the ceiling is not the person's say-so: what it
	// lets through runs walled, where sudo fails.
	return d == Ask && dialog || d == Allow && (diag.Answered || diag.Lease != "" && leasedAlone(a))
}

// leasedAlone reports a leased step that is one command run through the
// system's sudo and nothing of the project's: a script, a build or
// anything else the engine finds writing (local-write) or cannot see
// (opaque) is what the mode lets through, and it runs walled.
func leasedAlone(a *risk.Assessment) bool {
	return len(a.Script.Segments) == 1 && systemWrappers(&a.Script.Segments[0]) && !a.Classes.Has(risk.LocalWrite) && !a.Classes.Has(risk.Opaque)
}

// systemWrappers reports whether every wrapper of seg (sudo, doas) is
// named as the system's: by its bare name or from a system folder. A
// sudo named by another path (./bin/sudo, ~/bin/sudo) is a program the
// agent could have written; a lease for privilege does not carry it
// outside the wall.
func systemWrappers(seg *shell.Segment) bool {
	if len(seg.WrapperWords) != len(seg.Wrappers) {
		return false
	}
	for _, w := range seg.WrapperWords {
		if !strings.Contains(w, "/") {
			continue
		}
		ok := false
		for _, d := range []string{"/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/usr/local/bin/", "/usr/local/sbin/", "/run/wrappers/bin/"} {
			if strings.HasPrefix(w, d) && !strings.Contains(w[len(d):], "/") && !strings.Contains(w, "/../") {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
