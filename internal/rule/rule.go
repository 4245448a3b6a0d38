package rule

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// Rule is an "always allow" rule the person pressed on a card.
type Rule struct {
	Tool      string    `json:"tool"`       // the shell tool it was pressed for ("Bash")
	Unit      Unit      `json:"unit"`       // command or verb
	Pattern   string    `json:"pattern"`    // the words, as the card showed them
	Cwd       string    `json:"cwd"`        // the work folder it was pressed in
	CreatedAt time.Time `json:"created_at"` // when it was kept, as the caller saw it
}

func (r Rule) String() string {
	if r.Unit == UnitCommand {
		return r.Pattern
	}
	return r.Pattern + " (" + r.Unit.String() + ")"
}

// pattern is a rule's pattern, read.
type pattern struct {
	unit  Unit
	words []string // the words; for a star, the last holds the text before it
	star  bool     // command: the last word ends in *; verb: any arguments follow
}

// Validate reports why sayso would refuse r today, or nil. A rule read back
// from anywhere is validated again before it is used.
func Validate(r Rule) error {
	_, err := compile(r)
	return err
}

func compile(r Rule) (pattern, error) {
	if !ShellTool(r.Tool) {
		return pattern{}, fmt.Errorf("rule for tool %q: rules are kept only for shell steps", r.Tool)
	}
	if r.Cwd == "" || !path.IsAbs(r.Cwd) || path.Clean(r.Cwd) != r.Cwd {
		return pattern{}, fmt.Errorf("rule folder %q is not an absolute, clean path", r.Cwd)
	}
	var p pattern
	var err error
	switch r.Unit {
	case UnitCommand:
		p, err = commandPattern(r.Pattern)
	case UnitVerb:
		p, err = verbPattern(r.Pattern)
	default:
		err = fmt.Errorf("unknown unit %d", r.Unit)
	}
	if err != nil {
		return pattern{}, fmt.Errorf("rule %s: %w", quote(r.Pattern), err)
	}
	p.unit = r.Unit
	classes := patternClasses(p, r.Cwd)
	if why := unliftable(classes); why != "" {
		return pattern{}, fmt.Errorf("rule %s: %s", quote(r.Pattern), why)
	}
	if c, ok := ceilingIn(classes); ok && p.unit == UnitVerb {
		return pattern{}, fmt.Errorf("rule %s: `%s` is a ceiling, and a verb rule never lifts one", quote(r.Pattern), c)
	}
	return p, nil
}

// commandPattern reads a rule of unit command: one simple command, at
// least a program and one word, and at most a final * after a pinning name.
func commandPattern(text string) (pattern, error) {
	body, star := strings.CutSuffix(text, "*")
	if star && (body == "" || body[len(body)-1] == ' ' || body[len(body)-1] == '\t') {
		return pattern{}, errors.New("* stands alone: it must end a word, after a name that pins it down (feature/*)")
	}
	words, err := plainWords(body)
	if err != nil {
		return pattern{}, err
	}
	p := pattern{words: words, star: star}
	if star {
		last := words[len(words)-1]
		if !pinned(last) {
			return pattern{}, fmt.Errorf("* follows %s, not a name that pins it down (feature/*)", quote(last))
		}
	}
	if why := broad(words); why != "" {
		return pattern{}, errors.New(why)
	}
	if len(words) < 2 {
		return pattern{}, fmt.Errorf("a program alone (%s) is too broad", words[0])
	}
	return p, nil
}

// plainWords parses text as one simple command of plain words.
func plainWords(text string) ([]string, error) {
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("the rule is empty")
	}
	s := shell.Parse(text)
	words, why := simple(text, s)
	if why != "" {
		if strings.HasPrefix(why, "a glob") {
			why = "* may only end the last word, after a name that pins it down; " + why
		}
		return nil, errors.New(why)
	}
	if plain := strings.Join(words, " "); plain != text {
		return nil, fmt.Errorf("a rule is written as its plain words, one space apart (%s)", quote(plain))
	}
	return words, nil
}

// patternClasses classifies the command a pattern stands for, a star
// standing for a plain name.
func patternClasses(p pattern, cwd string) risk.Set {
	words := p.words
	if p.star && p.unit == UnitCommand {
		words = append([]string(nil), words...)
		if len(words) > 0 {
			words[len(words)-1] += "x"
		}
	}
	a := risk.Command(strings.Join(words, " "), risk.Context{Root: cwd, Cwd: cwd})
	return a.Classes
}
