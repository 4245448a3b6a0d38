package review

import (
	"errors"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

func TestParseVerdict(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Answer
		ok   bool
	}{
		{`{"verdict":"allow","reason":"asked","quote":"push it"}`, Allow, true},
		{` {"verdict": "ask", "reason": "not asked"}` + "\n", Ask, true},
		{`{"verdict":"ask","reason":"not asked","quote":""}`, Ask, true},
		{"```json\n{\"verdict\":\"allow\",\"reason\":\"asked\",\"quote\":\"push it\"}\n```", Allow, true},
		{"```\n{\"verdict\":\"allow\",\"reason\":\"asked\",\"quote\":\"push it\"}\n```", Allow, true},
		{"```json\n{\"verdict\":\"allow\",\"reason\":\"asked\",\"quote\":\"push it\"}", Ask, false},
		{`Sure! {"verdict":"allow","reason":"asked","quote":"push it"}`, Ask, false},
		{`{"verdict":"allow","reason":"asked","quote":"push it"} and more`, Ask, false},
		{`{"verdict":"allow","reason":"asked","quote":"push it"}{"verdict":"ask"}`, Ask, false},
		{`{"verdict":"ALLOW","reason":"asked","quote":"push it"}`, Ask, false},
		{`{"verdict":"yes","reason":"asked","quote":"push it"}`, Ask, false},
		{`{"verdict":"allow","quote":"push it"}`, Ask, false},
		{`{"verdict":"allow","reason":"  ","quote":"push it"}`, Ask, false},
		{`{"verdict":"allow","reason":"asked","quote":"push it","confidence":"high"}`, Ask, false},
		{`{"verdict":"ask","verdict":"allow","reason":"asked","quote":"push it"}`, Ask, false},
		{`{"verdict":true,"reason":"asked"}`, Ask, false},
		{`{"verdict":"allow","reason":{"why":"asked"}}`, Ask, false},
		{`{"verdict":"allow","reason":"asked","quote":null}`, Ask, false},
		{`["allow"]`, Ask, false},
		{`"allow"`, Ask, false},
		{``, Ask, false},
		{`allow`, Ask, false},
		{`{"verdict":"allow","reason":"asked"`, Ask, false},
	} {
		v, err := parseVerdict(c.in)
		if (err == nil) != c.ok || v.Answer != c.want {
			t.Errorf("parseVerdict(%q) = %v, %v; want %v, ok %v", c.in, v.Answer, err, c.want, c.ok)
		}
		if err != nil && !errors.Is(err, ErrMalformed) {
			t.Errorf("parseVerdict(%q) error %v is not ErrMalformed", c.in, err)
		}
	}
}

func TestVerdictZeroIsAsk(t *testing.T) {
	var v Verdict
	if v.Answer != Ask || Answer(0) != Ask {
		t.Fatal("the zero verdict must be ask")
	}
	if _, err := ParseAnswer("deny"); err == nil {
		t.Error(`ParseAnswer("deny") succeeded`)
	}
}

func TestReasonIsCleaned(t *testing.T) {
	v, err := parseVerdict(`{"verdict":"ask","reason":"a\u001b[31m red\nline` + strings.Repeat("x", 2000) + `"}`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(v.Reason, "\x1b\n") || len([]rune(v.Reason)) > maxReason+1 {
		t.Errorf("reason kept control characters or its length: %q", v.Reason[:40])
	}
}

func TestHold(t *testing.T) {
	words := []OwnerWord{
		{Text: "fix the flaky test, push the fix", FromParent: true},
		{Text: "then push my branch to origin"},
		{Text: "I then pushed it"},
	}
	// Words the agent echoes beside the push name nothing it does.
	echoed := &Input{OwnerWords: words, Step: Step{Tool: "Bash", Command: "git push origin main && echo fix the flaky test"}, Classes: risk.Of(risk.RemoteWrite)}
	if got := hold(Verdict{Answer: Allow, Reason: "r", Quote: "fix the flaky test"}, echoed); got.Answer != Ask {
		t.Errorf("a quote named only by words the step echoes = %+v, want ask", got)
	}
	for _, c := range []struct {
		v          Verdict
		want       Answer
		fromParent bool
		err        error
	}{
		{Verdict{Answer: Allow, Reason: "r", Quote: "push my branch to origin"}, Allow, false, nil},
		{Verdict{Answer: Allow, Reason: "r", Quote: " push my branch "}, Allow, false, nil},
		{Verdict{Answer: Allow, Reason: "r", Quote: "fix the flaky test"}, Ask, false, ErrQuote}, // names nothing of the push
		{Verdict{Answer: Allow, Reason: "r", Quote: "push the fix"}, Allow, true, nil},
		{Verdict{Answer: Allow, Reason: "r", Quote: "go"}, Ask, false, ErrQuote},            // too short
		{Verdict{Answer: Allow, Reason: "r", Quote: "push"}, Ask, false, ErrQuote},          // one word
		{Verdict{Answer: Allow, Reason: "r", Quote: "sh my bra"}, Ask, false, ErrQuote},     // cuts words
		{Verdict{Answer: Allow, Reason: "r", Quote: "my branch to"}, Ask, false, ErrQuote},  // names nothing of the push
		{Verdict{Answer: Allow, Reason: "r", Quote: "branch to origin"}, Allow, false, nil}, // its target
		{Verdict{Answer: Allow, Reason: "r", Quote: "then pushed it"}, Allow, false, nil},

		{Verdict{Answer: Allow, Reason: "r", Quote: "push my branch to main"}, Ask, false, ErrQuote},
		{Verdict{Answer: Allow, Reason: "r", Quote: "Push my branch to origin"}, Ask, false, ErrQuote},
		{Verdict{Answer: Allow, Reason: "r", Quote: "test then push"}, Ask, false, ErrQuote}, // spans two words
		{Verdict{Answer: Allow, Reason: "r", Quote: ""}, Ask, false, ErrQuote},
		{Verdict{Answer: Allow, Reason: "r", Quote: "   "}, Ask, false, ErrQuote},
		{Verdict{Answer: Ask, Reason: "r", Quote: "push my branch to origin"}, Ask, false, nil},
	} {
		got := hold(c.v, &Input{OwnerWords: words, Step: Step{Tool: "Bash", Command: "git push origin feature/login"}, Classes: risk.Of(risk.RemoteWrite)})
		if got.Answer != c.want || got.FromParent != c.fromParent || !errors.Is(got.Err, c.err) || (c.err == nil) != (got.Err == nil) {
			t.Errorf("hold(%+v) = %+v, want %v from_parent %v err %v", c.v, got, c.want, c.fromParent, c.err)
		}
		if got.Answer == Ask && got.Quote != "" {
			t.Errorf("hold(%+v) kept a quote on ask", c.v)
		}
	}
}
