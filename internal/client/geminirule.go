package client

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// geminiAdminPolicies is the folder of the administrator's policy files
// Gemini CLI reads on Linux.
const geminiAdminPolicies = "/etc/gemini-cli/policies"

// geminiRule is one [[rule]] of a Gemini CLI policy file, the fields
// that bear on a shell step.
type geminiRule struct {
	ToolName      any    `toml:"toolName"`
	MCPName       string `toml:"mcpName"`
	ArgsPattern   string `toml:"argsPattern"`
	CommandPrefix any    `toml:"commandPrefix"`
	CommandRegex  string `toml:"commandRegex"`
	Decision      string `toml:"decision"`
	Priority      int    `toml:"priority"`
	Modes         []any  `toml:"modes"`
	Interactive   *bool  `toml:"interactive"`
	Subagent      string `toml:"subagent"`
	Annotations   any    `toml:"toolAnnotations"`
	DenyMessage   string `toml:"denyMessage"`

	tier int    // 4 the person's, 5 the administrator's
	file string // where it is written
	n    int    // its place in the file, from 1
}

// geminiRuleFor finds the person's own Gemini CLI policy rule (their
// policies folder in Gemini's home, ~/.gemini/policies, and the administrator's /etc/gemini-cli/policies)
// that denies, else asks about, the shell step s. A shell step sayso
// lets through is handed back rewritten to run in its wall, and Gemini
// then matches its policy against the wall's line, where a rule on the
// command no longer finds it (Gemini CLI 0.61.0 runs `git status && touch
// x` under a deny of commandPrefix "git status" once a hook rewrites it):
// sayso applies those rules itself, before it decides.
//
// It matches as Gemini's policy engine does — the highest priority wins,
// an administrator's rule over the person's — on the whole command and
// on each command in it (Gemini checks each part of a compound line), and
// never on fewer: a rule's conditions the hook cannot see (the approval
// mode, interactive, the sub-agent, the tool's annotations) hold for a
// deny or ask, and do not for an allow that would outrank it; a pattern
// Go cannot read as a regular expression matches when it denies or asks.
func geminiRuleFor(s *Step, home string) *ClientRule {
	if s == nil || s.Kind != KindShell || s.Command == "" {
		return nil
	}
	var rules []geminiRule
	if home != "" {
		rules = append(rules, readGeminiRules(filepath.Join(home, ".gemini", "policies"), 4)...)
	}
	rules = append(rules, readGeminiRules(geminiAdminPolicies, 5)...)
	if len(rules) == 0 {
		return nil
	}
	// The highest final priority first; at a tie, a deny before an ask
	// before an allow.
	sort.SliceStable(rules, func(i, j int) bool {
		pi, pj := rules[i].tier*1000+rules[i].Priority, rules[j].tier*1000+rules[j].Priority
		if pi != pj {
			return pi > pj
		}
		return geminiStrictness(rules[i].Decision) > geminiStrictness(rules[j].Decision)
	})
	var args map[string]any
	if json.Unmarshal(s.Input, &args) != nil || args == nil {
		args = map[string]any{}
	}
	args["command"] = s.Command
	calls := []map[string]any{args}
	dir, _ := args["dir_path"].(string)
	for _, line := range commandLines(shell.Parse(s.Command)) {
		part := map[string]any{"command": line}
		if dir != "" {
			part["dir_path"] = dir
		}
		calls = append(calls, part)
	}
	return firstDeny(len(calls), func(i int) *ClientRule {
		r := geminiWinner(rules, calls[i])
		if r == nil {
			return nil
		}
		return &ClientRule{Deny: r.Decision == "deny", Rule: r.String(), File: r.file}
	})
}

// geminiStrictness orders decisions: deny, ask (Gemini's ask_user),
// allow; a decision Gemini does not take is -1.
func geminiStrictness(decision string) int {
	switch {
	case decision == "deny":
		return 2
	case strings.HasPrefix(decision, "ask"):
		return 1
	case decision == "allow":
		return 0
	}
	return -1
}

// geminiWinner is the rule that decides the shell call, when it is one
// that denies or asks; nil when an allow wins or none matches.
func geminiWinner(rules []geminiRule, call map[string]any) *geminiRule {
	stable := geminiStable(call)
	for i := range rules {
		r := &rules[i]
		strict := geminiStrictness(r.Decision) > 0
		if !r.matches(stable, strict) {
			continue
		}
		if strict {
			return r
		}
		return nil
	}
	return nil
}

// matches reports whether the rule applies to a shell call whose
// arguments Gemini renders as stable; strict rules (deny, ask) match
// on what the hook cannot see, allow rules do not.
func (r *geminiRule) matches(stable string, strict bool) bool {
	conditional := len(r.Modes) > 0 || r.Interactive != nil || r.Subagent != "" || r.Annotations != nil
	if conditional && !strict {
		return false
	}
	if r.MCPName != "" {
		return false // an MCP server's tools, not the shell
	}
	shellSugar := r.CommandPrefix != nil || r.CommandRegex != ""
	if r.ToolName != nil {
		names := geminiStrings(r.ToolName)
		if len(names) == 0 {
			return false
		}
		if !slices.ContainsFunc(names, func(n string) bool { return n == "*" || risk.ShellTool(n) }) {
			return false
		}
	} else if !shellSugar && r.ArgsPattern == "" {
		return true // no condition: every tool
	}
	var patterns []string
	switch {
	case r.CommandPrefix != nil:
		for _, p := range geminiStrings(r.CommandPrefix) {
			enc := geminiJSON(p)
			patterns = append(patterns, regexp.QuoteMeta(`"command":`+enc[:len(enc)-1])+`(?:[\s"]|\\")`)
		}
		if len(patterns) == 0 {
			return strict
		}
	case r.CommandRegex != "":
		patterns = []string{`"command":"` + r.CommandRegex}
	case r.ArgsPattern != "":
		patterns = []string{r.ArgsPattern}
	default:
		return true
	}
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			if strict {
				return true
			}
			continue
		}
		if re.MatchString(stable) {
			return true
		}
	}
	return false
}

// String is the rule as the person reads it in their file.
func (r *geminiRule) String() string {
	var parts []string
	add := func(k string, v any) {
		b, _ := json.Marshal(v)
		parts = append(parts, k+" = "+string(b))
	}
	switch {
	case r.CommandPrefix != nil:
		add("commandPrefix", r.CommandPrefix)
	case r.CommandRegex != "":
		add("commandRegex", r.CommandRegex)
	case r.ArgsPattern != "":
		add("argsPattern", r.ArgsPattern)
	case r.ToolName != nil:
		add("toolName", r.ToolName)
	}
	add("decision", r.Decision)
	out := "#" + strconv.Itoa(r.n) + " (" + strings.Join(parts, ", ") + ")"
	if r.DenyMessage != "" {
		out += ": " + r.DenyMessage
	}
	return out
}

// readGeminiRules reads the deny, ask and allow rules of every .toml file
// in dir, as Gemini CLI loads them. A file it cannot read or parse is
// skipped, as Gemini skips it.
func readGeminiRules(dir string, tier int) []geminiRule {
	files, _ := filepath.Glob(filepath.Join(dir, "*.toml"))
	slices.Sort(files)
	var out []geminiRule
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var doc struct {
			Rule []geminiRule `toml:"rule"`
		}
		if toml.Unmarshal(b, &doc) != nil {
			continue
		}
		for i, r := range doc.Rule {
			if geminiStrictness(r.Decision) < 0 {
				continue // not a decision Gemini takes
			}
			r.Priority = min(max(r.Priority, 0), 999)
			r.tier, r.file, r.n = tier, f, i+1
			out = append(out, r)
		}
	}
	return out
}

// geminiStrings reads a field Gemini takes as a string or a list of
// strings.
func geminiStrings(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	return stringList(v)
}

// geminiStable renders a call's arguments as Gemini's policy engine does
// before it tests a pattern: keys sorted, each top-level pair between NUL
// bytes.
func geminiStable(args map[string]any) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\x00" + geminiJSON(k) + ":" + geminiJSON(args[k]) + "\x00")
	}
	b.WriteString("}")
	return b.String()
}

// geminiJSON is v as JavaScript's JSON.stringify writes it: objects'
// keys sorted, no HTML escapes.
func geminiJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "null"
	}
	return strings.TrimSuffix(b.String(), "\n")
}
