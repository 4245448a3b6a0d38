package wall

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// starterArg marks a starter: a second stage set up once — mounts,
// Landlock, no capabilities — for the steps of one profile in a keeper's
// wall, which starts each of them from the thread that holds that wall.
// A step then costs a fork and bash, not namespaces and a few hundred
// mounts and rules.
const starterArg = "--sayso-wall-starter"

// maxStarters bounds the starters a keeper keeps: one per profile its
// steps ran with (read, local, a step with git's configuration …).
const maxStarters = 8

// A starter serves only the profile it was set up with, and only while
// the files it was set up over are the same files: a folder its mounts
// hide, bind or keep that appears, goes or is replaced since (a key
// file written, a configuration renamed over) makes a new one, as a
// step of its own would see it.

// starter is the keeper's side of a starter.
type starter struct {
	key   string // the profile, as the launcher's arguments say it
	print string // the files it was set up over (fingerprint)
	pid   int
	ctl   *net.UnixConn
	sendM sync.Mutex

	mu      sync.Mutex
	running map[int]int // the holder's id of a step → its pid, once started
	// early is a signal sent to a step before the starter said its pid.
	early    map[int]syscall.Signal
	retiring bool // replaced: it ends when its last step does
	gone     bool
	used     time.Time
}

// starterFor finds, or sets up, the starter for the step m asks the
// keeper to spawn; nil when the step is not one a starter runs (a check,
// bad arguments) or none can be had now.
func (k *keeper) starterFor(m msg) (*starter, Args) {
	argv := m.Argv
	if len(argv) < 5 || argv[1] != insideArg {
		return nil, Args{}
	}
	a, err := ParseArgs(argv[4:])
	if err != nil || a.Check {
		return nil, Args{}
	}
	dash := slices.Index(argv, "--")
	if dash < 0 {
		return nil, Args{}
	}
	key := strings.Join(argv[2:dash], "\x00")
	for _, v := range agentVars {
		key += "\x00" + envOf(m.Env, v)
	}
	print := fingerprint(a.Profile, agentsIn(func(v string) string { return envOf(m.Env, v) }))

	k.mu.Lock()
	if s := k.starters[key]; s != nil {
		s.mu.Lock()
		ok := !s.gone && !s.retiring && s.print == print
		if ok {
			s.used = time.Now()
		}
		s.mu.Unlock()
		if ok {
			k.mu.Unlock()
			return s, a
		}
		delete(k.starters, key)
		s.retire()
	}
	full := len(k.starters) >= maxStarters && !k.evictIdle()
	k.mu.Unlock()
	if full {
		return nil, Args{}
	}
	// Set up with no lock held: it takes as long as a step's own wall.
	s, err := startStarter(m, argv[2:], key, print)
	if err != nil {
		return nil, Args{}
	}
	go k.listenStarter(s)
	k.mu.Lock()
	defer k.mu.Unlock()
	if old := k.starters[key]; old != nil {
		// Another step set one up meanwhile: this one serves this step
		// alone.
		s.mu.Lock()
		s.retiring = true
		s.mu.Unlock()
		return s, a
	}
	k.starters[key] = s
	return s, a
}

// evictIdle ends the starter used longest ago that runs no step, and
// reports whether there was one. k.mu is held.
func (k *keeper) evictIdle() bool {
	var oldest *starter
	for _, s := range k.starters {
		s.mu.Lock()
		idle := len(s.running) == 0
		s.mu.Unlock()
		if idle && (oldest == nil || s.used.Before(oldest.used)) {
			oldest = s
		}
	}
	if oldest == nil {
		return false
	}
	delete(k.starters, oldest.key)
	oldest.retire()
	return true
}

// retire ends the starter when it runs no step, or when its last one
// ends: a step it started is its child, and would end unreported.
func (s *starter) retire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.retiring = true
	if len(s.running) == 0 {
		syscall.Kill(s.pid, syscall.SIGKILL)
	}
}

// startStarter starts a starter in a mount namespace of its own with the
// second stage's arguments args, and waits until its wall is set up.
func startStarter(m msg, args []string, key, print string) (*starter, error) {
	attr := &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS, Setsid: true}
	if os.Getuid() != 0 {
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_DAC_OVERRIDE}
	}
	// The starter keeps no secret of the step it was set up for; the ssh
	// agent's socket is named so that it is hidden.
	env := withoutSecrets(m.Env)
	if s := envOf(m.Env, "SSH_AUTH_SOCK"); s != "" {
		env = append(env, "SSH_AUTH_SOCK="+s)
	}
	pid, c, err := startChild(append([]string{LauncherName, starterArg}, args...), m.Dir, env, []int{-1, -1, 2, -1}, attr)
	if err != nil {
		return nil, err
	}
	s := &starter{key: key, print: print, pid: pid, ctl: c, running: map[int]int{}, early: map[int]syscall.Signal{}, used: time.Now()}
	r, fds, err := receive(s.ctl)
	closeAll(fds)
	if err != nil || r.Op != "ready" {
		s.ctl.Close()
		syscall.Kill(pid, syscall.SIGKILL)
		if r.Err != "" {
			return nil, errors.New(r.Err)
		}
		return nil, errors.New("the starter did not start")
	}
	return s, nil
}

// run hands the step with id its shell's arguments, environment, folder
// and descriptors (stdin, stdout, stderr, report).
func (s *starter) run(id int, a Args, m msg, fds []int) error {
	s.mu.Lock()
	if s.gone {
		s.mu.Unlock()
		return errors.New("the starter ended")
	}
	s.running[id] = 0
	s.mu.Unlock()
	s.sendM.Lock()
	err := send(s.ctl, msg{Op: "run", ID: id, Argv: shellArgv(a), Env: m.Env, Dir: m.Dir}, fds...)
	s.sendM.Unlock()
	if err != nil {
		s.mu.Lock()
		delete(s.running, id)
		s.mu.Unlock()
	}
	return err
}

// takeEarly is the signal sent to the step with id before it started,
// if any, which the starter no longer keeps.
func (s *starter) takeEarly(id int) syscall.Signal {
	s.mu.Lock()
	defer s.mu.Unlock()
	sig := s.early[id]
	delete(s.early, id)
	return sig
}

// signal sends sig to the step with id, and its process group, if the
// starter runs it.
func (s *starter) signal(id int, sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pid := s.running[id]
	switch {
	case pid > 0:
		syscall.Kill(-pid, sig)
		syscall.Kill(pid, sig)
	case s.early[id] == 0 || sig == syscall.SIGKILL:
		s.early[id] = sig
	}
}

// listenStarter passes on what the starter says of its steps; when it
// ends, the steps it ran end unreported, so they are reported failed.
func (k *keeper) listenStarter(s *starter) {
	for {
		m, fds, err := receive(s.ctl)
		closeAll(fds)
		if err != nil {
			break
		}
		s.mu.Lock()
		switch m.Op {
		case "started":
			if _, ok := s.running[m.ID]; ok && m.Status > 0 {
				s.running[m.ID] = m.Status
				if sig := s.early[m.ID]; sig != 0 {
					delete(s.early, m.ID)
					syscall.Kill(-m.Status, sig)
					syscall.Kill(m.Status, sig)
				}
			}
			s.mu.Unlock()
		case "exited":
			delete(s.running, m.ID)
			delete(s.early, m.ID)
			if s.retiring && len(s.running) == 0 {
				syscall.Kill(s.pid, syscall.SIGKILL)
			}
			s.mu.Unlock()
			k.forget(m.ID)
			k.send(msg{Op: "exited", ID: m.ID, Status: m.Status, Err: m.Err})
		default:
			s.mu.Unlock()
		}
	}
	s.ctl.Close()
	syscall.Kill(s.pid, syscall.SIGKILL)
	s.mu.Lock()
	s.gone = true
	ids := make([]int, 0, len(s.running))
	for id := range s.running {
		ids = append(ids, id)
	}
	clear(s.running)
	clear(s.early)
	s.mu.Unlock()
	k.mu.Lock()
	if k.starters[s.key] == s {
		delete(k.starters, s.key)
	}
	k.mu.Unlock()
	for _, id := range ids {
		k.forget(id)
		k.send(msg{Op: "exited", ID: id, Err: "the wall's starter ended while the step ran"})
	}
}

// forget drops the step with id from the steps starters run.
func (k *keeper) forget(id int) {
	k.mu.Lock()
	delete(k.ran, id)
	k.mu.Unlock()
}

// starterCount is how many starters the keeper holds: its children that
// are not the steps' or what they left.
func (k *keeper) starterCount() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.starters)
}

// fingerprint names the files a wall with profile p is set up over:
// each path its mounts and rules name, with the file it is now (or
// none), and the agents' sockets and folders it hides as the step's
// environment finds them (agentsIn: an ssh agent the person started
// since is hidden from the next step, as its own wall would hide it).
func fingerprint(p Profile, agents []string) string {
	h := sha256.New()
	var st unix.Stat_t
	b := make([]byte, 0, 512)
	for _, list := range [][]string{p.Write, p.ReadOnly, p.Hidden, p.Make, p.Kept, p.Overlay, p.Absent, agents} {
		for _, path := range list {
			b = append(b[:0], path...)
			if unix.Stat(path, &st) != nil {
				b = append(b, " -\n"...)
			} else {
				b = append(b, ' ')
				b = strconv.AppendUint(b, st.Dev, 10)
				b = append(b, ' ')
				b = strconv.AppendUint(b, st.Ino, 10)
				b = append(b, ' ')
				b = strconv.AppendUint(b, uint64(st.Mode&unix.S_IFMT), 8)
				b = append(b, '\n')
			}
			h.Write(b)
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// startProgram starts the step m as the one program its command is
// (programWords), with its stdin, stdout and stderr alone, and reports
// what the walled bash would have: that it ran, and its folder. An error
// means it did not start (a command bash must read, a program not found
// or not to be run here): the step then goes through bash, which says
// why in its own words.
func startProgram(m msg, env []string, fds []int) (int, error) {
	if len(m.Argv) != 5 || m.Argv[2] != inner || bashOwnEnv(env) {
		return 0, errors.New("not a program")
	}
	words, ok := programWords(m.Argv[4])
	if !ok {
		return 0, errors.New("not a program")
	}
	path, ok := lookProgram(words[0], m.Dir, env)
	if !ok {
		return 0, errors.New("no such program")
	}
	dir, ok := physical(m.Dir)
	if !ok {
		return 0, errors.New("no folder")
	}
	pid, err := syscall.ForkExec(path, words, &syscall.ProcAttr{
		Env:   programEnv(env, path),
		Dir:   m.Dir,
		Files: []uintptr{uintptr(fds[0]), uintptr(fds[1]), uintptr(fds[2])},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return 0, err
	}
	unix.Write(fds[3], []byte("rd"+dir+"\n"))
	return pid, nil
}

// envOf is the value of the variable name in env.
func envOf(env []string, name string) string {
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, name+"="); ok {
			return v
		}
	}
	return ""
}

// starterMain is the starter: it sets the wall up around itself as the
// second stage does, then starts each step its keeper hands it on
// descriptor 4 from the thread that holds the wall, and reports when each
// ends.
func starterMain(args []string, stderr io.Writer) int {
	f := os.NewFile(4, "control")
	conn, err := net.FileConn(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(stderr, "sayso-wall: starter: control socket: %v\n", err)
		return ExitSetup
	}
	c := conn.(*net.UnixConn)
	var sendM sync.Mutex
	say := func(m msg) {
		sendM.Lock()
		defer sendM.Unlock()
		send(c, m)
	}
	a, bash, err := enter(args)
	if err != nil {
		say(msg{Op: "failed", Err: err.Error()})
		return ExitSetup
	}
	// Its steps run as this user, in its Landlock domain: none may trace
	// it, read its memory or take its descriptors.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		say(msg{Op: "failed", Err: fmt.Sprintf("make the starter untraceable: %v", err)})
		return ExitSetup
	}
	say(msg{Op: "ready"})

	var mu sync.Mutex
	ids := map[int]int{}   // pid → the step's id
	early := map[int]int{} // pid → wait status, reaped before it was filed
	kids := make(chan struct{}, 1)
	go func() {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, 0, nil)
			if err == syscall.ECHILD {
				<-kids
				continue
			}
			if err != nil {
				continue
			}
			mu.Lock()
			id, ok := ids[pid]
			if ok {
				delete(ids, pid)
			} else {
				early[pid] = int(ws)
			}
			mu.Unlock()
			if ok {
				say(msg{Op: "exited", ID: id, Status: int(ws)})
			}
		}
	}()
	// This goroutine holds the restricted thread (enter locked it): every
	// step is forked from it, and inherits its Landlock domain, its
	// no_new_privs and its empty capabilities.
	for {
		m, fds, err := receive(c)
		if err != nil {
			return 0
		}
		if m.Op != "run" || len(fds) != 4 || len(m.Argv) == 0 {
			closeAll(fds)
			say(msg{Op: "exited", ID: m.ID, Err: "the starter takes a step with four descriptors"})
			continue
		}
		env := stepEnv(a.Profile, m.Env)
		mu.Lock()
		pid, err := startProgram(m, env, fds)
		if err != nil {
			unix.Write(fds[3], []byte("r"))
			pid, err = syscall.ForkExec(bash, m.Argv, &syscall.ProcAttr{
				Env:   env,
				Dir:   m.Dir,
				Files: []uintptr{uintptr(fds[0]), uintptr(fds[1]), uintptr(fds[2]), uintptr(fds[3])},
				Sys:   &syscall.SysProcAttr{Setsid: true},
			})
		}
		if err != nil {
			mu.Unlock()
			unix.Write(fds[2], []byte(fmt.Sprintf("sayso-wall: error: start the step in %s: %v\n", m.Dir, err)))
			closeAll(fds)
			say(msg{Op: "exited", ID: m.ID, Status: ExitSetup << 8})
			continue
		}
		closeAll(fds)
		if ws, ok := early[pid]; ok {
			delete(early, pid)
			mu.Unlock()
			say(msg{Op: "exited", ID: m.ID, Status: ws})
			continue
		}
		ids[pid] = m.ID
		mu.Unlock()
		say(msg{Op: "started", ID: m.ID, Status: pid})
		select {
		case kids <- struct{}{}:
		default:
		}
	}
}
