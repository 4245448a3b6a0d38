package client

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// ClientRule is a deny or ask rule of the person's own, written in their
// client's settings, that matches a step. sayso applies it itself, before
// it decides: a shell step it lets through is handed back rewritten to
// run in its wall, and the client then matches its rules against the
// wall's line, where the person's rule no longer finds the command it
// names (Claude Code 2.1.337 runs `git status && touch x` under a deny of
// Bash(git status:*) once a hook rewrites it).
type ClientRule struct {
	Deny bool   // deny; otherwise ask
	Rule string // as the person wrote it: Bash(git status:*)
	File string // the settings file that holds it
}

// Words are what the agent is told.
func (r *ClientRule) Words(client string) string {
	verb := "asks about"
	if r.Deny {
		verb = "denies"
	}
	return "your own " + client + " rule " + r.Rule + " (" + r.File + ") " + verb + " this step"
}

// firstDeny is the first deny among the n rules at gives (nil where a
// rule does not apply), else the first ask: a client's own deny wins
// over its ask wherever it stands.
func firstDeny(n int, at func(i int) *ClientRule) *ClientRule {
	var ask *ClientRule
	for i := 0; i < n; i++ {
		found := at(i)
		switch {
		case found == nil:
		case found.Deny:
			return found
		case ask == nil:
			ask = found
		}
	}
	return ask
}

// claudeRuleFor finds the first of the person's own deny rules, else ask
// rules, in Claude Code's settings (managed, local, project, user: every
// file the client merges) that matches the shell step s. Claude Code
// matches a rule on each command of a line after peeling its wrappers
// (timeout, env, sudo …); sayso matches it on each command it parses,
// those nested in $(…), bash -c and the like included, with and without
// the wrappers: never fewer than the client would. Read and Edit rules
// are matched on every word and redirection of the line that names a
// file, whatever program names it (Claude Code matches them only for the
// file commands it knows: cat, sed …). A file Claude Code cannot read is
// skipped, as the client skips it.
func claudeRuleFor(s *Step, env Env) *ClientRule {
	if s == nil || s.Kind != KindShell || s.Command == "" {
		return nil
	}
	t := Target{Agent: "claude", Home: env.Home, Project: claudeProject(s, env), Getenv: env.Getenv}
	files := claudeRuleFiles(t)
	script := shell.Parse(s.Command)
	for _, deny := range []bool{true, false} {
		key := "ask"
		if deny {
			key = "deny"
		}
		for _, f := range files {
			m := readJSON("claude", f)
			perms, _ := m["permissions"].(map[string]any)
			for _, rule := range stringList(perms[key]) {
				if claudeRuleMatches(rule, script, s.Cwd, env.Home, filepath.Dir(filepath.Dir(f))) {
					return &ClientRule{Deny: deny, Rule: rule, File: f}
				}
			}
		}
	}
	return nil
}

// claudeRuleFiles are the settings files Claude Code reads its rules from,
// managed first: the managed file and its drop-in folder, then the
// local, project and user files.
func claudeRuleFiles(t Target) []string {
	t.Scope = "managed"
	var files []string
	if mp, err := SettingsPath(t); err == nil {
		files = append(files, mp)
		d, _ := filepath.Glob(filepath.Join(filepath.Dir(mp), "managed-settings.d", "*.json"))
		slices.Sort(d)
		files = append(files, d...)
	}
	c := claudeFiles(t) // user, project, local
	slices.Reverse(c)
	return append(files, c...)
}

// claudeRuleMatches reports whether one rule of Claude Code's
// permissions syntax matches a command of the script: Bash, Bash(*),
// Bash(prefix:*), Bash(pattern with *), or a file rule (Read, Edit,
// Write) on a file the line names. base is the folder the settings file
// sits in (the project, or the home): a rule's "/path" is relative to it.
func claudeRuleMatches(rule string, script *shell.Script, cwd, home, base string) bool {
	tool, spec, hasSpec := strings.Cut(rule, "(")
	tool = strings.TrimSpace(tool)
	if hasSpec {
		if !strings.HasSuffix(spec, ")") {
			return false
		}
		spec = spec[:len(spec)-1]
	}
	if tool == "*" {
		return true
	}
	switch risk.KindOfTool(tool) {
	case risk.ToolShell:
		if !hasSpec || spec == "" || spec == "*" {
			return true
		}
		for _, line := range commandLines(script) {
			if bashSpecMatches(spec, line) {
				return true
			}
		}
	case risk.ToolRead, risk.ToolWrite, risk.ToolMultiEdit:
		files := namedFiles(script, cwd, home)
		if !hasSpec || spec == "" {
			return len(files) > 0 // every file: every line that names one
		}
		res := pathSpec(spec, cwd, home, base)
		for _, p := range files {
			for _, re := range res {
				if re.MatchString(p) {
					return true
				}
			}
		}
	}
	return false
}

// commandLines are the commands of the script as Claude Code's rules
// read them: each segment's words, without and with its wrappers.
func commandLines(script *shell.Script) []string {
	var out []string
	for i := range script.Segments {
		seg := &script.Segments[i]
		var words []string
		for _, a := range seg.Args {
			words = append(words, a.Value)
		}
		line := strings.Join(words, " ")
		if line == "" {
			continue
		}
		out = append(out, line)
		if len(seg.WrapperWords) > 0 {
			out = append(out, strings.Join(seg.WrapperWords, " ")+" "+line)
		}
	}
	return out
}

// bashSpecMatches reads a Bash rule's content: "prefix:*" matches the
// prefix alone or followed by arguments; a pattern's * matches anything,
// and a trailing " *" may match nothing; anything else is the exact line.
func bashSpecMatches(spec, line string) bool {
	if p, ok := strings.CutSuffix(spec, ":*"); ok {
		return line == p || strings.HasPrefix(line, p+" ")
	}
	if !strings.Contains(spec, "*") {
		return line == spec
	}
	if p, ok := strings.CutSuffix(spec, " *"); ok && !strings.Contains(p, "*") && line == p {
		return true
	}
	var b strings.Builder
	b.WriteString(`^`)
	for i, part := range strings.Split(spec, "*") {
		if i > 0 {
			b.WriteString(`.*`)
		}
		b.WriteString(regexp.QuoteMeta(part))
	}
	b.WriteString(`$`)
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(line)
}

// pathSpec reads a file rule's path as Claude Code does: //x absolute,
// ~/x in the home, /x relative to the settings file's folder (and, so
// that no reading matches less, absolute too), anything else relative to
// the working folder; a path without a slash matches at any depth, as a
// .gitignore line does; a folder matches what lies in it.
func pathSpec(spec, cwd, home, base string) []*regexp.Regexp {
	var roots []string
	switch {
	case strings.HasPrefix(spec, "//"):
		roots = []string{spec[1:]}
	case strings.HasPrefix(spec, "~/"):
		roots = []string{filepath.Join(home, spec[2:])}
	case strings.HasPrefix(spec, "/"):
		roots = []string{spec, filepath.Join(base, spec[1:])}
	case !strings.Contains(strings.TrimPrefix(spec, "./"), "/"):
		roots = []string{filepath.Join(cwd, "**", strings.TrimPrefix(spec, "./"))}
	default:
		roots = []string{filepath.Join(cwd, spec)}
	}
	var out []*regexp.Regexp
	for _, r := range roots {
		if re, err := regexp.Compile("^" + globRegexp(r) + "(/.*)?$"); err == nil {
			out = append(out, re)
		}
	}
	return out
}

// globRegexp turns a gitignore-style glob into a regular expression: **
// crosses folders, * and ? do not.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString(`(.*/)?`)
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(`.*`)
			i++
		case c == '*':
			b.WriteString(`[^/]*`)
		case c == '?':
			b.WriteString(`[^/]`)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// namedFiles are the absolute paths the script's words and redirections
// may name: every argument and redirection target, taken against the
// working folder, ~ against the home, a glob as what it matches there
// now and as written. A word sayso cannot read exactly (a variable) is
// taken as written.
func namedFiles(script *shell.Script, cwd, home string) []string {
	var out []string
	add := func(w shell.Word) {
		v := w.Value
		if v == "" || strings.HasPrefix(v, "-") && !strings.Contains(v, "=") {
			return
		}
		if _, after, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "-") {
			v = after // --file=secret.txt
		}
		v = strings.TrimPrefix(v, "@") // curl -d @secret.txt
		switch {
		case v == "~" || strings.HasPrefix(v, "~/"):
			v = filepath.Join(home, strings.TrimPrefix(v, "~"))
		case !filepath.IsAbs(v):
			v = filepath.Join(cwd, v)
		}
		v = filepath.Clean(v)
		out = append(out, v)
		if w.Glob {
			m, _ := filepath.Glob(v)
			out = append(out, m...)
		}
	}
	for i := range script.Segments {
		seg := &script.Segments[i]
		for _, a := range seg.Args {
			add(a)
		}
		for _, r := range seg.Redirs {
			add(r.Target)
		}
	}
	return out
}
