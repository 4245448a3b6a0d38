package policy

import (
	"time"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Reviewer is the [reviewer] table of the person's policy file: which
// judge, if any, reads the person's words when a step in auto would ask.
// The zero value is no reviewer. The policy only reads the table; the
// reviewer package checks it whole and builds the backend.
type Reviewer struct {
	Kind    string        // "anthropic", "openai" or "command"; "" is none
	BaseURL string        // the endpoint's base URL
	Model   string        // the model an endpoint is asked for
	KeyEnv  string        // the environment variable holding the API key
	Timeout time.Duration // for one review; zero is the reviewer's default
	Command []string      // for kind command: the program and its arguments
	Source  Source        // where the table is
}

// reviewerKinds are the kinds a [reviewer] table may name.
var reviewerKinds = []string{"anthropic", "openai", "command"}

// reviewerKey reads one key of the [reviewer] table into f.settings. The
// project's file may not choose the judge of the person's words: the agent
// can write it. apply reports and drops it there.
func (f *fileParser) reviewerKey(key string, at unstable.Range, v *unstable.Node) {
	r := &f.settings.Reviewer
	if r.Source.File == "" {
		r.Source = f.source(at)
	}
	ok := false
	switch key {
	case "reviewer.kind":
		var s string
		if s, ok = f.str(at, key, v); ok {
			if ok = known(s, reviewerKinds); !ok {
				f.reviewerProblem(at, "reviewer.kind: unknown kind %q (want anthropic, openai or command)", s)
			}
			r.Kind = s
		}
	case "reviewer.base_url":
		r.BaseURL, ok = f.str(at, key, v)
	case "reviewer.model":
		r.Model, ok = f.str(at, key, v)
	case "reviewer.key_env":
		r.KeyEnv, ok = f.str(at, key, v)
	case "reviewer.timeout":
		var s string
		if s, ok = f.str(at, key, v); ok {
			d, err := time.ParseDuration(s)
			if ok = err == nil && d > 0; !ok {
				f.reviewerProblem(at, "reviewer.timeout: %q is not a duration", s)
			}
			r.Timeout = d
		}
	case "reviewer.command":
		r.Command, ok = f.strs(at, key, v)
	default:
		f.reviewerProblem(at, "unknown key %q in [reviewer]", key)
	}
	if !ok {
		// A reviewer half read is no reviewer: auto asks.
		f.set["reviewer.broken"] = true
		return
	}
	f.set["reviewer"] = true
}

func (f *fileParser) reviewerProblem(at unstable.Range, format string, args ...any) {
	f.problem(at, format+", no reviewer is used", args...)
}

// applyReviewer keeps the [reviewer] table of a whole, parsed file.
func (f *fileParser) applyReviewer() {
	if !f.set["reviewer"] && !f.set["reviewer.broken"] {
		return
	}
	r := f.settings.Reviewer
	switch {
	case f.project:
		f.pol.Problems = append(f.pol.Problems, Problem{Source: r.Source, Text: "[reviewer] in the project's file is ignored: only the person's own file chooses who reads their words"})
	case f.set["reviewer.broken"]:
		f.pol.Reviewer = Reviewer{}
	case r.Kind == "":
		f.pol.Problems = append(f.pol.Problems, Problem{Source: r.Source, Text: "[reviewer] names no kind (anthropic, openai or command), no reviewer is used"})
		f.pol.Reviewer = Reviewer{}
	default:
		f.pol.Reviewer = r
	}
}

func known(s string, names []string) bool {
	for _, n := range names {
		if s == n {
			return true
		}
	}
	return false
}
