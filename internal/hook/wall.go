package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
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

// Wrap returns the command line that runs the shell step s inside the
// wall as the decision's plan says (policy.Plan): the wall carries it out
// and decides nothing of its own. False when there is nothing to wrap or
// no wall to wrap it in.
func (w Walls) Wrap(s Step, plan policy.Plan) (string, bool) {
	if s.Kind != KindShell || s.Command == "" || plan.Reach == policy.ReachNone || !w.State().On {
		return "", false
	}
	scope := wall.Local
	if plan.Reach == policy.ReachWide {
		scope = wall.Approved
	}
	// A step let through wide runs in a wall of its own: what it leaves
	// running would keep its reach in the session's.
	session := w.SessionSocket(s.Agent, s.Session)
	if scope == wall.Approved {
		session = ""
	}
	p := wall.For(wall.Inputs{Home: w.Home, Root: plan.Root, Worktrees: plan.Worktrees, Hidden: append(slices.Clone(w.Hidden), plan.Hidden...), Scope: scope,
		Daemons: plan.Daemons, GitConfig: plan.GitConfig, State: plan.State, Unlock: plan.Unlock, Writes: plan.Writes, Widen: plan.Widen,
		Credentials: plan.Credentials, Secrets: plan.Secrets, Hosts: plan.Hosts, HostNetwork: plan.HostNetwork,
		Session: session, Ledger: w.Ledger, SessionID: s.Session, PagePort: w.PagePort, Same: plan.Same})
	// The decision leaned on no more than Landlock: the launcher may fall
	// back to it where the client's sandbox forbids the rest.
	p.InClientSandbox = w.StateFor(s).Partial
	if c, ok := client.Of(s.Agent); ok && c.KeepsFolder {
		// The client's shell keeps the working folder a step leaves for
		// the next.
		return p.Wrap(s.Command, w.Launcher), true
	}
	return p.Line(s.Command, w.Launcher), true
}

// Unwrap returns the command a walled line runs, when command is exactly
// the line Wrap makes for some plan — as the client hands it back in a
// later event of the same step (a PermissionRequest after an ask). The
// decision is then about the command itself: the wall only narrows, so a
// line an agent wrote to look walled gains nothing either.
func (w Walls) Unwrap(s Step) (string, bool) {
	if s.Kind != KindShell || !w.State().On || !strings.Contains(s.Command, LauncherName) {
		return "", false
	}
	a, ok := w.Carried(s.Command)
	return a.Command, ok
}

// Carried is what a walled line hands the launcher — the command it runs
// and the profile its wall carries out — when line is exactly a line Wrap
// makes, whatever its profile: nothing runs around the launcher.
func (w Walls) Carried(line string) (wall.Args, bool) {
	args, ok := launcherArgs(line, w.Launcher)
	if !ok {
		return wall.Args{}, false
	}
	a, err := wall.ParseArgs(args)
	if err != nil || a.Check {
		return wall.Args{}, false
	}
	if a.Profile.Wrap(a.Command, w.Launcher) != line && a.Profile.Line(a.Command, w.Launcher) != line {
		return wall.Args{}, false
	}
	return a, true
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
