package cli

import (
	"fmt"
	"strings"

	"github.com/sayso-dev/sayso/internal/rule"
)

const ruleUsage = `usage: sayso rule match [--unit command|verb] [--json] RULE -- COMMAND
       sayso rule offer [--unit command|verb] [--json] -- COMMAND
       sayso rule list [--json]
       sayso rule forget ID

match says whether RULE is one sayso would keep and whether it covers
COMMAND, as if both were in the working folder. offer says which rule a
card about COMMAND would offer, or why none. Nothing is kept: only the
person's press on a card keeps a rule. list shows the kept rules with
their folder, time and whether sayso would still keep each (a rule it
refuses today is ignored). forget removes one: the only way to remove a
rule. Exit status 0 whatever the answer; 2 for a usage error.
`

func init() {
	register(command{"rule", "check always-allow rules against a command", runRule, ruleUsage}, "match", "list", "forget", "offer")
}

// ruleMatchResult is the stable JSON of sayso rule match.
type ruleMatchResult struct {
	Valid bool   `json:"valid"`
	Error string `json:"error,omitempty"`
	Match bool   `json:"match"`
}

// ruleOfferResult is the stable JSON of sayso rule offer. Offer is null
// when there is none; unit verb may offer several patterns, joined by "; "
// in Offer and listed in Patterns.
type ruleOfferResult struct {
	Offer    *string  `json:"offer"`
	Patterns []string `json:"patterns,omitempty"`
	Why      string   `json:"why,omitempty"`
}

func runRule(env *Env, args []string) error {
	verb, _, rest, done, err := splitVerb(env, "rule", args)
	if done || err != nil {
		return err
	}
	return ruleVerbs[verb](env, rest)
}

// ruleVerbs run the verbs rule registered.
var ruleVerbs = map[string]func(*Env, []string) error{
	"match":  runRuleMatch,
	"list":   runRuleList,
	"forget": runRuleForget,
	"offer":  runRuleOffer,
}

// ruleFlags parses the flags the rule verbs share.
func ruleFlags(env *Env, verb string, args []string) (rule.Unit, bool, []string, bool, error) {
	fs := verbFlags("rule " + verb)
	unit := fs.String("unit", "command", "")
	asJSON := fs.Bool("json", false, "")
	if done, err := parseFlags(env, fs, ruleUsage, args); done || err != nil {
		return 0, false, nil, done, err
	}
	u, err := rule.ParseUnit(*unit)
	if err != nil {
		return 0, false, nil, false, usagef("rule %s: %v", verb, err)
	}
	return u, *asJSON, fs.Args(), false, nil
}

func runRuleMatch(env *Env, args []string) error {
	u, asJSON, rest, help, err := ruleFlags(env, "match", args)
	if help || err != nil {
		return err
	}
	if len(rest) < 2 || rest[1] != "--" {
		return usagef("rule match: want RULE -- COMMAND")
	}
	pattern, command := rest[0], strings.Join(rest[2:], " ")
	if command == "" {
		return usagef("rule match: no command given")
	}
	ctx, err := checkContext(env, "", "")
	if err != nil {
		return err
	}
	r := rule.Rule{Tool: "Bash", Unit: u, Pattern: pattern, Cwd: ctx.Cwd}
	var res ruleMatchResult
	if err := rule.Validate(r); err != nil {
		res.Error = err.Error()
	} else {
		res.Valid = true
		res.Match = rule.Match(r, rule.NewStep(command, ctx))
	}
	if asJSON {
		return printJSON(env.Stdout, res)
	}
	switch {
	case !res.Valid:
		fmt.Fprintf(env.Stdout, "invalid: %s\n", res.Error)
	case res.Match:
		fmt.Fprintln(env.Stdout, "match")
	default:
		fmt.Fprintln(env.Stdout, "no match")
	}
	return nil
}

func runRuleOffer(env *Env, args []string) error {
	u, asJSON, rest, help, err := ruleFlags(env, "offer", args)
	if help || err != nil {
		return err
	}
	command := strings.Join(rest, " ")
	if command == "" {
		return usagef("rule offer: no command given")
	}
	ctx, err := checkContext(env, "", "")
	if err != nil {
		return err
	}
	rules, why := rule.Offer(rule.NewStep(command, ctx), u)
	var res ruleOfferResult
	if len(rules) == 0 {
		res.Why = why
	} else {
		for _, r := range rules {
			res.Patterns = append(res.Patterns, r.Pattern)
		}
		offer := strings.Join(res.Patterns, "; ")
		res.Offer = &offer
		if len(rules) == 1 {
			res.Patterns = nil
		}
		res.Why = why
	}
	if asJSON {
		return printJSON(env.Stdout, res)
	}
	if res.Offer == nil {
		fmt.Fprintf(env.Stdout, "no offer: %s\n", res.Why)
		return nil
	}
	fmt.Fprintf(env.Stdout, "always allow: %s\n", *res.Offer)
	if res.Why != "" {
		fmt.Fprintf(env.Stdout, "not kept: %s\n", res.Why)
	}
	return nil
}
