package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"unicode"

	"github.com/pelletier/go-toml/v2"

	"github.com/sayso-dev/sayso/internal/atomicfile"
)

// Codex runs a hook that is not managed only when config.toml trusts its
// definition by hash; an untrusted hook is skipped silently. Install writes
// the hashes itself, in a marked block. Codex edits the same file (its TUI
// adds [tui] and [projects] tables on first start, and moves comments as
// it rewrites), so the pin holds what the block says, read as TOML — each
// [hooks.state] table sayso wrote, exactly — not the block's bytes.

const (
	trustBegin = "# sayso: begin trust for sayso's hooks (sayso uninstall codex removes this block)\n"
	trustEnd   = "# sayso: end trust\n"
)

type codexTrust struct {
	path    string
	ev      eventDef
	index   int // the group's position in its event list
	command string
}

// snake turns PreToolUse into pre_tool_use, as Codex names events in keys.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// key is Codex's name for a handler: source file, event, group, handler.
func (c codexTrust) key() string {
	return fmt.Sprintf("%s:%s:%d:0", c.path, snake(c.ev.name), c.index)
}

// hash is Codex 0.169's trust hash of a one-handler group: SHA-256 of the
// compact, key-sorted JSON of its identity.
func (c codexTrust) hash() string {
	handler := map[string]any{"type": "command", "command": c.command, "timeout": c.ev.timeout("codex"), "async": false}
	if msg := c.ev.status("codex"); msg != "" {
		handler["statusMessage"] = msg // in the identity only when set
	}
	ident := map[string]any{
		"event_name": snake(c.ev.name),
		"hooks":      []any{handler},
	}
	if c.ev.matcher != "" {
		ident["matcher"] = c.ev.matcher
	}
	h := sha256.Sum256(canonical(ident))
	return "sha256:" + hex.EncodeToString(h[:])
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func trustBlock(ts []codexTrust) string {
	var b strings.Builder
	b.WriteString(trustBegin)
	for _, t := range ts {
		fmt.Fprintf(&b, "[hooks.state.%s]\ntrusted_hash = %s\n", tomlString(t.key()), tomlString(t.hash()))
	}
	b.WriteString(trustEnd)
	return b.String()
}

// writeCodexTrust replaces sayso's trust block in config.toml (the last
// install's, when old is set) with one for ts, keeping the rest of the
// file as it is.
func writeCodexTrust(path string, ts []codexTrust, old *Pin) (Pin, error) {
	orig, err := os.ReadFile(path)
	created := errors.Is(err, fs.ErrNotExist)
	if err != nil && !created {
		return Pin{}, err
	}
	text := string(orig)
	if old != nil {
		var oldBlock string
		if json.Unmarshal(old.Entry, &oldBlock) == nil && oldBlock != "" {
			text, _ = stripTrust(text, oldBlock)
		}
		created = created || old.Created
	}
	for _, t := range ts {
		if strings.Contains(text, "[hooks.state."+tomlString(t.key())+"]") {
			return Pin{}, fmt.Errorf("%s already has [hooks.state.%s]; remove it first", path, tomlString(t.key()))
		}
	}
	block := trustBlock(ts)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if text != "" {
		text += "\n"
	}
	if orig != nil {
		if err := atomicfile.WriteFile(path+".sayso-backup", orig, 0o600); err != nil {
			return Pin{}, fmt.Errorf("backup: %w", err)
		}
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := atomicfile.WriteFile(path, []byte(text+block), mode); err != nil {
		return Pin{}, err
	}
	entry, _ := json.Marshal(block)
	return Pin{Agent: "codex", Kind: PinTrust, Path: path, SHA256: sum([]byte(block)), Entry: entry, Created: created}, nil
}

func removeCodexTrust(p Pin) (bool, error) {
	var block string
	if json.Unmarshal(p.Entry, &block) != nil || block == "" {
		return false, nil
	}
	orig, err := os.ReadFile(p.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	text, ok := stripTrust(string(orig), block)
	if !ok {
		return false, nil
	}
	rest := bytes.TrimRight([]byte(text), "\n")
	if len(rest) > 0 {
		rest = append(rest, '\n')
	}
	if p.Created && len(bytes.TrimSpace(rest)) == 0 {
		return true, os.Remove(p.Path)
	}
	fi, err := os.Stat(p.Path)
	if err != nil {
		return false, err
	}
	return true, atomicfile.WriteFile(p.Path, rest, fi.Mode().Perm())
}

// trustHolds reports whether config.toml, read as TOML, still holds every
// [hooks.state] table of sayso's block exactly as the block wrote it: the
// same keys, the same values, nothing added (an "enabled = false" there
// would switch sayso's hook off). The rest of the file is the client's and
// the person's. A file that does not parse holds nothing.
func trustHolds(file []byte, block string) bool {
	want := hookStates([]byte(block))
	if len(want) == 0 {
		return false
	}
	have := hookStates(file)
	for k, v := range want {
		if !reflect.DeepEqual(have[k], v) {
			return false
		}
	}
	return true
}

// hookStates is the hooks.state table of a TOML document, nil when it
// does not parse or has none.
func hookStates(b []byte) map[string]any {
	var doc map[string]any
	if toml.Unmarshal(b, &doc) != nil {
		return nil
	}
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	return state
}

// stripTrust removes sayso's block from text: the block as written when
// it is still whole; else, line by line, its two marker comments and each
// of its tables (the header and the trusted_hash line under it) where
// Codex's own rewrite left them. It reports whether the block's tables
// were all found.
func stripTrust(text, block string) (string, bool) {
	if i := strings.Index(text, block); i >= 0 {
		return text[:i] + text[i+len(block):], true
	}
	lines := strings.SplitAfter(text, "\n")
	drop := make([]bool, len(lines))
	same := func(a, b string) bool { return strings.TrimRight(a, "\r\n") == strings.TrimRight(b, "\r\n") }
	mark := func(want string) int {
		for i, l := range lines {
			if !drop[i] && same(l, want) {
				return i
			}
		}
		return -1
	}
	found := true
	blines := strings.SplitAfter(block, "\n")
	for i := 0; i < len(blines); i++ {
		b := blines[i]
		switch {
		case b == "":
		case same(b, trustBegin) || same(b, trustEnd):
			if j := mark(b); j >= 0 {
				drop[j] = true
			}
		case strings.HasPrefix(b, "[hooks.state."):
			j := mark(b)
			if j < 0 || i+1 >= len(blines) || j+1 >= len(lines) || !same(lines[j+1], blines[i+1]) {
				found = false
				continue
			}
			drop[j], drop[j+1] = true, true
			i++
		}
	}
	var out strings.Builder
	for i, l := range lines {
		if !drop[i] {
			out.WriteString(l)
		}
	}
	return out.String(), found
}
