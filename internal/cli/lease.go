package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
)

const leaseUsage = `usage: sayso lease grant CATEGORY --session ID [--cwd DIR] [--ttl D]
       sayso lease list [--all] [--json]
       sayso lease revoke ID

grant lets one ceiling step of CATEGORY through once in session ID: the
first step of that category in the session's current turn, run in exactly
DIR (default the current folder), within D (at most and by default 15m).
The session's next turn, any new message from you in any session, or
revoke ends it; a session that has ended gets none. Categories:
remote-write, merge, force-remote, publish, deploy, destructive,
container-remove, privilege, new-remote.
list shows the live leases, or with --all every lease and its state.
`

func init() {
	register(command{"lease", "grant, list and revoke one-shot leases", runLease, leaseUsage}, "grant", "list", "revoke")
}

func runLease(env *Env, args []string) error {
	verb, fs, args, done, err := splitVerb(env, "lease", args)
	if done || err != nil {
		return err
	}
	session, cwd, all, asJSON := new(string), new(string), new(bool), new(bool)
	ttl := new(time.Duration)
	*ttl = store.MaxLeaseTTL
	switch verb {
	case "grant":
		fs.StringVar(session, "session", "", "")
		fs.StringVar(cwd, "cwd", "", "")
		fs.DurationVar(ttl, "ttl", store.MaxLeaseTTL, "")
		fs.BoolVar(asJSON, "json", false, "")
	case "list":
		fs.BoolVar(all, "all", false, "")
		fs.BoolVar(asJSON, "json", false, "")
	}
	rest, done, err := parseArgs(env, fs, leaseUsage, args)
	if done || err != nil {
		return err
	}
	var g store.Grant
	var id int64
	switch verb {
	case "grant":
		if len(rest) != 1 {
			return usagef("lease grant: want one category")
		}
		c, err := store.ParseCategory(rest[0])
		if err != nil {
			return usagef("lease grant: %v", err)
		}
		if *session == "" {
			return usagef("lease grant: --session is required")
		}
		if *ttl <= 0 || *ttl > store.MaxLeaseTTL {
			return usagef("lease grant: --ttl %v: a lease lives at most %v", *ttl, store.MaxLeaseTTL)
		}
		dir := *cwd
		if dir == "" {
			if dir, err = env.Getwd(); err != nil {
				return fmt.Errorf("find working folder: %w", err)
			}
		}
		if dir, err = filepath.Abs(dir); err != nil {
			return fmt.Errorf("working folder %s: %w", dir, err)
		}
		g = store.Grant{Category: c, Session: *session, Cwd: dir, TTL: *ttl}
	case "list":
		if len(rest) != 0 {
			return usagef("lease list: takes no arguments")
		}
	case "revoke":
		if len(rest) != 1 {
			return usagef("lease revoke: want one lease id")
		}
		if id, err = strconv.ParseInt(rest[0], 10, 64); err != nil || id <= 0 {
			return usagef("lease revoke: %q is not a lease id", rest[0])
		}
	}
	return withStore(func(ctx context.Context, db *store.DB) error {
		switch verb {
		case "grant":
			l, err := db.GrantLease(ctx, g)
			if errors.Is(err, store.ErrSessionEnded) {
				return fmt.Errorf("lease grant: session %s has ended: no step of it could use a lease (run 'sayso session list' for the live ones)", g.Session)
			}
			if err != nil {
				return notFound(err, "session", g.Session)
			}
			if *asJSON {
				return printJSON(env.Stdout, l)
			}
			fmt.Fprintf(env.Stdout, "lease %d: %s in session %s, turn %s, in %s, until %s\n",
				l.ID, l.Category, l.Session, l.Turn, l.Cwd, l.ExpiresAt.Local().Format(time.TimeOnly))
		case "list":
			ls, err := db.Leases(ctx, *all)
			if err != nil {
				return err
			}
			if *asJSON {
				return printList(env.Stdout, ls)
			}
			printLeases(env.Stdout, ls, db.Now())
		case "revoke":
			if err := db.RevokeLease(ctx, id); err != nil {
				return notFound(err, "lease", rest[0])
			}
			fmt.Fprintf(env.Stdout, "lease %d revoked\n", id)
		}
		return nil
	})
}

func printLeases(w io.Writer, ls []store.Lease, now time.Time) {
	if len(ls) == 0 {
		fmt.Fprintln(w, "no leases")
		return
	}
	for _, l := range ls {
		state := l.State(now)
		switch state {
		case "live":
			state = "live until " + l.ExpiresAt.Local().Format(time.TimeOnly)
		case "revoked":
			state = "revoked: " + l.RevokedWhy
		}
		fmt.Fprintf(w, "%d  %s  session %s  turn %s  %s  %s\n", l.ID, l.Category, l.Session, l.Turn, l.Cwd, state)
	}
}
