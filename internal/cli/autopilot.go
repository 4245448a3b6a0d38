package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/sayso-dev/sayso/internal/policy"
)

const autopilotUsage = `usage: sayso autopilot [--json]

Prints what autopilot releases and what it never releases, each with why.
Autopilot is the mode set per session, or the "*" = "auto_approve" row of
an agent's [autonomy] table in the policy file.
`

func init() {
	register(command{"autopilot", "say what autopilot releases and what it never does", runAutopilot})
	helpTopics["autopilot"] = autopilotUsage
}

func runAutopilot(env *Env, args []string) error {
	fs := flag.NewFlagSet("autopilot", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(env.Stdout, autopilotUsage)
			return nil
		}
		return usagef("autopilot: %v", err)
	}
	if fs.NArg() > 0 {
		return usagef("autopilot: takes no arguments")
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(policy.Autopilot)
	}
	fmt.Fprintln(env.Stdout, "autopilot releases:")
	for _, it := range policy.Autopilot.Releases {
		fmt.Fprintf(env.Stdout, "  + %s: %s\n", it.What, it.Why)
	}
	fmt.Fprintln(env.Stdout, "autopilot never releases:")
	for _, it := range policy.Autopilot.Holds {
		what := it.What
		if it.Class != "" {
			what = it.Class + " (" + it.What + ")"
		}
		fmt.Fprintf(env.Stdout, "  - %s: %s\n", what, it.Why)
	}
	return nil
}
