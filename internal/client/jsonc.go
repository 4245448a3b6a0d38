package client

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tailscale/hujson"
)

// commentsRead reports whether agent's client reads comments in its JSON
// settings: Gemini CLI strips // and /* */ comments before it parses
// them (and accepts no trailing comma); Claude Code and Codex read plain
// JSON, so a comment there is a file the client cannot read.
func commentsRead(agent string) bool {
	c, _ := Of(agent)
	return c.Comments
}

// stripComments blanks the // and /* */ comments outside strings, as
// Gemini CLI does before it parses its settings. Offsets are kept; an
// unterminated block comment runs to the end.
func stripComments(b []byte) []byte {
	out := bytes.Clone(b)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

// settingsJSON is b as agent's client reads it: without its comments
// where the client strips them.
func settingsJSON(agent string, b []byte) []byte {
	if commentsRead(agent) {
		return stripComments(b)
	}
	return b
}

// hasComments reports whether b holds a comment agent's client strips.
func hasComments(agent string, b []byte) bool {
	return commentsRead(agent) && !bytes.Equal(stripComments(b), b)
}

// withHooks returns orig, a settings file with comments, with its "hooks"
// replaced by hooks (removed when nil): the comments outside "hooks" stay
// where they were.
func withHooks(orig []byte, hooks any) ([]byte, error) {
	v, err := hujson.Parse(orig)
	if err != nil {
		return nil, err
	}
	had := v.Find("/hooks") != nil
	var patch []byte
	switch {
	case hooks != nil:
		val, err := json.MarshalIndent(hooks, "  ", "  ")
		if err != nil {
			return nil, err
		}
		patch = fmt.Appendf(nil, `[{"op":"add","path":"/hooks","value":%s}]`, val)
	case had:
		patch = []byte(`[{"op":"remove","path":"/hooks"}]`)
	default:
		return orig, nil
	}
	if err := v.Patch(patch); err != nil {
		return nil, err
	}
	// No Format: it would add trailing commas, which Gemini does not read.
	// The member added goes on its own line.
	if obj, ok := v.Value.(*hujson.Object); ok {
		for i := range obj.Members {
			m := &obj.Members[i]
			if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == "hooks" && len(m.Name.BeforeExtra) == 0 {
				m.Name.BeforeExtra = hujson.Extra("\n  ")
				m.Value.BeforeExtra = hujson.Extra(" ")
			}
		}
	}
	return v.Pack(), nil
}
