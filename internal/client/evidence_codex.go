package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Codex says nothing in a prompt's hook input about who typed it, and the
// same session can take words from elsewhere: 'codex exec' and SDK hosts
// (the app server) run turns with no terminal, and 'codex queue' hands an
// open terminal UI a message to run as its next turn. What tells them
// apart is what Codex itself keeps, where no walled step can write:
//
//   - the client process is the terminal UI: no subcommand that runs
//     without it (exec, review, app-server, queue, …) and no --remote, in
//     the foreground of a terminal;
//   - its folder, CODEX_HOME as the hook inherited it from the client, is
//     the person's ~/.codex, which the wall keeps read-only;
//   - the session's record there (sessions/…/rollout-…-SESSION.jsonl)
//     opens with source "cli" and thread_source "user" (not a sub-agent's
//     thread), and records the turn as started with turn_trigger "user"
//     (a queued message is "queue").

// codexBatch are Codex's subcommands that do not run its terminal UI, and
// the flag that hands the UI's turns to an app server.
var codexBatch = []string{
	"exec", "e", "review", "app-server", "exec-server", "remote-control", "mcp", "mcp-server",
	"queue", "cloud", "apply", "a", "sandbox", "debug", "login", "logout", "plugin", "proto",
	"completion", "update", "doctor", "archive", "unarchive", "delete", "features",
	"migrate-rollouts", "migrate-nfs-db", "help",
}

// codexRecordWait bounds how long the check waits for Codex to record the
// turn it is starting.
var codexRecordWait = time.Second

func (p Procs) codexTyped(pid int, session, turn string) error {
	if err := p.codexUI(pid); err != nil {
		return err
	}
	home, err := p.codexHome()
	if err != nil {
		return err
	}
	if !codexID(session) || !codexID(turn) {
		return noEvidence("Codex's session %q or turn %q is not an id", session, turn)
	}
	return codexRecorded(home, session, turn)
}

// codexUI checks that the Codex process runs its terminal UI in the
// foreground of a terminal.
func (p Procs) codexUI(pid int) error {
	b, err := os.ReadFile(p.path(pid, "cmdline"))
	if err != nil {
		return noEvidence("cannot read the Codex command line: %v", err)
	}
	for _, a := range strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")[1:] {
		if a == "--remote" || strings.HasPrefix(a, "--remote=") {
			return noEvidence("Codex runs with %s", a)
		}
		for _, c := range codexBatch {
			if a == c {
				return noEvidence("Codex runs %q, not its terminal UI", a)
			}
		}
	}
	s, err := os.ReadFile(p.path(pid, "stat"))
	i := bytes.LastIndexByte(s, ')')
	if err != nil || i < 0 {
		return noEvidence("cannot read the state of the Codex process")
	}
	// After the name: state, ppid, pgrp, session, tty_nr, tpgid.
	f := strings.Fields(string(s[i+1:]))
	if len(f) < 6 || f[4] == "0" || f[2] != f[5] {
		return noEvidence("Codex does not run in the foreground of a terminal")
	}
	return nil
}

// codexHome is the Codex folder the hook inherited from the client, which
// must be the person's ~/.codex: the wall keeps it read-only.
func (p Procs) codexHome() (string, error) {
	b, err := os.ReadFile(p.path(p.PID, "environ"))
	if err != nil {
		return "", noEvidence("cannot read the hook's environment: %v", err)
	}
	home, n := "", 0
	for _, kv := range strings.Split(string(b), "\x00") {
		if v, ok := strings.CutPrefix(kv, "CODEX_HOME="); ok {
			home, n = v, n+1
		}
	}
	if n > 1 {
		return "", noEvidence("the hook's environment sets CODEX_HOME twice")
	}
	want := filepath.Join(p.Home, ".codex")
	if p.Home == "" || !filepath.IsAbs(p.Home) || home != "" && filepath.Clean(home) != want {
		return "", noEvidence("Codex's folder %q is not %s, which the wall keeps read-only", home, want)
	}
	return want, nil
}

// codexID says whether s can be a Codex id: letters, digits, dashes.
func codexID(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// codexRecorded finds the session's record in Codex's folder and checks
// that it is the terminal UI's own thread and that turn was started by
// the person typing.
func codexRecorded(home, session, turn string) error {
	files, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*-"+session+".jsonl"))
	if len(files) != 1 {
		return noEvidence("Codex keeps no single record of session %s", session)
	}
	deadline := time.Now().Add(codexRecordWait)
	for {
		trigger, err := codexTrigger(files[0], session, turn)
		if err != nil {
			return err
		}
		switch {
		case trigger == "user":
			return nil
		case trigger != "":
			return noEvidence("Codex started turn %s from %q, not from the person typing", turn, trigger)
		case time.Now().After(deadline):
			return noEvidence("Codex recorded no start of turn %s", turn)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// codexTrigger reads a session's record: an error unless it opens as the
// terminal UI's own thread, then the trigger of turn's start, "" when not
// recorded yet.
func codexTrigger(file, session, turn string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", noEvidence("cannot read Codex's record of the session: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	first := true
	for sc.Scan() {
		line := sc.Bytes()
		if !first && !bytes.Contains(line, []byte(turn)) {
			continue
		}
		var rec struct {
			Type    string `json:"type"`
			Payload struct {
				Type         string `json:"type"`
				ID           string `json:"id"`
				Source       any    `json:"source"`
				ThreadSource string `json:"thread_source"`
				Attribution  struct {
					TurnID  string `json:"turn_id"`
					Trigger string `json:"turn_trigger"`
				} `json:"turn_attribution"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			if first {
				return "", noEvidence("Codex's record of the session does not open with its meta")
			}
			continue
		}
		if first {
			first = false
			if rec.Type != "session_meta" || rec.Payload.ID != session || rec.Payload.Source != "cli" || rec.Payload.ThreadSource != "user" {
				return "", noEvidence("session %s is not a thread the person opened in Codex's terminal UI (source %v, thread %q)", session, rec.Payload.Source, rec.Payload.ThreadSource)
			}
			continue
		}
		if rec.Type == "event_msg" && rec.Payload.Type == "task_started" && rec.Payload.Attribution.TurnID == turn {
			if rec.Payload.Attribution.Trigger == "" {
				return "", noEvidence("Codex recorded turn %s with no trigger", turn)
			}
			return rec.Payload.Attribution.Trigger, nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", noEvidence("cannot read Codex's record of the session: %v", err)
	}
	return "", nil // not recorded yet
}
