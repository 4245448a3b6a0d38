package step

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
)

// MaxBytes bounds the text a Shown holds: a file write can be megabytes.
const MaxBytes = 16 << 10

// Kind is what a Shown holds. The zero value is KindNone: nothing more to
// show than the step's own line (a shell command, shown whole there).
type Kind uint8

const (
	KindNone   Kind = iota
	KindDiff        // a file write or edit: Lines
	KindArgs        // a tool call: Args
	KindPrompt      // a sub-agent's prompt: Text
)

var kindNames = [...]string{"none", "diff", "args", "prompt"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; unknown text is an
// error.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	*k = KindNone
	return fmt.Errorf("unknown kind %q", b)
}

// Op is what a diff line does.
type Op string

const (
	Same    Op = "="
	Removed Op = "-"
	Added   Op = "+"
	Skipped Op = "…" // unchanged lines left out; Text says how many
	Header  Op = "@" // a patch's or an edit's heading
)

// Line is one line of a diff.
type Line struct {
	Op   Op     `json:"op"`
	Text string `json:"text"`
}

// Arg is one argument of a tool call; Value is its text, or its JSON when
// it is not a string.
type Arg struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Shown is what a step does, as the card shows it and the ledger keeps it.
type Shown struct {
	Kind  Kind   `json:"kind"`
	Path  string `json:"path,omitempty"`  // the file a diff is of
	Lines []Line `json:"lines,omitempty"` // KindDiff
	Args  []Arg  `json:"args,omitempty"`  // KindArgs
	Text  string `json:"text,omitempty"`  // KindPrompt
	// New says a write's diff is its whole new text: the file on disk was
	// not read (absent, unreadable, or not the caller's to read).
	New bool `json:"new,omitempty"`
	// Cut says the step held more than MaxBytes: the rest is left out.
	Cut bool `json:"cut,omitempty"`
	// Masked counts the values left out as secrets.
	Masked int `json:"masked,omitempty"`
}

// headLines is how many lines a card shows before "show all".
const headLines = 20

// Head is the lines a card shows at first.
func (s Shown) Head() []Line { return s.Lines[:min(len(s.Lines), headLines)] }

// Rest is the lines a card shows under "show all".
func (s Shown) Rest() []Line { return s.Lines[min(len(s.Lines), headLines):] }

// input is the union of the fields the agents' tools take that say what
// a write, an edit or a sub-agent does.
type input struct {
	FilePath     string  `json:"file_path"`
	AbsolutePath string  `json:"absolute_path"`
	NotebookPath string  `json:"notebook_path"`
	Path         string  `json:"path"`
	Content      *string `json:"content"`
	NewSource    *string `json:"new_source"`
	OldString    *string `json:"old_string"`
	NewString    *string `json:"new_string"`
	Edits        []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
	Command json.RawMessage `json:"command"` // apply_patch: the patch
	Prompt  string          `json:"prompt"`
}

// Of says what the agent's tool call does. onDisk is the written file's
// text as it is now, when the caller read it (known); without it a write
// shows its whole new text. A shell step shows nothing more than its
// command; input that cannot be read shows its arguments, or nothing.
func Of(tool string, raw []byte, onDisk string, known bool) Shown {
	kind := risk.KindOfTool(tool)
	if kind == risk.ToolShell || kind == risk.ToolQuiet {
		return Shown{}
	}
	var in input
	if len(raw) > 0 && json.Unmarshal(raw, &in) != nil {
		if kind == risk.ToolPatch {
			var s string
			_ = json.Unmarshal(raw, &s) // a freeform patch
			in.Command, _ = json.Marshal(s)
		} else {
			return Shown{}
		}
	}
	var s Shown
	switch kind {
	case risk.ToolWrite, risk.ToolMultiEdit:
		s = write(in, onDisk, known)
	case risk.ToolPatch:
		var patch string
		if json.Unmarshal(in.Command, &patch) == nil && patch != "" {
			s = Shown{Kind: KindDiff, Lines: patchLines(patch)}
		}
	case risk.ToolAgent:
		if in.Prompt != "" {
			s = Shown{Kind: KindPrompt, Text: in.Prompt}
		}
	}
	if s.Kind == KindNone {
		s = Shown{Kind: KindArgs, Args: args(raw)}
		if len(s.Args) == 0 {
			return Shown{}
		}
	}
	s.mask()
	s.bound()
	return s
}

// write is a write's or an edit's diff.
func write(in input, onDisk string, known bool) Shown {
	s := Shown{Kind: KindDiff, Path: first(in.FilePath, in.AbsolutePath, in.NotebookPath, in.Path)}
	switch {
	case in.Content != nil || in.NewSource != nil:
		text := in.Content
		if text == nil {
			text = in.NewSource
		}
		if known {
			s.Lines = diff(onDisk, *text)
		} else {
			s.New = true
			s.Lines = diff("", *text)
		}
	case in.OldString != nil && in.NewString != nil:
		s.Lines = diff(*in.OldString, *in.NewString)
	case len(in.Edits) > 0:
		for i, e := range in.Edits {
			s.Lines = append(s.Lines, Line{Header, fmt.Sprintf("edit %d of %d", i+1, len(in.Edits))})
			s.Lines = append(s.Lines, diff(e.OldString, e.NewString)...)
		}
	default:
		return Shown{}
	}
	return s
}

// patchLines reads an apply_patch patch's lines by their first character.
func patchLines(patch string) []Line {
	var out []Line
	for _, l := range splitLines(patch) {
		switch {
		case strings.HasPrefix(l, "***") || strings.HasPrefix(l, "@@"):
			out = append(out, Line{Header, l})
		case strings.HasPrefix(l, "+"):
			out = append(out, Line{Added, l[1:]})
		case strings.HasPrefix(l, "-"):
			out = append(out, Line{Removed, l[1:]})
		default:
			out = append(out, Line{Same, strings.TrimPrefix(l, " ")})
		}
	}
	return out
}

// args are a tool call's arguments, key by key in the order of the
// keys' names.
func args(raw []byte) []Arg {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]Arg, 0, len(keys))
	for _, k := range keys {
		var s string
		if json.Unmarshal(m[k], &s) != nil {
			s = string(m[k])
		}
		out = append(out, Arg{k, s})
	}
	return out
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// bound cuts what s holds to MaxBytes.
func (s *Shown) bound() {
	left := MaxBytes - len(s.Path)
	take := func(t string) (string, bool) {
		if len(t) <= left {
			left -= len(t)
			return t, true
		}
		cut := max(left, 0)
		for cut > 0 && t[cut]&0xC0 == 0x80 {
			cut--
		}
		left = 0
		return t[:cut], false
	}
	for i := range s.Lines {
		t, ok := take(s.Lines[i].Text)
		if !ok {
			s.Lines[i].Text = t
			s.Lines = s.Lines[:i+1]
			s.Cut = true
			break
		}
	}
	for i := range s.Args {
		k, ok := take(s.Args[i].Key)
		v := ""
		if ok {
			v, ok = take(s.Args[i].Value)
		}
		if !ok {
			s.Args[i] = Arg{k, v}
			s.Args = s.Args[:i+1]
			s.Cut = true
			break
		}
	}
	if t, ok := take(s.Text); !ok {
		s.Text, s.Cut = t, true
	}
}
