package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/store"
)

const hostUsage = `usage: sayso host add [--person] NAME
       sayso host list [--json]
       sayso host remove NAME

A host is an agent host other than the clients 'sayso install' plugs into (a chat
app, an orchestrator) that uses the gateway's API (docs/api.md). add
prints the host's token once: sayso keeps only its SHA-256, so keep the
token where the host reads it. A host may submit steps and messages and
poll its own cards; it labels its messages delegated, system or guest,
and person only when added with --person. remove stops its token at once.
`

func init() {
	register(command{"host", "add, list or remove an API host", runHost, hostUsage}, "add", "list", "remove")
}

func runHost(env *Env, args []string) error {
	verb, fs, args, done, err := splitVerb(env, "host", args)
	if done || err != nil {
		return err
	}
	person := fs.Bool("person", false, "")
	asJSON := fs.Bool("json", false, "")
	rest, done, err := parseArgs(env, fs, hostUsage, args)
	if done || err != nil {
		return err
	}
	switch {
	case verb != "add" && *person:
		return usagef("host %s: --person is for add", verb)
	case verb != "list" && *asJSON:
		return usagef("host %s: --json is for list", verb)
	case verb == "list" && len(rest) != 0:
		return usagef("host list: takes no names")
	case verb != "list" && len(rest) != 1:
		return usagef("host %s: want one NAME", verb)
	}
	return withStore(func(ctx context.Context, db *store.DB) error {
		switch verb {
		case "add":
			h, token, err := db.AddHost(ctx, store.NewHost{Name: rest[0], Person: *person, Agents: client.Agents()})
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "%s\n", token)
			fmt.Fprintf(env.Stderr, "sayso: host %s added; this token is shown only now: the host sends it as Authorization: Bearer TOKEN\n", h.Name)
			if h.Person {
				fmt.Fprintf(env.Stderr, "sayso: host %s may label a message as yours: its words can grant leases and waive questions\n", h.Name)
			}
		case "list":
			hs, err := db.Hosts(ctx)
			if err != nil {
				return err
			}
			if *asJSON {
				return printList(env.Stdout, hs)
			}
			for _, h := range hs {
				labels := "delegated, system, guest"
				if h.Person {
					labels = "person, " + labels
				}
				fmt.Fprintf(env.Stdout, "%s\tadded %s\tlabels %s\n", h.Name, h.CreatedAt.Local().Format(time.DateTime), labels)
			}
		case "remove":
			if err := db.RemoveHost(ctx, rest[0]); err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "removed host %s\n", rest[0])
		}
		return nil
	})
}
