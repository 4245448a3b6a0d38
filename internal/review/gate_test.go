package review

import (
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

func TestMay(t *testing.T) {
	open := Situation{Auto: true, WouldAsk: true}
	with := func(f func(*Situation, *Input)) (Situation, Input) {
		s, in := open, testInput()
		f(&s, &in)
		return s, in
	}
	for _, c := range []struct {
		name string
		f    func(*Situation, *Input)
		want bool
		why  string
	}{
		{"a push in auto that would ask", func(*Situation, *Input) {}, true, "reads the person's words"},
		{"zero situation", func(s *Situation, _ *Input) { *s = Situation{} }, false, "only in auto"},
		{"ask mode", func(s *Situation, _ *Input) { s.Auto = false }, false, "only in auto"},
		{"autopilot or a step that is allowed", func(s *Situation, _ *Input) { s.WouldAsk = false }, false, "would otherwise ask"},
		{"explicit ask", func(s *Situation, _ *Input) { s.ExplicitAsk = true }, false, "ask entry"},
		{"held", func(s *Situation, _ *Input) { s.Held = true }, false, "held"},
		{"guest words", func(s *Situation, _ *Input) { s.Guest = true }, false, "guest"},
		{"no owner words", func(_ *Situation, in *Input) { in.OwnerWords = nil }, false, "no owner words"},
		{"owner words too long", func(_ *Situation, in *Input) {
			in.OwnerWords = []OwnerWord{{Text: strings.Repeat("a", MaxOwnerWords)}, {Text: "stop"}}
		}, false, "over"},
		{"note too long", func(_ *Situation, in *Input) { in.Note = strings.Repeat("é", MaxNote+1) }, false, "note"},
		{"note at its limit", func(_ *Situation, in *Input) { in.Note = strings.Repeat("é", MaxNote) }, true, ""},
		{"step too long", func(_ *Situation, in *Input) { in.Step.Command = strings.Repeat("a", MaxStep+1) }, false, "step"},
		{"empty step", func(_ *Situation, in *Input) { in.Step = Step{Tool: "Bash"} }, false, "empty step"},
		{"protected", func(_ *Situation, in *Input) { in.Classes = in.Classes.Add(risk.Protected) }, false, "never"},
		{"secret", func(_ *Situation, in *Input) { in.Classes = in.Classes.Add(risk.Secret) }, false, "secret"},
		{"money", func(_ *Situation, in *Input) { in.Classes = risk.Of(risk.Money) }, false, "money"},
		{"browser", func(_ *Situation, in *Input) { in.Classes = risk.Of(risk.Browser) }, false, "browser"},
		{"count", func(_ *Situation, in *Input) { in.Classes = risk.Of(risk.Count, risk.Destructive) }, false, "count"},
		{"severe", func(_ *Situation, in *Input) { in.Classes = risk.Of(risk.ForceRemote) }, true, "name it"},
		{"network", func(_ *Situation, in *Input) { in.Classes = risk.Of(risk.Network) }, true, ""},
		{"opaque", func(_ *Situation, in *Input) { in.Classes = risk.Of(risk.Opaque) }, true, ""},
	} {
		s, in := with(c.f)
		got, why := May(s, in)
		if got != c.want || !strings.Contains(why, c.why) {
			t.Errorf("%s: May(%+v, %v) = %v, %q; want %v, %q", c.name, s, in.Classes, got, why, c.want, c.why)
		}
	}
}
