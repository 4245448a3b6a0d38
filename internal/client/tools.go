package client

import (
	"cmp"
	"path/filepath"
	"strings"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/risk"
)

// readTool fills the step's kind, command, files and URL from its tool
// name and input, read once by risk.ReadUse: the step keeps that Use, and
// the decision classifies it. The names are risk's one list of the agents'
// tools; a tool it does not know stays KindTool; a known tool whose input
// it cannot read is an error, which the caller turns into a deny.
func readTool(s *Step, home string) error {
	s.Use = risk.ReadUse(s.Tool, s.Input)
	if s.Use.Err != nil {
		return errorf("read tool_input of %s: %v", s.Tool, s.Use.Err)
	}
	in := &s.Use.In
	switch risk.KindOfTool(s.Tool) {
	case risk.ToolShell:
		// The line and folder as risk reads them, so that what is decided
		// is what the card shows and the wall runs: a string, Codex's
		// exec_command cmd, or an argv (a shell's -c line, or the program
		// and its arguments quoted as one line).
		if !s.Use.HasCommand {
			return errorf("%s without a command string", s.Tool)
		}
		return shellStep(s, s.Use.Command, s.Use.Dir)
	case risk.ToolWrite, risk.ToolMultiEdit:
		return fileStep(s, KindWrite, risk.OpWrite, cmp.Or(in.FilePath, in.AbsPath, in.NotebookPath, in.Path))
	case risk.ToolRead:
		return fileStep(s, KindRead, risk.OpRead, cmp.Or(in.FilePath, in.AbsPath, in.NotebookPath, in.Path))
	case risk.ToolSearch:
		return fileStep(s, KindRead, risk.OpRead, orDot(cmp.Or(in.DirPath, in.Path)))
	case risk.ToolReadMany:
		s.Kind = KindRead
		if len(in.Paths) == 0 {
			return errorf("%s without paths", s.Tool)
		}
		for _, p := range in.Paths {
			s.Files = append(s.Files, FileUse{risk.OpRead, abs(s.Cwd, p)})
		}
	case risk.ToolMemory:
		// It appends to the agent's own instructions in the home.
		s.Kind = KindWrite
		s.Files = []FileUse{{risk.OpWrite, filepath.Join(home, place.MemoryFile)}}
	case risk.ToolFetch:
		s.Kind, s.URL = KindFetch, cmp.Or(in.URL, firstURL(in.Prompt))
	case risk.ToolWebSearch:
		s.Kind = KindFetch
	case risk.ToolAgent:
		s.Kind = KindAgent
	case risk.ToolQuiet:
		s.Kind = KindQuiet
	case risk.ToolPatch:
		if !s.Use.PatchCommandOK {
			return errorf("%s without a patch", s.Tool)
		}
		files, err := patchFiles(s.Use.PatchCommand)
		if err != nil {
			return err
		}
		s.Kind = KindWrite
		for _, f := range files {
			f.Path = abs(s.Cwd, f.Path)
			s.Files = append(s.Files, f)
		}
	}
	return nil
}

func shellStep(s *Step, cmd, dir string) error {
	if strings.TrimSpace(cmd) == "" {
		return errorf("%s with an empty command", s.Tool)
	}
	if strings.ContainsRune(cmd, 0) {
		// No shell runs a line past a NUL byte: the client would run
		// another line than the one decided.
		return errorf("%s with a NUL byte in its command", s.Tool)
	}
	s.Kind, s.Command = KindShell, cmd
	if dir != "" {
		s.project = s.Cwd
		s.Cwd = abs(s.Cwd, dir)
	}
	return nil
}

func fileStep(s *Step, k Kind, op risk.Op, p string) error {
	if p == "" {
		return errorf("%s without a path", s.Tool)
	}
	s.Kind = k
	s.Files = []FileUse{{op, abs(s.Cwd, p)}}
	return nil
}

func abs(cwd, p string) string {
	if strings.HasPrefix(p, "~/") {
		return p // left for risk to resolve against the home folder
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

func firstURL(text string) string {
	for _, w := range strings.Fields(text) {
		if strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://") {
			return strings.TrimRight(w, ".,;:)\"'")
		}
	}
	return ""
}
