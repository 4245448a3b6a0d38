package policy

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseReviewer(t *testing.T) {
	p := parsed(t, `
default_mode = "auto"

[reviewer]
kind = "openai"
base_url = "http://127.0.0.1:8080"
model = "judge-1"
key_env = "JUDGE_KEY"
timeout = "5s"
`)
	if len(p.Problems) > 0 {
		t.Fatalf("problems: %v", p.Problems)
	}
	want := Reviewer{Kind: "openai", BaseURL: "http://127.0.0.1:8080", Model: "judge-1", KeyEnv: "JUDGE_KEY", Timeout: 5 * time.Second}
	got := p.Reviewer
	if got.Source.Line != 5 {
		t.Errorf("reviewer source = %v, want line 5", got.Source)
	}
	got.Source = Source{}
	if !equalReviewer(got, want) {
		t.Errorf("reviewer = %+v, want %+v", got, want)
	}

	p = parsed(t, "[reviewer]\nkind = \"command\"\ncommand = [\"judge\", \"--strict\"]\n")
	if p.Reviewer.Kind != "command" || !slices.Equal(p.Reviewer.Command, []string{"judge", "--strict"}) || len(p.Problems) > 0 {
		t.Errorf("command reviewer = %+v, problems %v", p.Reviewer, p.Problems)
	}
	if d := Defaults(); d.Reviewer.Kind != "" {
		t.Errorf("the default has a reviewer: %+v", d.Reviewer)
	}
}

func equalReviewer(a, b Reviewer) bool {
	return a.Kind == b.Kind && a.BaseURL == b.BaseURL && a.Model == b.Model && a.KeyEnv == b.KeyEnv &&
		a.Timeout == b.Timeout && slices.Equal(a.Command, b.Command) && a.Source == b.Source
}

// A reviewer the file does not state whole is no reviewer: auto asks.
func TestParseReviewerBroken(t *testing.T) {
	tests := []struct{ src, problem string }{
		{"[reviewer]\nkind = \"gpt\"\nmodel = \"m\"", `unknown kind "gpt"`},
		{"[reviewer]\nkind = \"openai\"\nmodel = \"m\"\ntimeout = \"soon\"", `"soon" is not a duration`},
		{"[reviewer]\nkind = \"openai\"\nmodel = 7", "want a string"},
		{"[reviewer]\nkind = \"command\"\ncommand = \"judge --strict\"", "want a list of strings"},
		{"[reviewer]\nkind = \"command\"\nprompt = \"be nice\"", `unknown key "reviewer.prompt" in [reviewer]`},
		{"[reviewer]\nmodel = \"m\"", "names no kind"},
	}
	for _, tt := range tests {
		p := parsed(t, tt.src)
		if p.Reviewer.Kind != "" {
			t.Errorf("Parse(%q): reviewer = %+v, want none", tt.src, p.Reviewer)
		}
		if !hasProblem(p, tt.problem) {
			t.Errorf("Parse(%q): problems %v, want one holding %q", tt.src, p.Problems, tt.problem)
		}
	}
	// A file that does not parse gives no setting, and no reviewer.
	p := parsed(t, "[reviewer]\nkind = \"command\"\ncommand = [\"judge\"]\n[[deny]]\ncommand = \"x\"\nbroken")
	if p.Reviewer.Kind != "" {
		t.Errorf("a broken file kept its reviewer: %+v", p.Reviewer)
	}
}

// The agent can write the project's file: it may not choose who judges
// the person's words, nor switch the person's reviewer off.
func TestParseReviewerProject(t *testing.T) {
	p := parsed(t, "[reviewer]\nkind = \"command\"\ncommand = [\"judge\"]\n")
	p.AddProject("/p/.sayso/policy.toml", []byte("[reviewer]\nkind = \"command\"\ncommand = [\"/p/yes-man\"]\n"))
	if !slices.Equal(p.Reviewer.Command, []string{"judge"}) {
		t.Errorf("the project's file changed the reviewer: %+v", p.Reviewer)
	}
	if !hasProblem(p, "[reviewer] in the project's file is ignored") {
		t.Errorf("problems %v, want the project's [reviewer] reported", p.Problems)
	}
}

func hasProblem(p *Policy, text string) bool {
	for _, pr := range p.Problems {
		if strings.Contains(pr.Text, text) {
			return true
		}
	}
	return false
}
