package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/sayso-dev/sayso/internal/atomicfile"
)

// PinKind is what a pin holds the hash of.
type PinKind string

const (
	PinBinary     PinKind = "binary"     // the sayso binary a definition runs
	PinDefinition PinKind = "definition" // one hook group sayso added to a client's settings
	PinTrust      PinKind = "trust"      // the block of Codex trust hashes sayso added to config.toml
	PinCommand    PinKind = "command"    // the command file that makes "/sayso" a command Claude Code knows
)

// Pin is the SHA-256 of something sayso installed, with what uninstall
// needs to remove exactly it.
type Pin struct {
	Agent   string          `json:"agent"`
	Scope   string          `json:"scope"`
	Kind    PinKind         `json:"kind"`
	Path    string          `json:"path"`
	Event   string          `json:"event,omitempty"`
	SHA256  string          `json:"sha256"`
	Entry   json.RawMessage `json:"entry,omitempty"` // the definition as added, or the trust block's text
	Size    int64           `json:"size,omitempty"`
	ModTime time.Time       `json:"mod_time,omitzero"`
	// Inode and Change (the inode's change time, which no one can set
	// back) tell a binary replaced or rewritten under the same size and
	// time; when either moved, the hash is checked.
	Inode   uint64 `json:"inode,omitempty"`
	Change  int64  `json:"change,omitempty"`
	Created bool   `json:"created,omitempty"` // install made the file
	// Settings is the client's settings file the install that made this
	// pin wrote: pins are kept per settings file, so installing in a
	// second place never forgets the first.
	Settings string `json:"settings,omitempty"`
}

// ownedBy reports whether p was made by an install of agent into the
// settings file path (in scope, for pins older than their Settings).
func (p Pin) ownedBy(agent, scope, path string) bool {
	switch {
	case p.Agent != agent:
		return false
	case p.Settings != "":
		return p.Settings == path
	case p.Kind == PinDefinition:
		return p.Path == path
	}
	return p.Scope == scope
}

// PinStore keeps the pins. The store package will keep them in the
// database; until then FilePins keeps them in a JSON file.
type PinStore interface {
	Load() ([]Pin, error)
	Save([]Pin) error
}

// FilePins keeps pins in one JSON file, 0600, replaced atomically.
type FilePins struct{ Path string }

type pinFile struct {
	Version int   `json:"version"`
	Pins    []Pin `json:"pins"`
}

// Load implements PinStore. A missing file holds no pins; a file that
// cannot be read is an error, which callers treat as a broken pin.
func (f FilePins) Load() ([]Pin, error) {
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read pins: %w", err)
	}
	var pf pinFile
	if err := json.Unmarshal(b, &pf); err != nil {
		return nil, fmt.Errorf("read pins %s: %w", f.Path, err)
	}
	if pf.Version != 1 {
		return nil, fmt.Errorf("read pins %s: unknown version %d", f.Path, pf.Version)
	}
	return pf.Pins, nil
}

// Save implements PinStore.
func (f FilePins) Save(pins []Pin) error {
	b, err := json.MarshalIndent(pinFile{Version: 1, Pins: pins}, "", "  ")
	if err != nil {
		return fmt.Errorf("write pins: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return fmt.Errorf("write pins: %w", err)
	}
	return atomicfile.WriteFile(f.Path, append(b, '\n'), 0o600)
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// FileSum is the SHA-256 of the file at path, in hex.
func FileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// canonical renders a JSON value with sorted keys and no spaces, so the
// same definition always hashes the same.
func canonical(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// Problem is one thing wrong with what sayso installed, and the command
// that fixes it.
type Problem struct {
	Agent string `json:"agent"`
	What  string `json:"what"`
	Fix   string `json:"fix"`
}

// CheckPins checks the pins of agent ("" for every agent): the binary by
// its size and time, then by its hash when those changed; each definition
// and trust block by finding it unchanged in its file. A pin store that
// cannot be read is one problem. A CachedPins remembers a check that
// found nothing wrong, and answers it again while none of the files it
// read has changed.
func CheckPins(store PinStore, agent string) []Problem {
	c, ok := store.(*CachedPins)
	if !ok {
		return checkPins(store, agent)
	}
	// The files' versions are taken before the check reads them: one
	// that changes while it runs is checked again at the next step.
	before, ok := c.versions(agent)
	if ok && c.stillClean(agent, before) {
		return nil
	}
	probs := checkPins(store, agent)
	if ok && len(probs) == 0 {
		c.markClean(agent, before)
	}
	return probs
}

func checkPins(store PinStore, agent string) []Problem {
	pins, err := store.Load()
	if err != nil {
		return []Problem{{Agent: agent, What: err.Error(), Fix: "sayso install " + orAll(agent)}}
	}
	var out []Problem
	files := map[string][]byte{}
	read := func(p string) ([]byte, error) {
		if b, ok := files[p]; ok {
			return b, nil
		}
		b, err := os.ReadFile(p)
		if err == nil {
			files[p] = b
		}
		return b, err
	}
	// A client's settings file holds one pinned definition per event:
	// it is parsed once, not once for each.
	parsed := map[string]map[string]any{}
	settings := func(p Pin, b []byte) map[string]any {
		key := p.Agent + "\x00" + p.Path
		if s, ok := parsed[key]; ok {
			return s
		}
		var s map[string]any
		if json.Unmarshal(settingsJSON(p.Agent, b), &s) != nil {
			s = nil
		}
		parsed[key] = s
		return s
	}
	for _, p := range pins {
		if agent != "" && p.Agent != agent {
			continue
		}
		fix := "sayso install " + p.Agent + " --scope " + p.Scope
		switch p.Kind {
		case PinBinary:
			if what := checkBinary(p); what != "" {
				out = append(out, Problem{p.Agent, what, fix})
			}
		case PinDefinition:
			b, err := read(p.Path)
			if err != nil {
				out = append(out, Problem{p.Agent, fmt.Sprintf("the %s hook file %s cannot be read: %v", p.Event, p.Path, errors.Unwrap(err)), fix})
				continue
			}
			if !hasDefinition(settings(p, b), p) {
				out = append(out, Problem{p.Agent, fmt.Sprintf("sayso's %s hook in %s was changed or removed", p.Event, p.Path), fix})
			}
		case PinTrust:
			b, err := read(p.Path)
			var text string
			_ = json.Unmarshal(p.Entry, &text)
			if err != nil || text == "" || !trustHolds(b, text) {
				out = append(out, Problem{p.Agent, "Codex no longer trusts sayso's hooks: sayso's [hooks.state] entries in " + p.Path + " were changed or removed", fix})
			}
		case PinCommand:
			if h, err := FileSum(p.Path); err != nil || h != p.SHA256 {
				out = append(out, Problem{p.Agent, "sayso's /sayso command file " + p.Path + " was changed or removed", fix})
			}
		default:
			out = append(out, Problem{p.Agent, "unknown pin kind " + string(p.Kind), fix})
		}
	}
	return out
}

func orAll(agent string) string {
	if agent == "" {
		return "AGENT"
	}
	return agent
}

func checkBinary(p Pin) string {
	fi, err := os.Stat(p.Path)
	if err != nil {
		return "the sayso binary " + p.Path + " is gone"
	}
	if ino, change := inode(fi); fi.Size() == p.Size && fi.ModTime().Equal(p.ModTime) && p.Inode != 0 && ino == p.Inode && change == p.Change {
		return ""
	}
	h, err := binarySum(p.Path)
	if err != nil {
		return "the sayso binary " + p.Path + " cannot be read"
	}
	if h != p.SHA256 {
		return "the sayso binary " + p.Path + " changed since it was installed"
	}
	return ""
}

// hasDefinition reports whether the parsed settings still hold the
// pinned group under its event, unchanged; nil settings hold none.
func hasDefinition(settings map[string]any, p Pin) bool {
	for _, g := range groups(settings, p.Event) {
		if sum(canonical(g)) == p.SHA256 {
			return true
		}
	}
	return false
}

func groups(settings map[string]any, event string) []any {
	hooks, _ := settings["hooks"].(map[string]any)
	gs, _ := hooks[event].([]any)
	return gs
}

// inode is a file's inode number and the time its inode last changed, in
// nanoseconds; zeros where the system does not say.
func inode(fi os.FileInfo) (uint64, int64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ino, st.Ctim.Nano()
}
