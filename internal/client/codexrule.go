package client

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/sayso-dev/sayso/internal/shell"
)

// codexPrefixRule is one prefix_rule of a Codex rules file: its pattern
// (each element the words it accepts there) and its decision.
type codexPrefixRule struct {
	pattern  [][]string
	decision string // allow, prompt or forbidden
	why      string // its justification
	file     string
}

// codexRuleFor finds the person's own Codex execpolicy rule that forbids,
// else prompts for, the shell step s: the prefix_rule entries of every
// .rules file in $CODEX_HOME/rules and in the project's .codex/rules
// (Codex reads the project's only in a trusted project; sayso reads them
// always). A shell step sayso lets through is handed back rewritten to
// run in its wall, and Codex then matches its rules against the wall's
// line, where a rule on the command no longer finds it (Codex 0.171.0 ran
// `git status && touch ran.txt` under a forbidden ["git", "status"] once
// the hook rewrote it): sayso applies them itself, before it decides.
//
// It matches as Codex does — a rule's pattern is a prefix of a command's
// words, the strictest matching decision wins (forbidden over prompt over
// allow) — and never on fewer commands: on each command of the line,
// nested ones and those behind wrappers included, with the program also
// by its base name, and on the whole line as Codex's shell runs it. A
// file sayso cannot evaluate asks about every shell step, naming it:
// Codex refuses such a file too.
func codexRuleFor(s *Step, env Env) *ClientRule {
	if s == nil || s.Kind != KindShell || s.Command == "" {
		return nil
	}
	var files []string
	for _, dir := range []string{filepath.Join(CodexHome(env.Home, env.Getenv), "rules"), filepath.Join(s.Project(), ".codex", "rules")} {
		f, _ := filepath.Glob(filepath.Join(dir, "*.rules"))
		slices.Sort(f)
		files = append(files, f...)
	}
	if len(files) == 0 {
		return nil
	}
	var rules []codexPrefixRule
	for _, f := range files {
		got, err := readCodexRules(f)
		if err != nil {
			return &ClientRule{Rule: "file, which sayso cannot read (" + Short(err.Error(), 160) + "),", File: f}
		}
		rules = append(rules, got...)
	}
	commands := codexCommands(s.Command)
	return firstDeny(len(rules), func(i int) *ClientRule {
		r := &rules[i]
		if r.decision == "allow" || !slices.ContainsFunc(commands, r.matches) {
			return nil
		}
		return &ClientRule{Deny: r.decision == "forbidden", Rule: r.String(), File: r.file}
	})
}

// codexCommands are the word lists a Codex rule is matched on for a
// command line: each command sayso parses in it, with and without its
// wrappers, its program also by base name; and the line as Codex's shell
// runs it (bash -lc LINE), which Codex matches when it cannot split it.
func codexCommands(line string) [][]string {
	out := [][]string{{"bash", "-lc", line}, {"/bin/bash", "-lc", line}}
	script := shell.Parse(line)
	for i := range script.Segments {
		seg := &script.Segments[i]
		var words []string
		for _, a := range seg.Args {
			words = append(words, a.Value)
		}
		if len(words) == 0 {
			continue
		}
		variants := [][]string{words}
		if len(seg.WrapperWords) > 0 {
			variants = append(variants, append(slices.Clone(seg.WrapperWords), words...))
		}
		for _, v := range variants {
			out = append(out, v)
			if base := filepath.Base(v[0]); base != v[0] {
				out = append(out, append([]string{base}, v[1:]...))
			}
		}
	}
	return out
}

// matches reports whether the rule's pattern is a prefix of words.
func (r *codexPrefixRule) matches(words []string) bool {
	if len(words) < len(r.pattern) {
		return false
	}
	for i, alts := range r.pattern {
		if !slices.Contains(alts, words[i]) {
			return false
		}
	}
	return true
}

// String is the rule as the person reads it.
func (r *codexPrefixRule) String() string {
	var parts []string
	for _, alts := range r.pattern {
		if len(alts) == 1 {
			parts = append(parts, fmt.Sprintf("%q", alts[0]))
			continue
		}
		var q []string
		for _, a := range alts {
			q = append(q, fmt.Sprintf("%q", a))
		}
		parts = append(parts, "["+strings.Join(q, ", ")+"]")
	}
	s := "prefix_rule([" + strings.Join(parts, ", ") + "], " + r.decision
	if r.why != "" {
		s += ": " + r.why
	}
	return s + ")"
}

// readCodexRules evaluates one Codex rules file (Starlark) and returns
// its prefix rules. Codex's other declarations (host_executable,
// network_rule) are accepted and bear on no shell step's words.
func readCodexRules(file string) ([]codexPrefixRule, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(src) > 1<<20 {
		return nil, fmt.Errorf("%d bytes", len(src))
	}
	var rules []codexPrefixRule
	prefix := func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var pattern *starlark.List
		var decision, why string = "allow", ""
		var match, notMatch starlark.Value
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "pattern", &pattern, "decision?", &decision, "justification?", &why, "match?", &match, "not_match?", &notMatch); err != nil {
			return nil, err
		}
		switch decision {
		case "allow", "prompt", "forbidden":
		default:
			return nil, fmt.Errorf("invalid decision: %s", decision)
		}
		r := codexPrefixRule{decision: decision, why: why, file: file}
		for i := 0; i < pattern.Len(); i++ {
			switch v := pattern.Index(i).(type) {
			case starlark.String:
				r.pattern = append(r.pattern, []string{string(v)})
			case *starlark.List:
				var alts []string
				for j := 0; j < v.Len(); j++ {
					s, ok := v.Index(j).(starlark.String)
					if !ok {
						return nil, fmt.Errorf("pattern element %d: %s is not a string", i, v.Index(j).Type())
					}
					alts = append(alts, string(s))
				}
				if len(alts) == 0 {
					return nil, fmt.Errorf("pattern element %d: no alternatives", i)
				}
				r.pattern = append(r.pattern, alts)
			default:
				return nil, fmt.Errorf("pattern element %d: %s", i, v.Type())
			}
		}
		if len(r.pattern) == 0 {
			return nil, fmt.Errorf("empty pattern")
		}
		rules = append(rules, r)
		return starlark.None, nil
	}
	accept := func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, nil
	}
	predeclared := starlark.StringDict{
		"prefix_rule":     starlark.NewBuiltin("prefix_rule", prefix),
		"host_executable": starlark.NewBuiltin("host_executable", accept),
		"network_rule":    starlark.NewBuiltin("network_rule", accept),
	}
	thread := &starlark.Thread{Name: "codex-rules", Load: func(*starlark.Thread, string) (starlark.StringDict, error) {
		return nil, fmt.Errorf("load is not read")
	}}
	thread.SetMaxExecutionSteps(1 << 20)
	if _, err := starlark.ExecFileOptions(&syntax.FileOptions{}, thread, file, src, predeclared); err != nil {
		return nil, err
	}
	return rules, nil
}
