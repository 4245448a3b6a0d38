package cli

import (
	"fmt"

	"github.com/sayso-dev/sayso/internal/policy"
)

const autopilotUsage = `usage: sayso autopilot [--json]

Prints what autopilot releases and what it never releases, each with why.
Autopilot is the mode set per session, or the "*" = "auto_approve" row of
an agent's [autonomy] table in the policy file.
`

func init() {
	register(command{"autopilot", "say what autopilot releases and what it never does", runAutopilot, autopilotUsage})
}

func runAutopilot(env *Env, args []string) error {
	asJSON, done, err := jsonOnly(env, "autopilot", autopilotUsage, args)
	if done || err != nil {
		return err
	}
	if asJSON {
		return printJSON(env.Stdout, policy.Autopilot)
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
