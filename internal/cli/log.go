package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
)

const logUsage = `usage: sayso log [--session ID] [--since D] [--limit N] [--json]
       sayso log text on|off

Prints the ledger, oldest first: every decision with its diagnostic, every
message received (its source, and its words only while text logging is
on), answer, rule kept or forgotten, lease granted, consumed or revoked,
and setting changed. --since takes a duration back from now (90m, 24h) or
a time (2026-11-30, 2026-11-30T17:00:00Z). --json prints one JSON object
per row, with its detail.
`

func init() {
	register(command{"log", "print the ledger", runLog})
	helpTopics["log"] = logUsage
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
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, logUsage)
			return nil
		}
		return usagef("log: %v", err)
	}
	if len(rest) > 0 {
		return usagef("log: unexpected argument %q", rest[0])
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
	entries, err := db.Log(ctx, f)
	if err != nil {
		return err
	}
	if *asJSON {
		for _, e := range entries {
			if err := printJSONLine(env.Stdout, e); err != nil {
				return err
			}
		}
		return nil
	}
	for _, e := range entries {
		session := ""
		if e.Session != "" {
			session = " [" + e.Session + "]"
		}
		fmt.Fprintf(env.Stdout, "%d  %s  %-16s%s %s\n", e.ID, e.At.Local().Format("2006-01-02 15:04:05"), e.Kind, session, e.Summary)
	}
	return nil
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
	db, ctx, cancel, err := openStore()
	if err != nil {
		return err
	}
	defer cancel()
	defer db.Close()
	if err := db.SetLogText(ctx, args[0] == "on"); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "text logging %s\n", args[0])
	return nil
}
