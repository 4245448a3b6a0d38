package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
)

const logUsage = `usage: sayso log [--session ID] [--since D] [--limit N] [--json] [--follow]
       sayso log --team [--node NAME] [--text WORDS] [--kind K] [--decision D] [--class C]
                        [--session ID] [--since D] [--until D] [--limit N] [--json] [--follow]
       sayso log text on|off

Prints the ledger, oldest first: every decision with its diagnostic, every
message received (its source, and its words only while text logging is
on), answer, rule kept or forgotten, lease granted, consumed or revoked,
and setting changed. --since takes a duration back from now (90m, 24h) or
a time (2026-11-30, 2026-11-30T17:00:00Z). --json prints one JSON object
per row, with its detail. --follow (-f) then keeps printing each new row
as it is written, until interrupted (Ctrl-C); a card nobody answered
shows as a card-expired row that says why.

--team asks the team's hub for the ledger of this machine's person across
all of their machines, as each shipped it, newest last; every row is
named by its machine and its number there. The request is signed by this
machine's key, and the hub answers with its person's rows and no one
else's. --node keeps one machine's rows; --text the rows holding every
word; --kind, --decision (allow, ask, deny, or missed) and --class those
of a kind, a decision or a class; --until the rows written before a time.
--follow then asks the hub every second for the rows it took since, and
prints each matching row once.
`

func init() {
	register(command{"log", "print the ledger", runLog, logUsage})
}

func runLog(env *Env, args []string) error {
	if len(args) > 0 && args[0] == "text" {
		return runLogText(env, args[1:])
	}
	fs := verbFlags("log")
	session := fs.String("session", "", "")
	since := fs.String("since", "", "")
	limit := fs.Int("limit", 0, "")
	asJSON := fs.Bool("json", false, "")
	follow := fs.Bool("follow", false, "")
	fs.BoolVar(follow, "f", false, "")
	teamLog := fs.Bool("team", false, "")
	var tq teamQuery
	fs.StringVar(&tq.node, "node", "", "")
	fs.StringVar(&tq.text, "text", "", "")
	fs.StringVar(&tq.kind, "kind", "", "")
	fs.StringVar(&tq.decision, "decision", "", "")
	fs.StringVar(&tq.class, "class", "", "")
	fs.StringVar(&tq.until, "until", "", "")
	rest, done, err := parseArgs(env, fs, logUsage, args)
	if done || err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("log: unexpected argument %q", rest[0])
	}
	if *teamLog {
		tq.session, tq.since, tq.limit = *session, *since, *limit
		return runTeamLog(env, tq, *asJSON, *follow)
	}
	if tq != (teamQuery{}) {
		return usagef("log: --node, --text, --kind, --decision, --class and --until go with --team")
	}
	f := store.LogFilter{Session: *session, Limit: *limit}
	db, ctx, cancel, err := openStore()
	if err != nil {
		return err
	}
	defer cancel()
	defer db.Close()
	if *since != "" {
		if f.Since, err = parseSince(*since, db.Now()); err != nil {
			return usagef("log: --since: %v", err)
		}
	}
	// The newest row before anything is printed: following starts after
	// it even when the filter shows none of the rows before.
	newest, err := db.Log(ctx, store.LogFilter{Limit: 1})
	if err != nil {
		return err
	}
	entries, err := db.Log(ctx, f)
	if err != nil {
		return err
	}
	last, err := printLog(env.Stdout, entries, *asJSON)
	if err != nil || !*follow {
		return err
	}
	if len(newest) == 1 {
		last = max(last, newest[0].ID)
	}
	// Following: the rows written since, a few times a second, until the
	// person interrupts. Each read is bounded like any other.
	f.Since, f.Limit = time.Time{}, 0
	stop := env.context()
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	for {
		select {
		case <-stop.Done():
			return nil
		case <-tick.C:
		}
		f.After = last
		rctx, cancel := context.WithTimeout(stop, storeTimeout)
		entries, err := db.Log(rctx, f)
		cancel()
		if err != nil {
			if stop.Err() != nil {
				return nil
			}
			return err
		}
		n, err := printLog(env.Stdout, entries, *asJSON)
		if err != nil {
			return err
		}
		if n > last {
			last = n
		}
	}
}

// followEvery is how often 'sayso log --follow' reads the new rows.
const followEvery = 250 * time.Millisecond

// printLog prints ledger rows and returns the id of the last (0 for none).
func printLog(w io.Writer, entries []store.Entry, asJSON bool) (int64, error) {
	var last int64
	for _, e := range entries {
		last = max(last, e.ID)
		if asJSON {
			if err := printJSONLine(w, e); err != nil {
				return last, err
			}
			continue
		}
		session := ""
		if e.Session != "" {
			session = " [" + e.Session + "]"
		}
		if _, err := fmt.Fprintf(w, "%d  %s  %-16s%s %s\n", e.ID, e.At.Local().Format("2006-01-02 15:04:05"), e.Kind, session, e.Summary); err != nil {
			return last, err
		}
	}
	return last, nil
}

func printJSONLine(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

// parseSince reads --since: a duration back from now, or a time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("%q is negative", s)
		}
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (90m, 24h) nor a time (2026-11-30)", s)
}

func runLogText(env *Env, args []string) error {
	if len(args) != 1 || (args[0] != "on" && args[0] != "off") {
		return usagef("log text: want on or off")
	}
	return withStore(func(ctx context.Context, db *store.DB) error {
		if err := db.SetLogText(ctx, args[0] == "on"); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "text logging %s\n", args[0])
		return nil
	})
}
