// Command decider is what a hook process pays for a decision without the
// gateway: open the database, decide one step, write the ledger row,
// leave (DB.Leave, as the hook does). The load, crash and cost tests run
// many of it at once.
//
// With -steps N it decides N steps in a row, printing the ledger row of
// each as soon as it is committed, so a test that kills it knows which
// rows must survive.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
)

func main() {
	path := flag.String("db", "", "the database")
	session := flag.String("session", "s1", "the session")
	cwd := flag.String("cwd", "/w", "the step's folder")
	category := flag.String("category", "", "the lease category the step needs, if any")
	steps := flag.Int("steps", 1, "how many steps to decide")
	startOnly := flag.Bool("start-only", false, "exit at once: the cost of starting a binary that links the store")
	flag.Parse()
	if *startOnly {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	db, err := store.Open(ctx, *path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Leave()
	step := store.Step{Session: store.NewSession{ID: *session, Agent: "load"}, Cwd: *cwd, Tool: "Bash", Summary: "git push origin main"}
	for range *steps {
		out, err := db.Decide(ctx, step, func(s *store.State) store.Outcome {
			if *category != "" {
				if l, ok, why := s.LeaseFor(store.Category(*category)); ok {
					return store.Outcome{Decision: store.DecisionAllow, Lease: l.ID, Reason: why}
				}
			}
			return store.Outcome{Decision: store.DecisionAsk, Reason: "remote-write is a ceiling", Diagnostic: []byte(`{"tiers":[6]}`)}
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s %d\n", out.Decision, out.Entry)
	}
}
