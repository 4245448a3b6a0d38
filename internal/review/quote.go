package review

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// A quote is believed only when it carries meaning: a span of whole words
// of one of the person's messages, at least quoteWords words and
// quoteLetters letters or digits long, one word of which names what the
// step does or its target. "go", "sh my bra" or "let's go, then" let
// nothing through, whatever the person typed around them.
const (
	quoteWords   = 2
	quoteLetters = 6
)

// quoteWhy says why q, found in text, is not a quote that carries meaning
// about the step in, or "".
func quoteWhy(q, text string, in *Input) string {
	words := wordsOf(q)
	letters := 0
	for _, w := range words {
		letters += utf8.RuneCountInString(w)
	}
	switch {
	case !wholeWords(q, text):
		return "the quote cuts the person's words"
	case len(words) < quoteWords || letters < quoteLetters:
		return "the quote is too short to carry meaning"
	}
	names := stepNames(in)
	for _, w := range words {
		if stopWords[w] {
			continue
		}
		for n := range names {
			if w == n || len(n) >= 4 && strings.HasPrefix(w, n) || len(w) >= 4 && strings.HasPrefix(n, w) {
				return ""
			}
		}
	}
	return "the quote names neither what the step does nor its target"
}

// wholeWords reports whether q occurs in text starting and ending at word
// boundaries.
func wholeWords(q, text string) bool {
	for from := 0; from <= len(text); {
		i := strings.Index(text[from:], q)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(q)
		first, _ := utf8.DecodeRuneInString(q)
		last, _ := utf8.DecodeLastRuneInString(q)
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if (i == 0 || !wordRune(first) || !wordRune(before)) && (end == len(text) || !wordRune(last) || !wordRune(after)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		from = i + size
	}
	return false
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// wordsOf splits s into lowercase words of letters and digits.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// stopWords name nothing about a step.
var stopWords = map[string]bool{
	"the": true, "and": true, "to": true, "it": true, "a": true, "an": true, "of": true, "in": true, "on": true,
	"my": true, "me": true, "is": true, "be": true, "do": true, "go": true, "ok": true, "yes": true, "please": true,
	"then": true, "now": true, "that": true, "this": true, "with": true, "for": true, "you": true, "can": true,
	"lets": true, "let": true, "s": true, "just": true, "all": true, "run": true,
}

// classWords are the words a person uses for what a class of step does.
var classWords = map[risk.Class][]string{
	risk.RemoteWrite:     {"push", "publish", "comment", "pr", "upload", "remote", "issue"},
	risk.Merge:           {"merge", "land"},
	risk.ForceRemote:     {"force", "overwrite", "rewrite", "delete"},
	risk.NewRemote:       {"remote", "url"},
	risk.Publish:         {"publish", "release", "upload"},
	risk.Deploy:          {"deploy", "apply", "ship", "release", "rollout", "upgrade", "install"},
	risk.Destructive:     {"delete", "remove", "drop", "wipe", "reset", "clean", "destroy", "erase", "discard", "truncate"},
	risk.ContainerRemove: {"remove", "delete", "prune", "clean", "container", "image"},
	risk.Privilege:       {"sudo", "root", "admin", "privilege"},
	risk.Network:         {"fetch", "download", "get", "curl", "open", "visit", "read"},
	risk.Exfil:           {"send", "upload", "post", "share"},
	risk.InstructionPatch: {"instructions", "instruction", "hook", "hooks", "config",
		"settings"},
	risk.Parallelize:  {"parallel", "agents", "agent", "subagent", "subagents", "spawn"},
	risk.DownloadExec: {"install", "script", "run"},
}

// stepNames are the words that name what the step does or its target:
// the words of its command (each split at punctuation: feature/login is
// feature and login), its tool's name and the words of its input, and
// the words a person uses for its classes.
func stepNames(in *Input) map[string]bool {
	out := map[string]bool{}
	add := func(s string) {
		for _, w := range wordsOf(s) {
			if len(w) >= 2 && !stopWords[w] {
				out[w] = true
			}
		}
	}
	if in.Step.Command != "" {
		// A program that only looks or prints (echo, cat, grep) names
		// nothing the step does: words the agent echoes beside a push do
		// not make it the push the person asked for.
		segs := shell.Parse(in.Step.Command).Segments
		acts := false
		for _, seg := range segs {
			acts = acts || !program.Is(seg.Name(), program.Looks)
		}
		for _, seg := range segs {
			if acts && program.Is(seg.Name(), program.Looks) {
				continue
			}
			for _, a := range seg.Args {
				if a.Literal {
					add(a.Value)
				}
			}
		}
	}
	add(strings.ReplaceAll(in.Step.Tool, "_", " "))
	if len(in.Step.Input) > 0 {
		var v any
		if json.Unmarshal(in.Step.Input, &v) == nil {
			addStrings(v, add)
		}
	}
	for _, c := range in.Classes.Classes() {
		for _, w := range classWords[c] {
			out[w] = true
		}
	}
	return out
}

func addStrings(v any, add func(string)) {
	switch x := v.(type) {
	case string:
		add(x)
	case []any:
		for _, e := range x {
			addStrings(e, add)
		}
	case map[string]any:
		for _, e := range x {
			addStrings(e, add)
		}
	}
}
