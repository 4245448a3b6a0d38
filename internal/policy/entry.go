package policy

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// step is what entries are matched against.
type step struct {
	tool    string // the tool's name; "Bash" for a shell command
	shell   bool
	command string // the shell command line
	script  *shell.Script
	reads   []risk.Reading // each segment as its program reads it, for deny and ask patterns
	classes risk.Set
}

// entryIndex finds the entries that may match a step without trying them
// all: entries with a command pattern by its first word, the rest in turn.
type entryIndex struct {
	byProgram map[string][]int
	other     []int
	words     [][]string
	reads     []risk.Reading // each deny or ask pattern, read as its program reads it
}

func (p *Policy) entryIndex() *entryIndex {
	if p.index != nil {
		return p.index
	}
	return buildIndex(p.Entries)
}

// Prepare indexes the entries for Evaluate. Parse and AddProject call it;
// a Policy built by hand should too, or each step pays for indexing.
func (p *Policy) Prepare() { p.index = buildIndex(p.Entries) }

func buildIndex(entries []Entry) *entryIndex {
	ix := &entryIndex{byProgram: map[string][]int{}, words: make([][]string, len(entries)), reads: make([]risk.Reading, len(entries))}
	for i, e := range entries {
		ix.words[i] = strings.Fields(e.Command)
		if e.Effect != Allow {
			ix.reads[i] = risk.ReadPattern(ix.words[i])
		}
		if len(ix.words[i]) > 0 && !strings.Contains(ix.words[i][0], "*") {
			name := path.Base(ix.words[i][0])
			ix.byProgram[name] = append(ix.byProgram[name], i)
		} else {
			ix.other = append(ix.other, i)
		}
	}
	return ix
}

// matchEntries returns the entries of effect eff that match st, in file
// order.
func (p *Policy) matchEntries(eff Decision, st *step) []int {
	if p == nil || len(p.Entries) == 0 {
		return nil
	}
	ix := p.entryIndex()
	var out []int
	try := func(i int) {
		if p.Entries[i].Effect == eff && !containsInt(out, i) && p.entryMatches(i, ix, st) {
			out = append(out, i)
		}
	}
	for _, i := range ix.other {
		try(i)
	}
	if st.shell && st.script != nil {
		for si := range st.script.Segments {
			seg := &st.script.Segments[si]
			if len(seg.Args) > 0 && !seg.Args[0].Literal {
				// A program named at run time may be any entry's.
				for _, is := range ix.byProgram {
					for _, i := range is {
						try(i)
					}
				}
				continue
			}
			for _, i := range ix.byProgram[seg.Name()] {
				try(i)
			}
		}
	}
	if len(out) > 1 {
		sortInts(out)
	}
	return out
}

func (p *Policy) entryMatches(i int, ix *entryIndex, st *step) bool {
	e := &p.Entries[i]
	switch {
	case e.invalid != "":
		return false
	case e.Tool != "" && !toolMatch(e.Tool, st.tool):
		return false
	case e.Tool == "" && e.Command != "" && !st.shell:
		return false
	case e.ByClass && !st.classes.Has(e.Class):
		return false
	}
	if e.Command == "" {
		return true
	}
	if !st.shell || st.script == nil {
		return false
	}
	if e.Effect == Allow {
		return exactCommand(ix.words[i], st.script)
	}
	if st.reads == nil {
		st.reads = make([]risk.Reading, len(st.script.Segments))
		for si := range st.script.Segments {
			st.reads[si] = risk.ReadCommand(&st.script.Segments[si])
		}
	}
	for si := range st.reads {
		r := &st.reads[si]
		if r.Program == "\x00" {
			// Named at run time, the program may be the pattern's: its
			// words are read as that program reads them.
			as := risk.ReadCommandAs(&st.script.Segments[si], ix.reads[i].Program)
			r = &as
		}
		if readingMatch(&ix.reads[i], r) {
			return true
		}
	}
	return false
}

// exactCommand holds an allow pattern against the whole step, as a rule of
// unit "command" is held: one simple command with nothing around it, its
// words one for one; only the last may end in *, which stands for at least
// one character and never for ":" or "..".
func exactCommand(pattern []string, s *shell.Script) bool {
	if len(s.Segments) != 1 || len(s.Opaque) > 0 {
		return false
	}
	seg := &s.Segments[0]
	if len(seg.Via) > 0 || len(seg.Wrappers) > 0 || len(seg.Redirs) > 0 || len(seg.Assigns) > 0 || len(seg.Opaque) > 0 || seg.Many || seg.Loop {
		return false
	}
	if len(seg.Args) != len(pattern) {
		return false
	}
	for i, w := range seg.Args {
		if !w.Plain() || w.Quoted || w.Escaped {
			return false
		}
		p := pattern[i]
		if i == len(pattern)-1 && strings.HasSuffix(p, "*") {
			prefix := p[:len(p)-1]
			rest, ok := strings.CutPrefix(w.Value, prefix)
			if !ok || rest == "" || strings.Contains(rest, ":") || strings.Contains(rest, "..") {
				return false
			}
			continue
		}
		if w.Value != p {
			return false
		}
	}
	return true
}

// allowPattern says why an allow pattern is broader than the rule language
// lets a person's words be, or "".
func allowPattern(words []string) string {
	if len(words) == 0 {
		return "the command is empty"
	}
	for i, w := range words {
		if strings.ContainsAny(w, ";&|<>$`'\"\\(){}~#?[") {
			return "it holds shell syntax (" + w + ")"
		}
		if j := strings.IndexByte(w, '*'); j >= 0 && (i != len(words)-1 || j != len(w)-1 || j == 0) {
			return "* may only end the last word, after a name that pins it down"
		}
	}
	if why := program.Broad(words); why != "" {
		return "no allow starts with " + words[0] + ": " + why
	}
	if len(words) == 1 {
		return "a program alone is too broad"
	}
	return ""
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
