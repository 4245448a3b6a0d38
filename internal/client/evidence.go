package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sayso-dev/sayso/internal/atomicfile"
)

// Witness says whether what an event claims about the person can hold: it
// looks at the process that ran the hook, never at what that process was
// handed (its input, its environment). A nil Witness witnesses nothing:
// no message is the person's.
type Witness interface {
	// Open records that the client running the hook opened session: only
	// that client may later hand on the person's words in it.
	Open(agent, session string) error
	// Person returns nil when a message in session, opening turn, can be
	// the person's: the hook runs outside every wall, the client itself
	// started it, and the client opened the session; for Codex, the
	// client is its terminal UI and recorded the turn as typed there.
	Person(agent, session, turn string) error
}

// shells may stand between a client and its hook: the client runs the
// hook's command line with 'sh -c'.
var shells = []string{"sh", "dash", "bash", "zsh"}

// Procs is the Witness that reads the process tree in /proc.
type Procs struct {
	Proc string // the proc file system, "/proc"
	PID  int    // the hook's process: this one, or the peer on sayso's socket
	// Dir keeps which client opened which session; it is inside sayso's
	// state folder, out of every walled step's reach.
	Dir string
	// Binaries are sayso's own programs (the installed ones and the one
	// running): the only ones that may run the hook or stand between it
	// and the client.
	Binaries []string
	// Commands are the hook command lines sayso installed: a shell that
	// runs exactly one of them may stand between the client and the hook.
	Commands []string
	// Home is the person's home folder, the one the wall is built from:
	// Codex's folder must be its .codex, which no walled step writes.
	Home string
}

// errNoEvidence marks why an event is not the person's.
var errNoEvidence = errors.New("no person evidence")

func noEvidence(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errNoEvidence, fmt.Sprintf(format, args...))
}

// Open implements Witness.
func (p Procs) Open(agent, session string) error {
	_, id, err := p.client(agent)
	if err != nil {
		return err
	}
	if p.Dir == "" || session == "" {
		return noEvidence("nowhere to record the session")
	}
	if err := os.MkdirAll(p.Dir, 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(p.binding(agent, session), []byte(id+"\n"), 0o600)
}

// Person implements Witness.
func (p Procs) Person(agent, session, turn string) error {
	pid, id, err := p.client(agent)
	if err != nil {
		return err
	}
	if agent == "codex" {
		if err := p.codexTyped(pid, session, turn); err != nil {
			return err
		}
	}
	if p.Dir == "" || session == "" {
		return noEvidence("no record of the session")
	}
	b, err := os.ReadFile(p.binding(agent, session))
	if errors.Is(err, fs.ErrNotExist) {
		return noEvidence("the %s client did not open session %s", agent, session)
	}
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(b)) != id {
		return noEvidence("session %s was opened by another %s process", session, agent)
	}
	return nil
}

func (p Procs) binding(agent, session string) string {
	return filepath.Join(p.Dir, sum([]byte(agent + "\x00" + session))[:32])
}

// client finds the client process that started the hook and returns its
// pid and its id, "pid:start", or why the hook cannot speak for the
// person: it runs inside a wall, something other than the client started
// it, or the client itself runs inside another client's step.
func (p Procs) client(agent string) (int, string, error) {
	c, _ := Of(agent)
	names := c.Programs
	if len(names) == 0 {
		return 0, "", noEvidence("unknown agent %q", agent)
	}
	pid := p.PID
	for hop := 0; ; hop++ {
		if hop > 8 || pid <= 1 {
			return 0, "", noEvidence("no %s client above the hook", agent)
		}
		st, err := p.status(pid)
		if err != nil {
			return 0, "", err
		}
		if err := st.walled(); err != nil {
			return 0, "", err
		}
		exe, _ := os.Readlink(p.path(pid, "exe"))
		switch {
		case hop == 0:
			if !p.sayso(exe) {
				return 0, "", noEvidence("the hook is %s, not sayso", exe)
			}
		case slices.Contains(names, filepath.Base(exe)):
			if err := p.nested(st.ppid); err != nil {
				return 0, "", err
			}
			return pid, strconv.Itoa(pid) + ":" + st.start, nil
		case p.sayso(exe):
		case slices.Contains(shells, filepath.Base(exe)) && p.runsHook(pid):
		default:
			return 0, "", noEvidence("the hook was started by %s, not by the %s client", filepath.Base(exe), agent)
		}
		pid = st.ppid
	}
}

// clientBinaries are the clients' own native programs: a process above
// the client that is one of them is another client. node and bun are not
// among them: editors' servers and npx run the person's terminal below
// them.
// Each is its client's Command, or one of its Programs named like it
// (claude.exe).
var clientBinaries = func() []string {
	var out []string
	for _, c := range Clients {
		for _, p := range c.Programs {
			if p == c.Command || strings.HasPrefix(p, c.Command+".") {
				out = append(out, p)
			}
		}
	}
	return out
}()

// nested refuses a client that runs below another client: a step that
// started a client of its own.
func (p Procs) nested(pid int) error {
	for hop := 0; pid > 1 && hop < 64; hop++ {
		st, err := p.status(pid)
		if err != nil {
			return err
		}
		exe, _ := os.Readlink(p.path(pid, "exe"))
		if slices.Contains(clientBinaries, filepath.Base(exe)) {
			return noEvidence("the client runs inside a %s step", filepath.Base(exe))
		}
		pid = st.ppid
	}
	return nil
}

func (p Procs) sayso(exe string) bool {
	if exe == "" {
		return false
	}
	for _, b := range p.Binaries {
		if b == exe {
			return true
		}
		if real, err := filepath.EvalSymlinks(b); err == nil && real == exe {
			return true
		}
	}
	return false
}

// runsHook says whether pid is 'sh -c' running exactly a command line
// sayso installed.
func (p Procs) runsHook(pid int) bool {
	b, err := os.ReadFile(p.path(pid, "cmdline"))
	if err != nil {
		return false
	}
	argv := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	return len(argv) == 3 && argv[1] == "-c" && slices.Contains(p.Commands, argv[2])
}

func (p Procs) path(pid int, name string) string {
	proc := p.Proc
	if proc == "" {
		proc = "/proc"
	}
	return filepath.Join(proc, strconv.Itoa(pid), name)
}

// procStatus is what the checks read of one process.
type procStatus struct {
	ppid       int
	noNewPrivs string
	seccomp    string
	uidMap     string
	start      string // start time in clock ticks since boot
}

func (p Procs) status(pid int) (procStatus, error) {
	var st procStatus
	b, err := os.ReadFile(p.path(pid, "status"))
	if err != nil {
		return st, fmt.Errorf("%w: read process %d: %v", errNoEvidence, pid, err)
	}
	ppid := ""
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		switch k {
		case "PPid":
			ppid = v
		case "NoNewPrivs":
			st.noNewPrivs = v
		case "Seccomp":
			st.seccomp = v
		}
	}
	if st.ppid, err = strconv.Atoi(ppid); err != nil || st.noNewPrivs == "" || st.seccomp == "" {
		return st, noEvidence("cannot read the status of process %d", pid)
	}
	m, err := os.ReadFile(p.path(pid, "uid_map"))
	if err != nil {
		return st, noEvidence("cannot read the user namespace of process %d", pid)
	}
	st.uidMap = strings.Join(strings.Fields(string(m)), " ")
	s, err := os.ReadFile(p.path(pid, "stat"))
	if i := bytes.LastIndexByte(s, ')'); err == nil && i > 0 {
		// After the name: state, ppid, … starttime is field 22 of the
		// line, the 20th after the name.
		if f := strings.Fields(string(s[i+1:])); len(f) > 19 {
			st.start = f[19]
		}
	}
	if st.start == "" {
		return st, noEvidence("cannot read the start of process %d", pid)
	}
	return st, nil
}

// walled says why a process runs inside a wall: every walled step runs
// with no_new_privs (Landlock requires it of an unprivileged process), the
// clients' own sandboxes add a seccomp filter or a user namespace.
func (st procStatus) walled() error {
	switch {
	case st.noNewPrivs != "0":
		return noEvidence("the hook runs with no_new_privs, inside a wall")
	case st.seccomp != "0":
		return noEvidence("the hook runs under a seccomp filter, inside a sandbox")
	case st.uidMap != "0 0 4294967295":
		return noEvidence("the hook runs in a user namespace, inside a sandbox")
	}
	return nil
}

// NewProcs is the witness for the hook process pid, with what store says
// sayso installed and self, the running binary.
func NewProcs(pid int, state, self string, store PinStore) Procs {
	p := Procs{PID: pid, Dir: filepath.Join(state, "clients")}
	if self != "" {
		// the forwarder runs the sayso beside it, and sayso serve hears
		// both
		dir := filepath.Dir(self)
		p.Binaries = append(p.Binaries, self, filepath.Join(dir, "sayso"), filepath.Join(dir, "sayso-hook"))
	}
	pins, _ := store.Load()
	for _, pin := range pins {
		switch pin.Kind {
		case PinBinary:
			p.Binaries = append(p.Binaries, pin.Path)
		case PinDefinition:
			var g struct {
				Hooks []struct {
					Command string `json:"command"`
				} `json:"hooks"`
			}
			if json.Unmarshal(pin.Entry, &g) == nil {
				for _, h := range g.Hooks {
					p.Commands = append(p.Commands, h.Command)
				}
			}
		}
	}
	return p
}

// Attest holds the events' claims against the witness: a session is
// bound to the client that opened it, and a message is the person's only
// when the witness finds the client itself behind the hook.
func Attest(w Witness, events []Event) {
	for i := range events {
		e := &events[i]
		switch {
		case e.Kind == EventSession && w != nil:
			_ = w.Open(e.Agent, e.Session) // unwitnessed: no binding, so no person words
		case e.Kind == EventMessage && e.Source == SourcePerson:
			err := noEvidence("nothing witnesses the process that ran the hook")
			if w != nil {
				err = w.Person(e.Agent, e.Session, e.Turn)
			}
			if err != nil {
				e.Source, e.Why = SourceSystem, Short(err.Error(), 200)
			}
		}
	}
}
