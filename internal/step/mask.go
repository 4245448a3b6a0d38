package step

import (
	"regexp"

	"github.com/sayso-dev/sayso/internal/place"
)

// Masked is what a secret's value is shown as.
const Masked = "••••••"

// assignment finds NAME=value, NAME: value and "name": "value", with an
// Authorization-style scheme word kept before the value.
var assignment = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.\-]*)(["']?[ \t]*[:=][ \t]*)((?:Bearer|Basic|Token|token|bearer)[ \t]+)?("[^"\n]*"|'[^'\n]*'|[^\s,;"'}\]]+)`)

// maskText masks the value of every assignment to a name the engine takes
// for a secret, and returns how many it masked.
func maskText(s string) (string, int) {
	n := 0
	out := assignment.ReplaceAllStringFunc(s, func(m string) string {
		g := assignment.FindStringSubmatch(m)
		if !place.SecretVar(g[1]) {
			return m
		}
		n++
		v := g[4]
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
			v = v[:1] + Masked + v[len(v)-1:]
		} else {
			v = Masked
		}
		return g[1] + g[2] + g[3] + v
	})
	return out, n
}

// mask masks the secrets s holds: an argument whose name says it holds
// one, and every assignment to such a name in any text.
func (s *Shown) mask() {
	for i := range s.Lines {
		var n int
		s.Lines[i].Text, n = maskText(s.Lines[i].Text)
		s.Masked += n
	}
	for i := range s.Args {
		if place.SecretVar(s.Args[i].Key) && s.Args[i].Value != "" {
			s.Args[i].Value = Masked
			s.Masked++
			continue
		}
		var n int
		s.Args[i].Value, n = maskText(s.Args[i].Value)
		s.Masked += n
	}
	var n int
	s.Text, n = maskText(s.Text)
	s.Masked += n
}
