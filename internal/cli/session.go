package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/store"
)

const sessionUsage = `usage: sayso session list [--json]
       sayso session show [--json] ID
       sayso session hold [--why TEXT] ID
       sayso session release ID
       sayso session mode ID ask|auto|autopilot
       sayso session end ID

The person's view of agent sessions and tasks. list shows one row each
under a header: its id (what lease grant --session takes), its agent,
the folder its latest step ran in, whether it is live or has ended (its
agent said so; a resumed session is live again), its mode and when it
started. list and show never print the words of a message: only how many
came from each source. hold stops a
session (its non-read steps are denied, and so are its tasks'); release
lets it go on and restarts its breaker. mode sets the session's own mode;
a task never has more than its parent's. end ends a session as its agent's
own end would: its tasks end, and every process its walled steps left
running (a dev server, a watcher) ends with its wall.
`

func init() {
	register(command{"session", "list, hold, release or end sessions and set their mode", runSession, sessionUsage}, "list", "show", "hold", "release", "mode", "end")
}

func runSession(env *Env, args []string) error {
	verb, fs, args, done, err := splitVerb(env, "session", args)
	if done || err != nil {
		return err
	}
	asJSON, why := new(bool), new(string)
	switch verb {
	case "list", "show":
		fs.BoolVar(asJSON, "json", false, "")
	case "hold":
		fs.StringVar(why, "why", "", "")
	}
	rest, done, err := parseArgs(env, fs, sessionUsage, args)
	if done || err != nil {
		return err
	}
	want := map[string]int{"list": 0, "show": 1, "hold": 1, "release": 1, "mode": 2, "end": 1}
	if n := want[verb]; len(rest) != n {
		return usagef("session %s: want %d arguments, got %d", verb, n, len(rest))
	}
	if verb == "mode" {
		if err := store.CheckMode(rest[1]); err != nil {
			return usagef("session mode: %v", err)
		}
	}
	return withStore(func(ctx context.Context, db *store.DB) error {
		switch verb {
		case "list":
			ss, err := db.Sessions(ctx)
			if err != nil {
				return err
			}
			rows := sessionRows(ctx, db, ss)
			if *asJSON {
				return printJSON(env.Stdout, rows)
			}
			printSessions(env.Stdout, rows)
			return nil
		case "show":
			s, err := db.Session(ctx, rest[0])
			if err != nil {
				return notFound(err, "session", rest[0])
			}
			r := sessionRows(ctx, db, []store.Session{s})[0]
			counts, err := db.MessageCounts(ctx, s.ID)
			if err != nil {
				return err
			}
			r.Messages = counts
			if *asJSON {
				return printJSON(env.Stdout, r)
			}
			printSession(env.Stdout, r)
			return nil
		case "hold":
			if err := db.Hold(ctx, rest[0], *why); err != nil {
				return notFound(err, "session", rest[0])
			}
			fmt.Fprintf(env.Stdout, "session %s held\n", rest[0])
		case "release":
			if err := db.Release(ctx, rest[0]); err != nil {
				return notFound(err, "session", rest[0])
			}
			fmt.Fprintf(env.Stdout, "session %s released\n", rest[0])
		case "end":
			s, err := db.Session(ctx, rest[0])
			if err != nil {
				return notFound(err, "session", rest[0])
			}
			if err := db.EndSession(ctx, s.ID); err != nil {
				return err
			}
			state, err := paths.StateDir()
			if err != nil {
				return err
			}
			if err := (hook.Walls{Sessions: filepath.Join(state, "walls")}).EndSession(s.Agent, s.ID); err != nil {
				return fmt.Errorf("end the session's wall: %w", err)
			}
			fmt.Fprintf(env.Stdout, "session %s ended\n", s.ID)
		case "mode":
			if err := db.SetMode(ctx, rest[0], rest[1]); err != nil {
				return notFound(err, "session", rest[0])
			}
			fmt.Fprintf(env.Stdout, "session %s mode %s\n", rest[0], rest[1])
			if l, err := db.Live(ctx, rest[0]); err == nil && l.Mode != rest[1] {
				fmt.Fprintf(env.Stderr, "sayso: hint: its parent keeps it in %s\n", l.Mode)
			}
		}
		return nil
	})
}

// sessionRow is the stable JSON of a session in sayso session list and
// show: never the words of a message.
type sessionRow struct {
	store.Session
	Live     store.Live     `json:"live"`
	Activity store.Activity `json:"activity"`
	Messages map[string]int `json:"messages,omitempty"`
}

func sessionRows(ctx context.Context, db *store.DB, ss []store.Session) []sessionRow {
	out := []sessionRow{}
	for _, s := range ss {
		l, err := db.Live(ctx, s.ID)
		if err != nil {
			l = store.Live{Mode: store.ModeAsk, Held: true, HeldWhy: err.Error()}
		}
		a, err := db.Activity(ctx, s.ID)
		if err != nil {
			// Not known to be live: shown, and refused a lease, as ended.
			a = store.Activity{Ended: true}
		}
		out = append(out, sessionRow{Session: s, Live: l, Activity: a})
	}
	return out
}

// printSessions prints the sessions one row each under a header; the
// last column, what else is true of a session, is left out when nothing
// is.
func printSessions(w io.Writer, rows []sessionRow) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "no sessions")
		return
	}
	home, _ := os.UserHomeDir()
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tAGENT\tFOLDER\tSTATE\tMODE\tSTARTED\tNOTES")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, orDash(r.Agent), orDash(tildeHome(r.Activity.Folder, home)),
			r.state(), r.Live.Mode, r.CreatedAt.Local().Format("Jan 2 15:04"), r.notes())
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		fmt.Fprint(w, strings.TrimRight(line, " \n")+strings.Repeat("\n", strings.Count(line, "\n")))
	}
}

func (r sessionRow) state() string {
	if r.Activity.Ended {
		return "ended"
	}
	return "live"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// tildeHome writes a folder below the home as ~/….
func tildeHome(dir, home string) string {
	if home != "" && home != "/" {
		if rest, ok := strings.CutPrefix(dir, home); ok && (rest == "" || rest[0] == '/') {
			return "~" + rest
		}
	}
	return dir
}

// notes says what else is true of a session: a task's parent, a hold, a
// guest's words.
func (r sessionRow) notes() string {
	var notes []string
	if r.Parent != "" {
		notes = append(notes, "task of "+r.Parent)
	}
	if r.Live.Held {
		notes = append(notes, "held: "+r.Live.HeldWhy)
	}
	if r.Tainted {
		notes = append(notes, "guest words")
	}
	return strings.Join(notes, "; ")
}

func printSession(w io.Writer, r sessionRow) {
	fmt.Fprintf(w, "session %s\n", r.ID)
	if r.Agent != "" {
		fmt.Fprintf(w, "agent:   %s\n", r.Agent)
	}
	if r.Parent != "" {
		scoped := ""
		if r.Scoped {
			scoped = " (scoped)"
		}
		fmt.Fprintf(w, "task of: %s%s\n", r.Parent, scoped)
		if r.CopyWhy != "" {
			fmt.Fprintf(w, "words:   none from its parent: %s\n", r.CopyWhy)
		} else {
			fmt.Fprintf(w, "words:   %d copied from its parent (not shown)\n", r.Messages["from_parent"])
		}
	}
	home, _ := os.UserHomeDir()
	fmt.Fprintf(w, "folder:  %s\n", orDash(tildeHome(r.Activity.Folder, home)))
	state := r.state()
	if r.Activity.Ended && !r.Activity.EndedAt.IsZero() {
		state += " at " + r.Activity.EndedAt.Local().Format("Jan 2 15:04")
	}
	fmt.Fprintf(w, "state:   %s\n", state)
	mode := r.Live.Mode
	if r.Mode != r.Live.Mode {
		mode += " (its own: " + r.Mode + ")"
	}
	fmt.Fprintf(w, "mode:    %s\n", mode)
	if r.Live.Held {
		fmt.Fprintf(w, "held:    %s\n", r.Live.HeldWhy)
	} else {
		fmt.Fprintln(w, "held:    no")
	}
	fmt.Fprintf(w, "turn:    %s (%d messages)\n", r.Turn, r.Turns)
	fmt.Fprintf(w, "guest:   %v\n", r.Tainted)
	var parts []string
	for _, k := range []string{"person", "delegated", "system", "guest"} {
		if n := r.Messages[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "none")
	}
	fmt.Fprintf(w, "sources: %s\n", strings.Join(parts, ", "))
}

// notFound turns the store's not-found error into one that names what.
func notFound(err error, what, id string) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no %s %s", what, id)
	}
	return err
}
