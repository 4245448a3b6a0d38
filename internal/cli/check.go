package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

const checkUsage = `usage: sayso check [--mode ask|auto|autopilot] [--cwd DIR] [--root DIR] [--json] -- COMMAND

Explains the decision sayso would make for COMMAND, a shell command line
(several arguments are joined with spaces). Nothing is run and nothing is
recorded. The root is the git top-level of --cwd unless --root is given.
Exit status 0 whatever the decision; 2 for a usage error.
`

func init() {
	register(command{"check", "explain the decision for a command", runCheck})
	helpTopics["check"] = checkUsage
}

// checkResult is the stable JSON of sayso check.
type checkResult struct {
	Decision string         `json:"decision"`
	Classes  []string       `json:"classes"`
	Reasons  []string       `json:"reasons"`
	Mode     string         `json:"mode"`
	Root     string         `json:"root"`
	Cwd      string         `json:"cwd"`
	Segments []checkSegment `json:"segments"`
	Opaque   []checkFinding `json:"opaque,omitempty"`
	Tiers    []policy.Tier  `json:"tiers"`
	Paths    []checkPathUse `json:"paths,omitempty"`
}

type checkSegment struct {
	Command  string         `json:"command"`
	Via      []string       `json:"via,omitempty"`
	Wrappers []string       `json:"wrappers,omitempty"`
	Classes  []string       `json:"classes"`
	Findings []checkFinding `json:"findings"`
}

type checkFinding struct {
	Class string `json:"class"`
	Why   string `json:"why"`
}

type checkPathUse struct {
	Op   string `json:"op"`
	Path string `json:"path"`
	Raw  string `json:"raw"`
}

func runCheck(env *Env, args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	mode := fs.String("mode", "auto", "")
	cwd := fs.String("cwd", "", "")
	root := fs.String("root", "", "")
	asJSON := fs.Bool("json", false, "")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(env.Stdout, checkUsage)
			return nil
		}
		return usagef("check: %v", err)
	}
	m, err := policy.ParseMode(*mode)
	if err != nil {
		return usagef("check: %v", err)
	}
	command := strings.Join(fs.Args(), " ")
	if len(fs.Args()) == 0 {
		return usagef("check: no command given")
	}
	ctx, err := checkContext(env, *cwd, *root)
	if err != nil {
		return err
	}
	dec, diag := policy.Evaluate(policy.Request{Command: command, Mode: m, Context: ctx})
	res := newCheckResult(dec, &diag, m, ctx)
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printCheck(env.Stdout, res)
	return nil
}

// checkContext finds where the step would run.
func checkContext(env *Env, cwd, root string) (risk.Context, error) {
	var err error
	if cwd == "" {
		if cwd, err = env.Getwd(); err != nil {
			return risk.Context{}, fmt.Errorf("find working folder: %w", err)
		}
	}
	if cwd, err = filepath.Abs(cwd); err != nil {
		return risk.Context{}, fmt.Errorf("working folder %s: %w", cwd, err)
	}
	if root == "" {
		root = paths.ProjectRoot(cwd)
	} else if root, err = filepath.Abs(root); err != nil {
		return risk.Context{}, fmt.Errorf("root %s: %w", root, err)
	}
	home, _ := os.UserHomeDir()
	return risk.Context{Root: root, Cwd: cwd, Home: home, Protected: paths.Protected()}, nil
}

func newCheckResult(dec policy.Decision, d *policy.Diagnostic, m policy.Mode, ctx risk.Context) checkResult {
	a := &d.Assessment
	res := checkResult{
		Decision: dec.String(),
		Classes:  classNames(a.Classes),
		Reasons:  d.Reasons,
		Mode:     m.String(),
		Root:     ctx.Root,
		Cwd:      ctx.Cwd,
		Tiers:    d.Tiers,
		Segments: []checkSegment{},
	}
	for i := range a.Script.Segments {
		s := &a.Script.Segments[i]
		seg := checkSegment{Command: segmentText(s), Via: s.Via, Wrappers: s.Wrappers, Classes: classNames(a.SegmentClasses(i)), Findings: []checkFinding{}}
		for _, f := range a.Findings {
			if f.Segment == i {
				seg.Findings = append(seg.Findings, checkFinding{f.Class.String(), f.Why})
			}
		}
		res.Segments = append(res.Segments, seg)
	}
	for _, f := range a.Findings {
		if f.Segment < 0 {
			res.Opaque = append(res.Opaque, checkFinding{f.Class.String(), f.Why})
		}
	}
	for _, p := range a.Paths {
		res.Paths = append(res.Paths, checkPathUse{p.Op.String(), p.Path, p.Raw})
	}
	return res
}

func classNames(s risk.Set) []string {
	out := []string{}
	for _, c := range s.Classes() {
		out = append(out, c.String())
	}
	return out
}

// segmentText shows a segment as written: its words, or its redirects and
// assignments when it has no words.
func segmentText(s *shell.Segment) string {
	var parts []string
	for _, a := range s.Assigns {
		parts = append(parts, a.Name+"="+a.Value.Raw)
	}
	for _, w := range s.Args {
		parts = append(parts, w.Raw)
	}
	for _, r := range s.Redirs {
		parts = append(parts, r.Fd+r.Op+r.Target.Raw)
	}
	t := strings.Join(parts, " ")
	if len(t) > 200 {
		t = t[:197] + "..."
	}
	return t
}

func printCheck(w io.Writer, r checkResult) {
	fmt.Fprintf(w, "%s  (%s mode, root %s)\n", strings.ToUpper(r.Decision), r.Mode, r.Root)
	fmt.Fprintf(w, "classes: %s\n", strings.Join(r.Classes, ", "))
	for _, o := range r.Opaque {
		fmt.Fprintf(w, "whole step: %s: %s\n", o.Class, o.Why)
	}
	for i, s := range r.Segments {
		prefix := ""
		if len(s.Wrappers) > 0 {
			prefix = strings.Join(s.Wrappers, " ") + " → "
		}
		if len(s.Via) > 0 {
			prefix = "[" + strings.Join(s.Via, " › ") + "] " + prefix
		}
		fmt.Fprintf(w, "%d. %s%s\n", i+1, prefix, s.Command)
		for _, f := range s.Findings {
			fmt.Fprintf(w, "     %s: %s\n", f.Class, f.Why)
		}
	}
	fmt.Fprintln(w, "tiers:")
	for _, t := range r.Tiers {
		mark := " "
		if t.Decided {
			mark = "→"
		}
		fmt.Fprintf(w, " %s %d %-13s %s\n", mark, t.N, t.Name, t.Why)
	}
}
