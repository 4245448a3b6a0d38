package hook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unicode"
)

// Codex runs a hook that is not managed only when config.toml trusts its
// definition by hash; an untrusted hook is skipped silently. Install writes
// the hashes itself, in a marked block it alone edits.

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
	ident := map[string]any{
		"event_name": snake(c.ev.name),
		"hooks":      []any{map[string]any{"type": "command", "command": c.command, "timeout": HookTimeout, "async": false}},
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
			text = strings.Replace(text, oldBlock, "", 1)
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
		if err := writeAtomic(path+".sayso-backup", orig, 0o600); err != nil {
			return Pin{}, fmt.Errorf("backup: %w", err)
		}
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := writeAtomic(path, []byte(text+block), mode); err != nil {
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
	i := bytes.Index(orig, []byte(block))
	if i < 0 {
		return false, nil
	}
	rest := append(append([]byte{}, orig[:i]...), orig[i+len(block):]...)
	rest = bytes.TrimRight(rest, "\n")
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
	return true, writeAtomic(p.Path, rest, fi.Mode().Perm())
}
