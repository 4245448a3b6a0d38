package policy

import (
	"path"
	"strconv"
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// EntryReport says what one entry of a policy file matches, with commands
// it matches and commands it does not, each held against the entry by the
// same matcher Evaluate uses; and why the entry can never match as written,
// when it cannot.
type EntryReport struct {
	Source   Source   `json:"source"`
	Effect   Decision `json:"effect"`
	Tool     string   `json:"tool,omitempty"`
	Command  string   `json:"command,omitempty"`
	Class    string   `json:"class,omitempty"`
	Matches  []string `json:"matches,omitempty"`
	Misses   []string `json:"misses,omitempty"`
	Never    string   `json:"never,omitempty"` // why it can never match as written
	Suggest  string   `json:"suggest,omitempty"`
	Examples []string `json:"examples_failed,omitempty"` // the file's own match and not_match examples that do not hold
}

// Explain reports every entry of the policy, in file order.
func (p *Policy) Explain() []EntryReport {
	out := make([]EntryReport, 0, len(p.Entries))
	for i := range p.Entries {
		out = append(out, p.explain(i))
	}
	return out
}

func (p *Policy) explain(i int) EntryReport {
	e := &p.Entries[i]
	r := EntryReport{Source: e.Source, Effect: e.Effect, Tool: e.Tool, Command: e.Command}
	if e.ByClass {
		r.Class = e.Class.String()
	}
	r.Never, r.Suggest = p.never(i)
	r.Examples = p.failedExamples(i)
	if e.Command == "" || r.Never != "" {
		return r
	}
	hits, misses := exampleCommands(e)
	for _, c := range hits {
		if p.commandMatches(i, c) && !containsString(r.Matches, c) {
			r.Matches = append(r.Matches, c)
		}
	}
	for _, c := range misses {
		if !p.commandMatches(i, c) && !containsString(r.Misses, c) {
			r.Misses = append(r.Misses, c)
		}
	}
	return r
}

// commandMatches holds a shell command against entry i's tool and
// command; a class the entry names is left aside.
func (p *Policy) commandMatches(i int, command string) bool {
	e := p.Entries[i]
	e.ByClass = false
	saved := p.Entries[i]
	p.Entries[i] = e
	defer func() { p.Entries[i] = saved }()
	st := &step{tool: "Bash", shell: true, command: command, script: shell.Parse(command)}
	return p.entryMatches(i, p.entryIndex(), st)
}

// shellKeywords begin a compound command, never a segment.
var shellKeywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "for": true, "while": true, "until": true,
	"do": true, "done": true, "case": true, "esac": true, "function": true, "select": true, "{": true, "}": true,
	"!": true, "[[": true, "]]": true, "time": true, "coproc": true,
}

// never says why entry i can never match any step as written, and what
// would, or "".
func (p *Policy) never(i int) (string, string) {
	e := &p.Entries[i]
	if e.invalid != "" {
		return e.invalid, ""
	}
	if e.Tool != "" && !strings.Contains(e.Tool, "*") && !shellName(e.Tool) && risk.KindOfTool(e.Tool) == risk.ToolUnknown {
		for k := risk.ToolShell; k <= risk.ToolMemory; k++ {
			for _, n := range risk.ToolNames(k) {
				if strings.EqualFold(n, e.Tool) {
					return "tool " + strconv.Quote(e.Tool) + " is no agent's tool: names are matched exactly, case included", "tool = " + strconv.Quote(n)
				}
			}
		}
	}
	if e.Tool != "" && e.Command != "" && !shellTool(e.Tool) {
		return "a command is only held against shell steps, and tool " + strconv.Quote(e.Tool) + " matches no shell tool", "drop the tool key, or the command"
	}
	if e.Command == "" {
		return "", ""
	}
	words := strings.Fields(e.Command)
	if len(words) == 0 {
		return "the command is empty", ""
	}
	if shellKeywords[words[0]] {
		return strconv.Quote(words[0]) + " is shell syntax, not a program: a step's segments never start with it", ""
	}
	// Held against itself as a step, a pattern that does not match is
	// one no step can match: a wrapper sayso peels, shell syntax, quotes
	// or an assignment. Plain words of a program that is no wrapper read
	// as themselves: the file is read for every step, so they are not
	// parsed again here.
	if !strings.ContainsAny(e.Command, ";&|<>()$`'\"\\{}=#~") && !program.Is(path.Base(words[0]), program.Wrapper) {
		return "", ""
	}
	if p.commandMatches(i, e.Command) {
		return "", ""
	}
	if strings.Contains(e.Command, "*") {
		return "", "" // a star word is not itself what it stands for
	}
	s := shell.Parse(e.Command)
	why := "sayso never reads a step's words as " + strconv.Quote(e.Command)
	suggest := ""
	switch {
	case strings.ContainsAny(e.Command, "'\"\\"):
		why += ": quotes and escapes are removed before a pattern is held against a step"
	case strings.ContainsAny(e.Command, ";&|<>()$`"):
		why += ": the pattern is held against one segment at a time, shell syntax never is one"
	case len(s.Segments) == 1 && len(s.Segments[0].Wrappers) > 0:
		why += ": sayso peels " + strings.Join(s.Segments[0].Wrappers, ", ") + " before matching, and matches what it runs"
		suggest = segmentText(&s.Segments[0])
	case len(s.Segments) == 1 && len(s.Segments[0].Assigns) > 0:
		why += ": a variable assignment is not a word of the command"
		suggest = segmentText(&s.Segments[0])
	}
	return why, suggest
}

func shellTool(pattern string) bool {
	for _, t := range risk.ToolNames(risk.ToolShell) {
		if toolMatch(pattern, t) {
			return true
		}
	}
	return false
}

func segmentText(s *shell.Segment) string {
	var ws []string
	for _, w := range s.Args {
		ws = append(ws, w.Value)
	}
	return strings.Join(ws, " ")
}

// failedExamples holds the file's own match and not_match examples of
// entry i against it.
func (p *Policy) failedExamples(i int) []string {
	e := &p.Entries[i]
	var out []string
	for _, c := range e.Match {
		if !p.commandMatches(i, c) {
			out = append(out, "match example "+strconv.Quote(c)+" does not match")
		}
	}
	for _, c := range e.NotMatch {
		if p.commandMatches(i, c) {
			out = append(out, "not_match example "+strconv.Quote(c)+" matches")
		}
	}
	return out
}

// exampleCommands are commands to hold against an entry: those it should
// match, and those it should not. Explain keeps only those the matcher
// agrees with.
func exampleCommands(e *Entry) (hits, misses []string) {
	words := strings.Fields(e.Command)
	concrete := make([]string, len(words))
	for i, w := range words {
		if w == "*" {
			w = "x"
		}
		concrete[i] = strings.ReplaceAll(w, "*", "x")
	}
	cmd := strings.Join(concrete, " ")
	hits = append(hits, cmd)
	if e.Effect == Allow {
		misses = append(misses, cmd+" --force", "cd . && "+cmd, "sudo "+cmd)
		return hits, misses
	}
	name, rest := concrete[0], concrete[1:]
	known := risk.ReadPattern(concrete).Known
	// Each option with the value that follows it, when the program's
	// options are not known; the operands apart.
	var opts [][]string
	var ops []string
	for j := 0; j < len(rest); j++ {
		w := rest[j]
		if !strings.HasPrefix(w, "-") || len(w) < 2 || w == "--" {
			ops = append(ops, w)
			continue
		}
		group := []string{w}
		if !known && !strings.Contains(w, "=") && j+1 < len(rest) && !strings.HasPrefix(rest[j+1], "-") {
			j++
			group = append(group, rest[j])
		}
		opts = append(opts, group)
	}
	if len(opts) > 0 && known {
		// Clusters split, then joined the other way round, then after
		// the operands.
		var split []string
		for _, g := range opts {
			o := g[0]
			if !strings.HasPrefix(o, "--") && len(o) > 2 && len(risk.ReadPattern([]string{name, o}).Options) == len(o)-1 {
				for _, c := range o[1:] {
					split = append(split, "-"+string(c))
				}
				continue
			}
			split = append(split, g...)
		}
		hits = append(hits, strings.Join(append(append([]string{name}, split...), ops...), " "))
		var rev []string
		for l := len(split) - 1; l >= 0; l-- {
			rev = append(rev, split[l])
		}
		if allShort(split) {
			hits = append(hits, name+" -"+joinLetters(rev)+" "+strings.Join(ops, " "))
		}
		hits = append(hits, strings.Join(append(append([]string{name}, ops...), rev...), " "))
	}
	switch name {
	case "git":
		hits = append(hits, "git -C . "+strings.Join(rest, " "))
	case "terraform", "tofu":
		hits = append(hits, name+" -chdir=infra "+strings.Join(rest, " "))
	case "kubectl", "helm":
		hits = append(hits, name+" --context prod "+strings.Join(rest, " "))
	}
	hits = append(hits, "sudo "+cmd, "bash -c '"+cmd+"'", "cd x && "+cmd+" more")
	var flat []string
	for _, g := range opts {
		flat = append(flat, g...)
	}
	if len(ops) > 0 && words[len(words)-1] != "*" {
		other := append(append([]string{name}, flat...), ops[:len(ops)-1]...)
		misses = append(misses, strings.Join(append(other, "other"), " "))
	}
	if len(opts) > 0 {
		misses = append(misses, strings.Join(append([]string{name}, ops...), " "))
	}
	if len(rest) > 0 {
		misses = append(misses, name+" --help")
	}
	return hits, misses
}

func allShort(opts []string) bool {
	for _, o := range opts {
		if len(o) != 2 || o[0] != '-' || o[1] == '-' {
			return false
		}
	}
	return len(opts) > 1
}

func joinLetters(opts []string) string {
	var b strings.Builder
	for _, o := range opts {
		b.WriteByte(o[1])
	}
	return b.String()
}
