package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
	"github.com/sayso-dev/sayso/internal/wall"
)

// LauncherName is the wall's launcher, installed beside sayso.
const LauncherName = wall.LauncherName

// Walls is how the hook runs the shell steps it lets through inside
// sayso's wall (DESIGN §13): it rewrites the command so the client's shell
// runs it under the launcher, which can only narrow what the step may do.
// The zero value has no wall: the decision then lets only reading through
// by the mode.
type Walls struct {
	Launcher string   // the launcher's absolute path
	Home     string   // the person's home folder
	Hidden   []string // sayso's folders and binaries: no walled step reads or writes them
	Off      string   // why the wall cannot be applied here; "" when it can
	// Sessions is the folder of the sessions' walls (their holders'
	// sockets), in sayso's state folder: hidden from every wall. "" runs
	// each step in a wall of its own.
	Sessions string
	// Ledger is sayso serve's socket, where the wall reports the
	// connections it refuses.
	Ledger string
	// PagePort is the port sayso serve serves the person's page on: no
	// session's wall forwards a port of its own to it.
	PagePort int
}

// FindWalls finds the launcher beside the running binary and checks that
// it has been seen to set up its wall for this user on this kernel (a
// real run, remembered in sayso's state folder: wall.Verified). Where it
// has not, there is no wall, and Off says why: the card, doctor and
// status all read this.
func FindWalls(home string, hidden []string) Walls {
	return findWalls(home, hidden, false)
}

// CheckWalls is FindWalls with the launcher run for real again, its
// record replaced: sayso doctor and sayso install.
func CheckWalls(home string, hidden []string) Walls {
	return findWalls(home, hidden, true)
}

func findWalls(home string, hidden []string, fresh bool) Walls {
	w := Walls{Home: home, Hidden: hidden}
	launcher, err := wall.Launcher()
	if err != nil {
		w.Off = "no " + LauncherName + " beside sayso (" + err.Error() + "; install it with go install ./cmd/" + LauncherName + ")"
		return w
	}
	return WallsAt(launcher, home, hidden, fresh)
}

// WallsAt is the wall of the launcher at launcher, when it has been seen
// to work here (see FindWalls).
func WallsAt(launcher, home string, hidden []string, fresh bool) Walls {
	w := Walls{Home: home, Hidden: hidden}
	state, err := paths.StateDir()
	if err != nil {
		w.Off = err.Error()
		return w
	}
	if err := wall.Verified(launcher, filepath.Join(state, wall.SeenFile), fresh); err != nil {
		w.Off = err.Error()
		return w
	}
	w.Launcher = launcher
	w.Sessions = filepath.Join(state, "walls")
	w.Ledger = filepath.Join(state, paths.SocketName)
	return w
}

// SessionSocket is the socket of the holder of the session's wall, or ""
// when steps run in walls of their own.
func (w Walls) SessionSocket(agent, session string) string {
	if w.Sessions == "" || session == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(agent + "\x00" + session))
	return filepath.Join(w.Sessions, hex.EncodeToString(sum[:10])+".sock")
}

// EndSession ends the session's wall: every process its steps left
// running ends with it.
func (w Walls) EndSession(agent, session string) error {
	if sock := w.SessionSocket(agent, session); sock != "" {
		return wall.EndSession(sock)
	}
	return nil
}

// State is what the decision is told about the wall.
func (w Walls) State() policy.Wall {
	if w.Off != "" || w.Launcher == "" {
		why := w.Off
		if why == "" {
			why = "no launcher is set up"
		}
		return policy.Wall{Why: why}
	}
	return policy.Wall{On: true}
}

// Wrap returns the command line that runs the shell step s inside the wall,
// writing as far as reach lets it; false when there is nothing to wrap or
// no wall to wrap it in.
func (w Walls) Wrap(s Step, reach policy.Reach) (string, bool) {
	return w.wrap(s, reach, access{})
}

// access is what a wall lets a step reach beyond its reach.
type access struct {
	daemons   bool              // the machine's daemons: the container engines, systemd, the buses
	gitConfig bool              // the project's repository configuration
	state     []string          // the folders of the home the step's tools keep their own state in
	unlock    []string          // the protected paths the person's say-so lets a wide step write
	writes    []string          // the places the decision read as written: a wide step writes them
	widen     []string          // the folders the person's policy lets every wide step write
	creds     []string          // the person's credentials the step's tools need (relative to the home)
	secrets   bool              // every credential: the person said yes to this step
	hosts     []string          // the hosts its traffic may reach through the wall's proxy
	hidden    []string          // the policy's protected paths: hidden whatever the person said
	same      map[string]string // what it runs, as it was decided: the person's yes is to that
	known     bool              // made only of programs sayso knows that need a credential
	script    *shell.Script
}

// accessOf is what the decided step may reach beyond its reach (shown:
// the client's own dialog shows the person this step): the
// daemons when it is made only of their clients; the repository's
// configuration when it is made only of git commands that write their own
// keys there; what the person approved it to write when it runs wide.
func accessOf(diag *policy.Diagnostic, reach policy.Reach, shown bool) access {
	a := access{daemons: reachesDaemons(diag.Assessment.Script), script: diag.Assessment.Script}
	a.gitConfig = len(diag.Assessment.GitConfig) > 0 && onlyGit(diag.Assessment.Script)
	a.state = toolState(diag.Assessment.Script)
	a.creds = toolCredentials(diag.Assessment.Script)
	a.known = len(a.creds) > 0
	a.hosts = diag.Hosts
	a.hidden = diag.ProtectedPaths
	if reach == policy.ReachWide {
		// What the decision let through wide writes where it read the
		// step writing, beside the project: nothing else, whatever code
		// of the project's it runs.
		a.writes = approvedWrites(diag.Assessment)
		a.widen = diag.ApprovedWrites
	}
	if reach == policy.ReachWide && (diag.Answered || shown) {
		// Only the person's answer to this step unlocks: what the mode
		// lets through (autopilot, the autonomy wildcard, an allow entry,
		// a kept rule, the reviewer), a lease for one action beside it,
		// or an ask the client answers without them (bypassPermissions,
		// its classifier), no one saw.
		a.unlock = approvedWrites(diag.Assessment)
		a.secrets = true
		a.hosts = append(slices.Clone(a.hosts), risk.HostsNamed(diag.Assessment.Script)...)
		a.same = diag.Seen
	}
	return a
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
// gets none: see wrap.)
func toolCredentials(script *shell.Script) []string {
	out := ofTools(script, program.Credentials)
	if len(out) == 0 || namesOtherCode(script) {
		return nil
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// isGitDir reports whether p is a folder, not a link or a .git file.
func isGitDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
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
		if len(seg.Opaque) > 0 || len(seg.Wrappers) > 0 || len(seg.Via) > 0 || len(seg.Assigns) > 0 {
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
	if script == nil || len(script.Segments) == 0 {
		return false
	}
	for i := range script.Segments {
		seg := &script.Segments[i]
		if len(seg.Opaque) > 0 || len(seg.Wrappers) > 0 || len(seg.Via) > 0 || seg.Name() != "git" || len(seg.Assigns) > 0 {
			return false
		}
	}
	return true
}

// wrap is Wrap, with what the step may reach beyond its reach.
func (w Walls) wrap(s Step, reach policy.Reach, x access) (string, bool) {
	if s.Kind != KindShell || s.Command == "" || reach == policy.ReachNone || !w.State().On {
		return "", false
	}
	scope := wall.Local
	if reach == policy.ReachWide {
		scope = wall.Approved
	}
	root := paths.ProjectRoot(s.Project())
	if len(x.creds) > 0 && usesGit(x.script) && (filepath.Clean(s.Cwd) != root || !isGitDir(filepath.Join(root, ".git"))) {
		// In a folder below the root, or where .git is a file naming a
		// folder elsewhere, git may use a repository the step wrote and
		// run what its configuration names (core.fsmonitor).
		x.creds = nil
	}
	if (x.gitConfig || len(x.creds) > 0 && usesGit(x.script)) && wall.RunsHooks(root, w.Home) {
		// A hook runs the project's code, which would then write the
		// configuration git reads at the person's next command, or read
		// the keys git was handed.
		x.gitConfig, x.creds = false, nil
	}
	// The machine's network goes with a credential: to a step granted one,
	// and to a step the person said yes to made only of the programs that
	// need one (a push over ssh), whose programs reach what the decision
	// read on their command line. Any other step's traffic leaves only
	// through the wall's proxy, to the hosts the decision let it reach.
	hostNet := len(x.creds) > 0 || x.secrets && x.known
	// A step let through wide runs in a wall of its own: what it leaves
	// running would keep its reach in the session's.
	session := w.SessionSocket(s.Agent, s.Session)
	if scope == wall.Approved {
		session = ""
	}
	inClient := w.StateFor(s).Partial
	p := wall.For(wall.Inputs{Home: w.Home, Root: root, Worktrees: paths.Worktrees(root), Hidden: append(slices.Clone(w.Hidden), x.hidden...), Scope: scope, Daemons: x.daemons, GitConfig: x.gitConfig,
		State: x.state, Unlock: x.unlock, Writes: x.writes, Widen: x.widen, Credentials: x.creds, Secrets: x.secrets,
		Hosts: x.hosts, HostNetwork: hostNet, Session: session, Ledger: w.Ledger, SessionID: s.Session, PagePort: w.PagePort, Same: x.same})
	// The decision leaned on no more than Landlock: the launcher may fall
	// back to it where the client's sandbox forbids the rest.
	p.InClientSandbox = inClient
	if s.Agent == "claude" {
		// Claude Code keeps the working folder a step leaves for the next.
		return p.Wrap(s.Command, w.Launcher), true
	}
	return p.Line(s.Command, w.Launcher), true
}

// daemonClients are the programs whose whole job is to ask a daemon: a
// step made only of them, each judged by its own table (a compose step by
// the compose files the decision read), may reach the daemons. A daemon runs what it is asked outside any wall, so a step
// that runs anything else — the project's code above all — may not.
var daemonClients = map[string]bool{
	"docker": true, "docker-compose": true, "podman": true, "podman-compose": true, "nerdctl": true,
	"systemctl": true, "journalctl": true, "busctl": true, "loginctl": true,
}

// reachesDaemons reports whether every segment of the decided step is a
// daemon's client, seen whole.
func reachesDaemons(script *shell.Script) bool {
	if script == nil || len(script.Segments) == 0 {
		return false
	}
	for i := range script.Segments {
		seg := &script.Segments[i]
		if len(seg.Opaque) > 0 || len(seg.Wrappers) > 0 || len(seg.Via) > 0 || !daemonClients[seg.Name()] {
			return false
		}
	}
	return true
}

// approvedWrites are the paths a step let through wide names as written
// or deleted — their instruction files or settings, what the system or
// ssh start (~/.ssh/config), their credentials (npm login's ~/.npmrc), a
// tool's settings (gcloud's configurations), an install's folder: the
// wall lets the step write those (wall.Inputs.Writes), and, on the
// person's say-so, those it keeps read-only (wall.Inputs.Unlock). What
// the step only runs is not among them.
func approvedWrites(a risk.Assessment) []string {
	var out []string
	for _, p := range a.Paths {
		if (p.Op == risk.OpWrite || p.Op == risk.OpDelete) && p.Path != "" {
			out = append(out, p.Path)
		}
	}
	return out
}

// Unwrap returns the command a walled line runs, when command is exactly
// the line Wrap makes for some reach — as the client hands it back in a
// later event of the same step (a PermissionRequest after an ask). The
// decision is then about the command itself: the wall only narrows, so a
// line an agent wrote to look walled gains nothing either.
func (w Walls) Unwrap(s Step) (string, bool) {
	if s.Kind != KindShell || !w.State().On || !strings.Contains(s.Command, LauncherName) {
		return "", false
	}
	args, ok := launcherArgs(s.Command, w.Launcher)
	if !ok {
		return "", false
	}
	a, err := wall.ParseArgs(args)
	if err != nil || a.Check {
		return "", false
	}
	// Exactly a line the hook makes, whatever its profile: nothing runs
	// around the launcher.
	if a.Profile.Wrap(a.Command, w.Launcher) == s.Command || a.Profile.Line(a.Command, w.Launcher) == s.Command {
		return a.Command, true
	}
	return "", false
}

// launcherArgs are the arguments the line hands the launcher: the words
// after it in the one segment that runs it, without --report-fd.
func launcherArgs(line, launcher string) ([]string, bool) {
	script := shell.Parse(line)
	for _, seg := range script.Segments {
		if len(seg.Args) == 0 || !seg.Args[0].Literal || seg.Args[0].Value != launcher {
			continue
		}
		var out []string
		for _, a := range seg.Args[1:] {
			if !a.Literal {
				return nil, false
			}
			out = append(out, a.Value)
		}
		return out, true
	}
	return nil, false
}

// withCommand is the tool input JSON with its command replaced.
func withCommand(raw json.RawMessage, command string) json.RawMessage {
	in := map[string]any{}
	if len(raw) > 0 && json.Unmarshal(raw, &in) != nil {
		in = map[string]any{}
	}
	in["command"] = command
	b, err := json.Marshal(in)
	if err != nil {
		return raw
	}
	return b
}

// walledInput is the tool input with its command replaced by the walled
// one, every other field kept; nil when the step is not walled.
func walledInput(s *Step) map[string]any {
	if s == nil || s.Walled == "" {
		return nil
	}
	in := map[string]any{}
	if len(s.Input) > 0 {
		if err := json.Unmarshal(s.Input, &in); err != nil {
			in = map[string]any{}
		}
	}
	in["command"] = s.Walled
	return in
}
