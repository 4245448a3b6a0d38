package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/project"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// The scripts play the agent's side of the store with "sayso test-agent":
// messages with their source, tasks, and steps decided against the store's
// state through policy.Evaluate. The verb exists only in this test binary,
// never in sayso itself: an agent has no way to say it is the person.
func init() {
	if filepath.Base(os.Args[0]) != "sayso" || len(os.Args) < 2 || os.Args[1] != "test-agent" {
		return
	}
	if err := testAgent(os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "test-agent: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

const testAgentUsage = `sayso test-agent message SESSION SOURCE [--turn T] [--cwd DIR] TEXT
sayso test-agent task PARENT ID [--scoped] [--max N] PROMPT
sayso test-agent words SESSION
sayso test-agent step SESSION [--cwd DIR] [--turn T] [--mode M] -- COMMAND`

func testAgent(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage:\n%s", testAgentUsage)
	}
	fs := flag.NewFlagSet("test-agent", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	turn := fs.String("turn", "", "")
	cwd := fs.String("cwd", "", "")
	mode := fs.String("mode", "", "")
	scoped := fs.Bool("scoped", false, "")
	max := fs.Int("max", 0, "")
	verb, args := args[0], args[1:]
	var command []string
	for i, a := range args {
		if a == "--" {
			args, command = args[:i], []string{strings.Join(args[i+1:], " ")}
			break
		}
	}
	var rest []string
	for a := args; ; {
		if err := fs.Parse(a); err != nil {
			return err
		}
		if a = fs.Args(); len(a) == 0 {
			break
		}
		rest, a = append(rest, a[0]), a[1:]
	}
	rest = append(rest, command...)
	dir, err := paths.StateDir()
	if err != nil {
		return err
	}
	if err := paths.Private(dir); err != nil {
		return err
	}
	// A gateway the script runs may hold the store a moment: only a hang
	// outlasts it.
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Hang)
	defer cancel()
	db, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	if err != nil {
		return err
	}
	defer db.Close()
	switch {
	case verb == "message" && len(rest) == 3:
		src, err := store.ParseSource(rest[1])
		if err != nil {
			return err
		}
		m, err := db.AddMessage(ctx, store.NewSession{ID: rest[0], Agent: "test"}, store.NewMessage{Source: src, Turn: *turn, Text: rest[2], Cwd: *cwd})
		if err != nil {
			return err
		}
		fmt.Printf("%s message in %s, turn %s\n", m.Source, m.Session, m.Turn)
		if m.Lease != nil {
			fmt.Printf("lease %d granted: %s in %s\n", m.Lease.ID, m.Lease.Category, m.Lease.Cwd)
		}
	case verb == "task" && len(rest) == 3:
		t, err := db.CreateTask(ctx, store.NewTask{ID: rest[1], Parent: rest[0], Agent: "test", Prompt: rest[2], Scoped: *scoped, OwnerWordsMax: *max})
		if err != nil {
			return err
		}
		if t.Copied == 0 {
			fmt.Printf("task %s took no owner words: %s\n", rest[1], t.Why)
		} else {
			fmt.Printf("task %s took %d owner words\n", rest[1], t.Copied)
		}
	case verb == "words" && len(rest) == 1:
		words, err := db.OwnerWords(ctx, rest[0])
		if err != nil {
			return err
		}
		for _, w := range words {
			mark := ""
			if w.FromParent {
				mark = "[from_parent] "
			}
			fmt.Printf("%s%s\n", mark, w.Text)
		}
		fmt.Printf("%d owner words\n", len(words))
	case verb == "step" && len(rest) == 2:
		return testStep(ctx, db, rest[0], *cwd, *turn, *mode, rest[1])
	default:
		return fmt.Errorf("usage:\n%s", testAgentUsage)
	}
	return nil
}

// testStep is the glue a hook would run: the store's state into a
// policy.Request, policy.Evaluate as the pure evaluate function, and the
// lease it names consumed in the same transaction.
func testStep(ctx context.Context, db *store.DB, session, cwd, turn, mode, command string) error {
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return err
		}
	}
	step := store.Step{Session: store.NewSession{ID: session, Agent: "test", Mode: mode}, Turn: turn, Cwd: cwd, Tool: "Bash", Summary: command}
	out, err := db.Decide(ctx, step, func(st *store.State) store.Outcome {
		m, err := policy.ParseMode(st.Live.Mode)
		if err != nil {
			m = policy.ModeAsk
		}
		req := policy.Request{
			Command: command,
			Mode:    m,
			Context: risk.Context{Root: cwd, Cwd: st.Cwd, Home: os.Getenv("HOME"), Protected: paths.Protected()},
			Now:     st.Now,
			Wall:    hook.FindWalls(os.Getenv("HOME"), paths.Protected()).State(),
			Session: policy.Session{
				ID: st.Session.ID, Turn: st.Turn, Epoch: st.Epoch.ID,
				Held: st.Live.Held, HeldWhy: st.Live.HeldWhy,
				Current: st.Controls(), Guest: st.Session.Tainted,
				Denials: st.Breaker.Denials, Declined: st.Breaker.Declined,
			},
		}
		for _, l := range st.Leases {
			c, err := risk.ParseClass(string(l.Category))
			if err != nil || !l.Live(st.Now) {
				continue
			}
			req.Leases = append(req.Leases, policy.Lease{ID: strconv.FormatInt(l.ID, 10), Category: c, Session: l.Session,
				Turn: l.Turn, Epoch: l.Epoch, Cwd: l.Cwd, Expires: l.ExpiresAt})
		}
		policy.Resolve(&req, project.Disk(project.Read(cwd, os.Getenv("HOME")), hook.Resolver(paths.Protected())))
		dec, diag := policy.Evaluate(req)
		o := store.Outcome{Decision: dec.String()}
		if trip := diag.Tripped(); trip != nil && !st.Live.Held {
			o.Hold = trip.String() // the breaker tripped: the hold outlives this step
		}
		if len(diag.Reasons) > 0 {
			o.Reason = diag.Reasons[0]
		}
		if diag.Lease != "" {
			o.Lease, _ = strconv.ParseInt(diag.Lease, 10, 64)
		} else {
			for _, c := range diag.Assessment.Classes.Classes() {
				if cat, err := store.ParseCategory(c.String()); err == nil {
					_, _, why := st.LeaseFor(cat)
					o.Reason += "; lease: " + why
				}
			}
		}
		o.Diagnostic, _ = json.Marshal(diag)
		return o
	})
	if err != nil {
		return err
	}
	fmt.Printf("%s: %s\n", out.Decision, out.Reason)
	return nil
}
