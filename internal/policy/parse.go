package policy

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/rule"
)

// Parse reads the person's policy file name holding data. It never fails:
// what it cannot read is a Problem. A file that breaks part way keeps the
// deny and ask entries and the deny and require_approval rows read before
// the break, drops every allow and auto_approve, and leaves every setting
// at its default.
func Parse(name string, data []byte) *Policy {
	p := Defaults()
	p.add(name, data, false)
	return p
}

// AddProject adds the project's policy file, <root>/.sayso/policy.toml. The
// agent can write that file, so it may only tighten: its ask and deny
// entries are kept; everything else is ignored and reported.
func (p *Policy) AddProject(name string, data []byte) {
	p.add(name, data, true)
}

// fileParser reads one policy file into a Policy.
type fileParser struct {
	pol      *Policy
	name     string
	project  bool
	parser   unstable.Parser
	lines    []int // offsets of each newline, for line numbers
	table    []string
	entry    int // index into pol.Entries of the [[…]] being read; -1 when none
	settings Policy
	set      map[string]bool // settings the file gave
	entries  int             // entries before this file
	rows     int
}

func (p *Policy) add(name string, data []byte, project bool) {
	f := &fileParser{pol: p, name: name, project: project, entry: -1, set: map[string]bool{}, entries: len(p.Entries), rows: len(p.Autonomy)}
	for i, b := range data {
		if b == '\n' {
			f.lines = append(f.lines, i)
		}
	}
	f.parser.Reset(data)
	for f.parser.NextExpression() {
		f.expression(f.parser.Expression())
	}
	if broken := f.parser.Error(); broken != nil {
		f.broken(broken)
	} else {
		f.apply()
		p.Prepare()
	}
	f.checkEntries()
}

// checkEntries reports the file's entries that can never match as
// written and their own examples that do not hold; they are kept.
func (f *fileParser) checkEntries() {
	p := f.pol
	for i := f.entries; i < len(p.Entries); i++ {
		if why, _ := p.never(i); why != "" {
			p.Problems = append(p.Problems, Problem{Source: p.Entries[i].Source, Text: "entry can never match: " + why})
		}
		for _, why := range p.failedExamples(i) {
			p.Problems = append(p.Problems, Problem{Source: p.Entries[i].Source, Text: why})
		}
	}
}

// line is the line of offset.
func (f *fileParser) line(r unstable.Range) int {
	return sort.SearchInts(f.lines, int(r.Offset)) + 1
}

func (f *fileParser) source(r unstable.Range) Source { return Source{File: f.name, Line: f.line(r)} }

func (f *fileParser) problem(r unstable.Range, format string, args ...any) {
	f.pol.Problems = append(f.pol.Problems, Problem{Source: f.source(r), Text: fmt.Sprintf(format, args...)})
}

func keyOf(n *unstable.Node) ([]string, unstable.Range) {
	var parts []string
	var at unstable.Range
	it := n.Key()
	for it.Next() {
		k := it.Node()
		if parts == nil {
			at = k.Raw
		}
		parts = append(parts, string(k.Data))
	}
	return parts, at
}

func (f *fileParser) expression(n *unstable.Node) {
	switch n.Kind {
	case unstable.Table:
		f.table, _ = keyOf(n)
		f.entry = -1
	case unstable.ArrayTable:
		key, at := keyOf(n)
		f.table, f.entry = key, -1
		if len(key) != 1 {
			f.problem(at, "unknown table [[%s]], ignored", strings.Join(key, "."))
			return
		}
		var eff Decision
		switch key[0] {
		case "allow":
			eff = Allow
		case "ask":
			eff = Ask
		case "deny":
			eff = Deny
		default:
			f.problem(at, "unknown table [[%s]], ignored", key[0])
			return
		}
		f.pol.Entries = append(f.pol.Entries, Entry{Effect: eff, Source: f.source(at)})
		f.entry = len(f.pol.Entries) - 1
	case unstable.KeyValue:
		key, at := keyOf(n)
		f.keyValue(append(append([]string(nil), f.table...), key...), at, n.Value())
	}
}

func (f *fileParser) keyValue(key []string, at unstable.Range, v *unstable.Node) {
	full := strings.Join(key, ".")
	switch {
	case f.entry >= 0 && len(key) == 2:
		f.entryField(&f.pol.Entries[f.entry], key[1], at, v)
	case len(key) >= 2 && key[0] == "agents":
		f.agentKey(key, at, v)
	case len(key) == 3 && key[0] == "autonomy":
		s, ok := f.str(at, full, v)
		if !ok {
			return
		}
		val, err := ParseAutonomy(s)
		if err != nil {
			f.problem(at, "%s: %v, ignored", full, err)
			return
		}
		f.pol.Autonomy = append(f.pol.Autonomy, Row{Agent: key[1], Pattern: key[2], Value: val, Source: f.source(at)})
	case len(key) == 2 && key[0] == "classes":
		s, ok := f.str(at, full, v)
		if !ok {
			return
		}
		c, err := risk.ParseClass(s)
		if err != nil || risk.Safe(risk.Of(c)) {
			f.problem(at, "%s: %q is not a class a tool can be put in, ignored", full, s)
			return
		}
		f.pol.Classes = append(f.pol.Classes, ClassPattern{Pattern: key[1], Class: c, Source: f.source(at)})
	default:
		f.setting(full, at, v)
	}
}

func (f *fileParser) entryField(e *Entry, field string, at unstable.Range, v *unstable.Node) {
	if field == "match" || field == "not_match" {
		if xs, ok := f.strs(at, field, v); ok && field == "match" {
			e.Match = xs
		} else if ok {
			e.NotMatch = xs
		}
		return
	}
	s, ok := f.str(at, field, v)
	if !ok {
		return
	}
	switch field {
	case "tool":
		e.Tool = s
	case "command":
		e.Command = s
		e.words = strings.Fields(s)
	case "class":
		c, err := risk.ParseClass(s)
		if err != nil {
			e.invalid = err.Error() + ", entry ignored"
			return
		}
		e.Class, e.ByClass = c, true
	default:
		f.problem(at, "unknown key %q in an entry, ignored", field)
	}
}

// setting reads a top-level setting into f.settings; apply keeps it once the
// whole file has parsed.
func (f *fileParser) setting(key string, at unstable.Range, v *unstable.Node) {
	if strings.HasPrefix(key, "reviewer.") {
		f.reviewerKey(key, at, v)
		return
	}
	k, known := settingKeys[key]
	if !known {
		f.problem(at, "unknown key %q, ignored", key)
		return
	}
	if !k.read(f, &f.settings, at, key, v) {
		return
	}
	f.set[key] = true
	if f.project {
		f.problem(at, "%s in the project's file is ignored: only the person's own file sets it", key)
	}
}

func (f *fileParser) str(at unstable.Range, key string, v *unstable.Node) (string, bool) {
	if v.Kind != unstable.String {
		f.problem(at, "%s: want a string, ignored", key)
		return "", false
	}
	return string(v.Data), true
}

func (f *fileParser) boolean(at unstable.Range, key string, v *unstable.Node) (bool, bool) {
	if v.Kind != unstable.Bool {
		f.problem(at, "%s: want true or false, ignored", key)
		return false, false
	}
	return string(v.Data) == "true", true
}

func (f *fileParser) count(at unstable.Range, key string, v *unstable.Node) (int, bool) {
	if v.Kind == unstable.Integer {
		n, err := strconv.ParseInt(strings.ReplaceAll(string(v.Data), "_", ""), 0, 32)
		if err == nil && n > 0 {
			return int(n), true
		}
	}
	f.problem(at, "%s: want a positive whole number, ignored", key)
	return 0, false
}

func (f *fileParser) strs(at unstable.Range, key string, v *unstable.Node) ([]string, bool) {
	if v.Kind != unstable.Array {
		f.problem(at, "%s: want a list of strings, ignored", key)
		return nil, false
	}
	out := []string{}
	it := v.Children()
	for it.Next() {
		n := it.Node()
		if n.Kind != unstable.String {
			f.problem(at, "%s: want a list of strings, ignored", key)
			return nil, false
		}
		out = append(out, string(n.Data))
	}
	return out, true
}

// apply keeps what a whole, parsed file may give: the person's file gives
// everything; the project's file only its ask and deny entries.
func (f *fileParser) apply() {
	p := f.pol
	kept := p.Entries[:f.entries]
	for _, e := range p.Entries[f.entries:] {
		if why := f.check(e); why != "" {
			p.Problems = append(p.Problems, Problem{Source: e.Source, Text: why})
			continue
		}
		kept = append(kept, e)
	}
	p.Entries = kept
	rows := p.Autonomy[:f.rows]
	for _, r := range p.Autonomy[f.rows:] {
		if f.project && r.Value == AutoApprove {
			p.Problems = append(p.Problems, Problem{Source: r.Source, Text: "auto_approve in the project's file is ignored: it may only tighten"})
			continue
		}
		rows = append(rows, r)
	}
	p.Autonomy = rows
	f.applyReviewer()
	if f.project {
		for _, c := range p.Classes {
			if c.Source.File == f.name {
				p.Problems = append(p.Problems, Problem{Source: c.Source, Text: "[classes] in the project's file is ignored: only the person's own file sets it"})
			}
		}
		p.Classes = dropFrom(p.Classes, f.name)
		return
	}
	for key, k := range settingKeys {
		if f.set[key] {
			k.keep(p, &f.settings)
		}
	}
}

func dropFrom(cs []ClassPattern, file string) []ClassPattern {
	out := cs[:0]
	for _, c := range cs {
		if c.Source.File != file {
			out = append(out, c)
		}
	}
	return out
}

// check says why an entry of a parsed file is not kept, or "".
func (f *fileParser) check(e Entry) string {
	switch {
	case e.invalid != "":
		return e.invalid
	case f.project && e.Effect == Allow:
		return "allow in the project's file is ignored: the agent can write that file, so it may only add ask and deny"
	case e.Effect == Allow && e.Tool == "" && e.Command == "" && !e.ByClass:
		return "allow entry names no tool, command or class, ignored"
	case e.Effect == Allow && e.ByClass && !risk.Safe(risk.Of(e.Class)) && e.Class.Kind() != risk.KindRisky:
		return "allow entry for class " + e.Class.String() + " is ignored: no entry lifts a ceiling or never class by its class"
	case e.Effect == Allow && e.Command != "":
		if why := allowPattern(e.words); why != "" {
			return "allow entry " + strconv.Quote(e.Command) + " is ignored: " + why
		}
	}
	return ""
}

// broken keeps, from a file that failed to parse, only what tightens.
func (f *fileParser) broken(err error) {
	p := f.pol
	at := unstable.Range{Offset: uint32(len(f.parser.Data()))}
	var perr *unstable.ParserError
	if errors.As(err, &perr) && perr.Highlight != nil {
		at = f.parser.Range(perr.Highlight)
	}
	kept := p.Entries[:f.entries]
	allows := 0
	for i, e := range p.Entries[f.entries:] {
		switch {
		case f.entry == f.entries+i:
			// The break cut this entry off: it did not parse whole.
			p.Problems = append(p.Problems, Problem{Source: e.Source, Text: "entry cut off by the error, ignored"})
		case e.Effect == Allow:
			allows++
		case e.invalid != "":
			p.Problems = append(p.Problems, Problem{Source: e.Source, Text: e.invalid})
		default:
			kept = append(kept, e)
		}
	}
	p.Entries = kept
	rows := p.Autonomy[:f.rows]
	for _, r := range p.Autonomy[f.rows:] {
		if r.Value != AutoApprove {
			rows = append(rows, r)
		}
	}
	p.Autonomy = rows
	if f.set["protected_paths"] {
		p.ProtectedPaths = append(p.ProtectedPaths, f.settings.ProtectedPaths...)
	}
	if f.set["show_each_time"] && !f.project {
		p.ShowEachTime |= f.settings.ShowEachTime // it only asks more
	}
	p.Problems = append(p.Problems, Problem{
		Source: f.source(at),
		Text: fmt.Sprintf("%s does not parse (%v): kept its %d deny and ask entries read before the error, dropped %d allow entries, every auto_approve row and every setting",
			f.name, err, len(kept)-f.entries, allows),
	})
	p.Prepare()
}

// agentKey reads [agents.NAME] KEY = value: rule_unit, the unit of the
// rule that agent's cards offer. Only the person's own file sets it.
func (f *fileParser) agentKey(key []string, at unstable.Range, v *unstable.Node) {
	full := strings.Join(key, ".")
	if len(key) != 3 || key[2] != "rule_unit" {
		f.problem(at, "unknown key %q, ignored", full)
		return
	}
	s, ok := f.str(at, full, v)
	if !ok {
		return
	}
	u, err := rule.ParseUnit(s)
	if err != nil {
		f.problem(at, "%s: %v, ignored", full, err)
		return
	}
	if f.project {
		f.problem(at, "%s in the project's file is ignored: only the person's own file sets it", full)
		return
	}
	if f.pol.Agents == nil {
		f.pol.Agents = map[string]Agent{}
	}
	f.pol.Agents[key[1]] = Agent{RuleUnit: u, Source: f.source(at)}
}
