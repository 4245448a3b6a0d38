package client

import (
	"encoding/json"
	"testing"
)

// TestStripComments reads settings as Gemini CLI does: comments go,
// slashes inside strings stay, and a trailing comma is still refused.
func TestStripComments(t *testing.T) {
	tests := []struct {
		in   string
		want string // the value of "a" once parsed; "!" when it does not parse
	}{
		{`{"a": "x"}`, "x"},
		{"{\n // c\n \"a\": \"x\"}", "x"},
		{`{/* c */ "a": /* d */ "x" /* e */}`, "x"},
		{`{"a": "https://example.com/*x*/"}`, "https://example.com/*x*/"},
		{`{"a": "say \"//\" here"} // end`, `say "//" here`},
		{`{"a": "x",}`, "!"},
		{`{"a": "x"} /* unterminated`, "x"},
	}
	for _, tt := range tests {
		var m map[string]string
		got := "!"
		if json.Unmarshal(stripComments([]byte(tt.in)), &m) == nil {
			got = m["a"]
		}
		if got != tt.want {
			t.Errorf("stripComments(%q) reads a = %q, want %q", tt.in, got, tt.want)
		}
	}
	if hasComments("claude", []byte("{// c\n}")) {
		t.Error("Claude Code's settings read with comments")
	}
}
