package gateway

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/step"
)

// maxOnDisk bounds the file a write's diff is made against: a larger one
// shows the write's whole new text.
const maxOnDisk = 1 << 20

// shows is what the step does, as the card shows it and the ledger row
// keeps it (bounded, its secrets masked): a write's diff against the
// file on disk when sayso can read it, an edit's old and new text, a
// tool's arguments, a sub-agent's prompt. It is nil for a shell step,
// whose command the card shows whole.
func (d *Decider) shows(s client.Step) json.RawMessage {
	old, known := "", false
	if k := risk.KindOfTool(s.Tool); (k == risk.ToolWrite || k == risk.ToolMultiEdit) && len(s.Files) == 1 {
		old, known = d.onDisk(s.Files[0].Path)
	}
	sh := step.Of(s.Tool, s.Input, old, known)
	if sh.Kind == step.KindNone {
		return nil
	}
	b, err := json.Marshal(sh)
	if err != nil {
		return nil
	}
	return b
}

// onDisk reads the text a write replaces: a regular file of at most
// maxOnDisk bytes of UTF-8 text, never a credential of the home (its text
// would land on the page and in the ledger). A file it does not read
// makes the card show the write's whole new text.
func (d *Decider) onDisk(p string) (string, bool) {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if d.Home == "" {
			return "", false
		}
		p = filepath.Join(d.Home, rest)
	}
	if !filepath.IsAbs(p) {
		return "", false
	}
	if d.Home != "" {
		if rel, err := filepath.Rel(d.Home, p); err == nil && !strings.HasPrefix(rel, "..") && place.IsCredential(filepath.ToSlash(rel)) {
			return "", false
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxOnDisk {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxOnDisk+1))
	if err != nil || len(b) > maxOnDisk || !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}
