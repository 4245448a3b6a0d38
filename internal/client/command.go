package client

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sayso-dev/sayso/internal/atomicfile"
)

// Claude Code answers a line that starts with an unknown "/name" itself
// ("Unknown command: /sayso") and never hands it to its hooks. A command
// file makes "/sayso" a command it knows: the line the person typed then
// reaches UserPromptSubmit unchanged, "/sayso lease CATEGORY" and all,
// where the person's evidence and the exact line are read as for any
// prompt. The file's text is only what the model reads in its place; it
// grants nothing.

// leaseCommand is the command file install writes for Claude Code.
const leaseCommand = `---
description: grant sayso a one-shot lease (sayso lease CATEGORY)
argument-hint: lease remote-write|merge|force-remote|publish|deploy|destructive|container-remove|privilege|new-remote
disable-model-invocation: true
---
The person typed "/sayso $ARGUMENTS" for sayso, the gate that decides each of your tool calls. When that line is exactly "lease CATEGORY", sayso has granted one step of that category in this folder, for this turn only. Nothing else is granted. Carry on with the work the person asked for.
`

// commandPath is where Claude Code reads the person's "/sayso" command
// for a scope: beside the settings file, in commands/. Managed settings
// have no commands folder: "" there.
func commandPath(t Target, settings string) string {
	if t.Agent != "claude" || t.Scope == "managed" {
		return ""
	}
	return filepath.Join(filepath.Dir(settings), "commands", "sayso.md")
}

// writeCommand writes the command file, replacing the one the last
// install wrote (old); a file of that name sayso did not write is left
// alone and install stops.
func writeCommand(t Target, path string, old []Pin) (Pin, error) {
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Pin{}, err
	case sum(b) != sum([]byte(leaseCommand)) && !pinned(old, PinCommand, path, sum(b)):
		return Pin{}, fmt.Errorf("%s exists and sayso did not write it; move it away first: sayso's /sayso command goes there", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Pin{}, err
	}
	if err := atomicfile.WriteFile(path, []byte(leaseCommand), 0o644); err != nil {
		return Pin{}, err
	}
	return Pin{Agent: t.Agent, Scope: t.Scope, Kind: PinCommand, Path: path, SHA256: sum([]byte(leaseCommand)), Created: true}, nil
}

func pinned(pins []Pin, kind PinKind, path, hash string) bool {
	for _, p := range pins {
		if p.Kind == kind && p.Path == path && p.SHA256 == hash {
			return true
		}
	}
	return false
}

// removeCommand removes the command file when it is still what install
// wrote.
func removeCommand(p Pin) (bool, error) {
	b, err := os.ReadFile(p.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if sum(b) != p.SHA256 {
		return false, nil
	}
	return true, os.Remove(p.Path)
}
