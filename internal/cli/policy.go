package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sayso-dev/sayso/docs"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
)

const policyUsage = `usage: sayso policy check [--cwd DIR] [--root DIR] [--json]

check parses the person's policy file ($SAYSO_CONFIG_DIR/policy.toml) and
the project's (<root>/.sayso/policy.toml, the root being the git
top-level of --cwd unless --root is given), and says, for each [[deny]],
[[ask]] and [[allow]] entry, what it matches: commands it matches and
commands it does not, each held against the entry by the matcher every
decision uses. It warns about what a file breaks or ignores, about an
entry that can never match as written (a wrapper sayso peels, shell
syntax, quotes), and about an entry's own match and not_match examples
that do not hold. Nothing is changed. Exit status 0 when there is
nothing to warn about, 1 when there is, 2 for a usage error.
`

func init() {
	// The policy page is the help topic "policy" too: the command's usage
	// comes first.
	register(command{"policy", "check the policy files: what each entry matches", runPolicy, policyUsage + orgPolicyUsage + "\n" + docs.Topics["policy"]}, "check", "keygen", "sign")
}

// policyCheckResult is the stable JSON of sayso policy check.
type policyCheckResult struct {
	Files    []string             `json:"files"`  // the files that exist and were read
	Looked   []policy.Look        `json:"looked"` // every file looked for, there or not
	Entries  []policy.EntryReport `json:"entries"`
	Problems []policy.Problem     `json:"problems,omitempty"`
}

// errWarned: sayso policy check found something to warn about.
var errWarned = errors.New("the policy files have problems")

func runPolicy(env *Env, args []string) error {
	if len(args) > 0 && (args[0] == "keygen" || args[0] == "sign" || args[0] == "check" && hasOrgFlag(args[1:])) {
		return runOrgPolicy(env, args[0], args[1:])
	}
	if len(args) == 0 || args[0] != "check" {
		return usagef("policy: want 'policy check', 'policy keygen' or 'policy sign'")
	}
	fs := verbFlags("policy check")
	cwd := fs.String("cwd", "", "")
	root := fs.String("root", "", "")
	asJSON := fs.Bool("json", false, "")
	if done, err := parseFlags(env, fs, policyUsage, args[1:]); done || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("policy check: unexpected %q", fs.Arg(0))
	}
	ctx, err := checkContext(env, *cwd, *root)
	if err != nil {
		return err
	}
	config, err := paths.ConfigDir()
	if err != nil {
		return err
	}
	files := policy.Files{Person: filepath.Join(config, "policy.toml"), Root: ctx.Root, ReadFile: os.ReadFile}
	pol := policy.Load(files)
	res := policyCheckResult{Files: []string{}, Looked: pol.Looked, Entries: pol.Explain(), Problems: pol.Problems}
	for _, l := range pol.Looked {
		if l.Exists {
			res.Files = append(res.Files, l.Path)
		}
	}
	warned := len(res.Problems) > 0
	if *asJSON {
		if err := printJSON(env.Stdout, res); err != nil {
			return err
		}
	} else {
		printPolicyCheck(env.Stdout, &res)
		if len(res.Entries) == 0 {
			hintPolicyStart(env.Stderr, files.Person)
		}
	}
	for _, p := range res.Problems {
		fmt.Fprintf(env.Stderr, "sayso: warning: policy %s\n", p)
	}
	if warned {
		return errWarned
	}
	return nil
}

// hintPolicyStart says how to start the person's policy file: where it
// goes and an entry it could hold.
func hintPolicyStart(w io.Writer, person string) {
	fmt.Fprintf(w, "sayso: hint: without a file sayso decides on its own; to start yours, write in %s\n", person)
	for _, line := range strings.Split(strings.TrimSpace(policy.Starter), "\n") {
		fmt.Fprintln(w, "sayso: hint:   "+line)
	}
	fmt.Fprintln(w, "sayso: hint: then run 'sayso policy check' again; 'sayso help policy' says what an entry may hold")
}

func printPolicyCheck(w io.Writer, res *policyCheckResult) {
	if len(res.Entries) == 0 {
		fmt.Fprintln(w, "no entries; sayso looked for:")
		for _, l := range res.Looked {
			whose, there := "yours, for every project", "not there"
			if l.Whose == "project" {
				whose = "this project's"
			}
			if l.Exists {
				there = "there, with no entry"
			}
			fmt.Fprintf(w, "  %s  (%s: %s)\n", l.Path, whose, there)
		}
	}
	for _, e := range res.Entries {
		var what []string
		if e.Tool != "" {
			what = append(what, "tool "+e.Tool)
		}
		if e.Command != "" {
			what = append(what, fmt.Sprintf("command %q", e.Command))
		}
		if e.Class != "" {
			what = append(what, "class "+e.Class)
		}
		fmt.Fprintf(w, "%s  %s  %s\n", e.Source, e.Effect, strings.Join(what, ", "))
		switch {
		case e.Never != "":
			fmt.Fprintf(w, "  never matches: %s\n", e.Never)
			if e.Suggest != "" {
				fmt.Fprintf(w, "  write instead: %s\n", e.Suggest)
			}
		case e.Command == "" && e.Class != "" && e.Tool == "":
			fmt.Fprintf(w, "  matches every step sayso finds of class %s\n", e.Class)
		case e.Command == "":
			fmt.Fprintf(w, "  matches every call of a tool named %s\n", e.Tool)
		}
		if e.Command != "" && e.Class != "" {
			fmt.Fprintf(w, "  only when the step is also of class %s\n", e.Class)
		}
		for _, c := range e.Matches {
			fmt.Fprintf(w, "  matches:     %s\n", c)
		}
		for _, c := range e.Misses {
			fmt.Fprintf(w, "  not matches: %s\n", c)
		}
	}
}

// hasOrgFlag reports whether policy check is asked about the org's file.
func hasOrgFlag(args []string) bool {
	for _, a := range args {
		if a == "--org" || a == "-org" || strings.HasPrefix(a, "--org=") || strings.HasPrefix(a, "-org=") {
			return true
		}
	}
	return false
}
