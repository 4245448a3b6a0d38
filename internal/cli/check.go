package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

const checkUsage = `usage: sayso check [--mode ask|auto|autopilot] [--agent NAME] [--cwd DIR] [--root DIR]
                   [--container-mount DIR --container-host-root DIR] [--json] [--exit-code]
                   (-- COMMAND | --tool NAME --input JSON)

Explains the decision sayso would make for COMMAND, a shell command line
(several arguments are joined with spaces), or for one call of the tool
NAME with its input JSON (Read, Write, apply_patch, mcp__server__tool…).
Nothing is run and nothing is recorded. The root is the git top-level of
--cwd unless --root is given. The person's policy file
($SAYSO_CONFIG_DIR/policy.toml) and the project's (<root>/.sayso/policy.toml)
are read; what they break or ignore is said on stderr. --agent picks the
[autonomy.NAME] rows. With --container-mount and --container-host-root the
step runs in a container with the host folder mounted there; a spec sayso
refuses means the host. The mode is the policy file's default_mode unless
--mode is given. Exit status 0 whatever the decision, 1 for an error, 2
for a usage error. With --exit-code the status is the decision, for a
script: 0 allow, 3 ask, 4 deny (1 and 2 as before; anything but 0 means
do not run it).
`

func init() {
	register(command{"check", "explain the decision for a command", runCheck, checkUsage})
}

// checkResult is the stable JSON of sayso check.
type checkResult struct {
	Decision string           `json:"decision"`
	Classes  []string         `json:"classes"`
	Reasons  []string         `json:"reasons"`
	Mode     string           `json:"mode"`
	Agent    string           `json:"agent,omitempty"`
	Tool     string           `json:"tool,omitempty"`
	Root     string           `json:"root"`
	Cwd      string           `json:"cwd"`
	Where    string           `json:"where"`
	Segments []checkSegment   `json:"segments"`
	Opaque   []checkFinding   `json:"opaque,omitempty"`
	Tiers    []policy.Tier    `json:"tiers"`
	Matches  []policy.Match   `json:"matches,omitempty"`
	Problems []policy.Problem `json:"problems,omitempty"`
	Paths    []checkPathUse   `json:"paths,omitempty"`
	// Plan is what the step may reach once walled, as the decision
	// planned it: what the hook's wall would carry out.
	Plan policy.Plan `json:"plan"`
}

type checkSegment struct {
	Command  string         `json:"command"`
	Via      []string       `json:"via,omitempty"`
	Wrappers []string       `json:"wrappers,omitempty"`
	Classes  []string       `json:"classes"`
	Findings []checkFinding `json:"findings"`
}

type checkFinding struct {
	Class  string          `json:"class"`
	Reason risk.ReasonKind `json:"reason"`
	Why    string          `json:"why"`
}

type checkPathUse struct {
	Op   string `json:"op"`
	Path string `json:"path"`
	Raw  string `json:"raw"`
}

func runCheck(env *Env, args []string) error {
	fs := verbFlags("check")
	mode := fs.String("mode", "", "")
	cwd := fs.String("cwd", "", "")
	root := fs.String("root", "", "")
	agent := fs.String("agent", "", "")
	tool := fs.String("tool", "", "")
	input := fs.String("input", "", "")
	mount := fs.String("container-mount", "", "")
	hostRoot := fs.String("container-host-root", "", "")
	asJSON := fs.Bool("json", false, "")
	exitCode := fs.Bool("exit-code", false, "")
	if done, err := parseFlags(env, fs, checkUsage, args); done || err != nil {
		return err
	}
	command := strings.Join(fs.Args(), " ")
	switch {
	case *tool == "" && *input != "":
		return usagef("check: --input needs --tool")
	case *tool == "" && len(fs.Args()) == 0:
		return usagef("check: no command given")
	case *tool != "" && *input != "" && len(fs.Args()) > 0:
		return usagef("check: give either --input or a command, not both")
	case *tool != "" && *input == "" && !risk.ShellTool(*tool):
		return usagef("check: --tool %s needs --input JSON", *tool)
	case *input != "" && !json.Valid([]byte(*input)):
		return usagef("check: --input is not JSON")
	case (*mount == "") != (*hostRoot == ""):
		return usagef("check: --container-mount and --container-host-root go together")
	}
	var m policy.Mode
	if *mode != "" {
		var err error
		if m, err = policy.ParseMode(*mode); err != nil {
			return usagef("check: %v", err)
		}
	}
	ctx, err := checkContext(env, *cwd, *root)
	if err != nil {
		return err
	}
	var box *policy.Container
	if *mount != "" {
		host := *hostRoot
		if !filepath.IsAbs(host) {
			host = ctx.Cwd + "/" + host // kept unclean: a .. segment is refused, not resolved
		}
		box = &policy.Container{Mounts: []policy.Mount{{Host: host, Target: *mount}}}
	}
	// The hook's own request builder, kept rules, protected paths, wall
	// and pins: check explains what the hook would decide.
	db, sctx, cancel, err := openStore()
	if err != nil {
		return err
	}
	defer cancel()
	defer db.Close()
	d, pins, err := newDecider(db)
	if err != nil {
		return err
	}
	step := client.Step{Agent: *agent, Tool: *tool, Command: command, Cwd: ctx.Cwd, TempDir: os.Getenv("TMPDIR")}
	if *input != "" {
		step.Input = []byte(*input)
	}
	// The one decoder the clients' adapters read a tool input with.
	step.Use = risk.ReadUse(step.Tool, step.Input)
	req, err := d.Request(sctx, step, box)
	if err != nil {
		return err
	}
	req.Context.Root = ctx.Root
	for _, p := range req.Policy.Problems {
		fmt.Fprintf(env.Stderr, "sayso: warning: policy %s\n", p)
	}
	req.Mode = req.Policy.DefaultMode
	if *mode != "" {
		req.Mode = m
	}
	evaluate := func(context.Context, client.Step) (policy.Decision, policy.Diagnostic, error) {
		dec, diag := policy.Evaluate(req)
		return dec, diag, nil
	}
	dec, diag, err := hook.Guard(pins, *agent, evaluate)(sctx, step)
	if err != nil {
		return err
	}
	res := newCheckResult(dec, &diag, req, ctx)
	if *asJSON {
		if err := printJSON(env.Stdout, res); err != nil {
			return err
		}
	} else {
		printCheck(env.Stdout, res)
	}
	if *exitCode {
		return decisionStatus(dec)
	}
	return nil
}

// decisionStatus is sayso check --exit-code's status for a decision: only
// allow is 0; a decision it does not know is a deny.
func decisionStatus(d policy.Decision) error {
	switch d {
	case policy.Allow:
		return nil
	case policy.Ask:
		return exitStatus(ExitAsk)
	}
	return exitStatus(ExitDeny)
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
	// A protected folder reached through a symlink is the same folder.
	protected := paths.Protected()
	for _, p := range protected {
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			protected = append(protected, real)
		}
	}
	return risk.Context{Root: root, Cwd: cwd, Home: home, Protected: protected}, nil
}

func newCheckResult(dec policy.Decision, d *policy.Diagnostic, req policy.Request, ctx risk.Context) checkResult {
	a := &d.Assessment
	res := checkResult{
		Decision: dec.String(),
		Classes:  classNames(a.Classes),
		Reasons:  d.Reasons,
		Mode:     d.Mode.String(),
		Agent:    req.Agent,
		Tool:     req.Tool,
		Root:     ctx.Root,
		Cwd:      ctx.Cwd,
		Where:    d.Where,
		Tiers:    d.Tiers,
		Matches:  d.Matches,
		Problems: d.Problems,
		Segments: []checkSegment{},
		Plan:     d.Plan,
	}
	var segments []shell.Segment
	if a.Script != nil {
		segments = a.Script.Segments
	}
	for i := range segments {
		s := &segments[i]
		seg := checkSegment{Command: segmentText(s), Via: s.Via, Wrappers: s.Wrappers, Classes: classNames(a.SegmentClasses(i)), Findings: []checkFinding{}}
		for _, f := range a.Findings {
			if f.Segment == i {
				seg.Findings = append(seg.Findings, checkFinding{f.Class.String(), f.Reason.Kind, f.Why()})
			}
		}
		res.Segments = append(res.Segments, seg)
	}
	for _, f := range a.Findings {
		if f.Segment < 0 {
			res.Opaque = append(res.Opaque, checkFinding{f.Class.String(), f.Reason.Kind, f.Why()})
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
	if r.Tool != "" {
		fmt.Fprintf(w, "tool: %s\n", r.Tool)
	}
	fmt.Fprintf(w, "where: %s\n", r.Where)
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
		fmt.Fprintf(w, " %s %d %-13s %s\n", mark, t.ID, t.ID, t.Why)
	}
	if len(r.Matches) > 0 {
		fmt.Fprintln(w, "matched:")
		for _, m := range r.Matches {
			fmt.Fprintf(w, "   %s %s: %s\n", m.Kind, m.Source, m.Text)
		}
	}
	if len(r.Plan.Why) > 0 {
		fmt.Fprintln(w, "wall:")
		for _, why := range r.Plan.Why {
			fmt.Fprintf(w, "   %s\n", why)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "policy: %s\n", p)
	}
}
