package cli

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/store"
)

// keptRule is one line of sayso rule list --json.
type keptRule struct {
	ID        int64     `json:"id"`
	Tool      string    `json:"tool"`
	Unit      string    `json:"unit"`
	Pattern   string    `json:"pattern"`
	Cwd       string    `json:"cwd"`
	CreatedAt time.Time `json:"created_at"`
	Valid     bool      `json:"valid"`
	Error     string    `json:"error,omitempty"` // why sayso ignores it
}

func runRuleList(env *Env, args []string) error {
	asJSON, done, err := jsonOnly(env, "rule list", ruleUsage, args)
	if done || err != nil {
		return err
	}
	return withStore(func(ctx context.Context, db *store.DB) error {
		kept, err := db.Rules(ctx)
		if err != nil {
			return err
		}
		out := make([]keptRule, 0, len(kept))
		for _, k := range kept {
			r := keptRule{ID: k.ID, Tool: k.Tool, Unit: k.Unit, Pattern: k.Pattern, Cwd: k.Cwd, CreatedAt: k.CreatedAt, Valid: true}
			u, err := rule.ParseUnit(k.Unit)
			if err == nil {
				err = rule.Validate(rule.Rule{Tool: k.Tool, Unit: u, Pattern: k.Pattern, Cwd: k.Cwd, CreatedAt: k.CreatedAt})
			}
			if err != nil {
				r.Valid, r.Error = false, err.Error()
			}
			out = append(out, r)
		}
		if asJSON {
			return printJSON(env.Stdout, out)
		}
		if len(out) == 0 {
			fmt.Fprintln(env.Stdout, "no rule is kept")
			return nil
		}
		for _, r := range out {
			fmt.Fprintf(env.Stdout, "%d  %s  %-7s %s\n    in %s\n", r.ID, r.CreatedAt.Local().Format("2006-01-02 15:04"), r.Unit, r.Pattern, r.Cwd)
			if !r.Valid {
				fmt.Fprintf(env.Stdout, "    ignored: %s\n", r.Error)
			}
		}
		return nil
	})
}

func runRuleForget(env *Env, args []string) error {
	if len(args) != 1 {
		return usagef("rule forget: want one rule id")
	}
	id, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil {
		return usagef("rule forget: %q is not a rule id", args[0])
	}
	return withStore(func(ctx context.Context, db *store.DB) error {
		if err := db.ForgetRule(ctx, id); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "forgot rule %d\n", id)
		return nil
	})
}
