package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
)

const hostUsage = `usage: sayso host add [--person] NAME
       sayso host list [--json]
       sayso host remove NAME

A host is an agent host other than Claude Code, Codex and Gemini (a chat
app, an orchestrator) that uses the gateway's API (docs/api.md). add
prints the host's token once: sayso keeps only its SHA-256, so keep the
token where the host reads it. A host may submit steps and messages and
poll its own cards; it labels its messages delegated, system or guest,
and person only when added with --person. remove stops its token at once.
`

func init() {
	register(command{"host", "add, list or remove an API host", runHost}, "add", "list", "remove")
	helpTopics["host"] = hostUsage
}

func runHost(env *Env, args []string) error {
	if len(args) == 0 {
		return usagef("host: no verb given (add, list or remove)")
	}
	verb, args := args[0], args[1:]
	fs := flag.NewFlagSet("host "+verb, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	person := fs.Bool("person", false, "")
	asJSON := fs.Bool("json", false, "")
	switch verb {
	case "help", "-h", "--help":
		fmt.Fprint(env.Stdout, hostUsage)
		return nil
	case "add", "list", "remove":
	default:
		return usagef("host: unknown verb %q (want add, list or remove)", verb)
	}
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return usagef("host %s: %v", verb, err)
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
	db, ctx, cancel, err := openStore()
	if err != nil {
		return err
	}
	defer cancel()
	defer db.Close()
	switch verb {
	case "add":
		h, token, err := db.AddHost(ctx, store.NewHost{Name: rest[0], Person: *person})
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
			if hs == nil {
				hs = []store.Host{}
			}
			enc := json.NewEncoder(env.Stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(hs)
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
}
