package client

import (
	"cmp"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/risk"
)

// toolInput is the union of the tool_input fields the three clients use
// for the tools sayso reads.
type toolInput struct {
	Command      json.RawMessage `json:"command"` // a string; Codex apply_patch puts the patch here
	Cmd          string          `json:"cmd"`
	FilePath     string          `json:"file_path"`
	NotebookPath string          `json:"notebook_path"`
	AbsolutePath string          `json:"absolute_path"`
	Path         string          `json:"path"`
	DirPath      string          `json:"dir_path"`
	Paths        []string        `json:"paths"`
	URL          string          `json:"url"`
	Prompt       string          `json:"prompt"`
	Workdir      string          `json:"workdir"`
}

// readTool fills the step's kind, command, files and URL from its tool
// name and input. The names are risk's one list of the agents' tools; a
// tool it does not know stays KindTool; a known tool whose input it cannot
// read is an error, which the caller turns into a deny.
func readTool(s *Step, home string) error {
	var in toolInput
	if len(s.Input) > 0 && string(s.Input) != "null" {
		if err := json.Unmarshal(s.Input, &in); err != nil {
			return errorf("read tool_input of %s: %v", s.Tool, err)
		}
	}
	switch risk.KindOfTool(s.Tool) {
	case risk.ToolShell:
		// The line and folder as risk reads them, so that what is decided
		// is what the card shows and the wall runs: a string, Codex's
		// exec_command cmd, or an argv (a shell's -c line, or the program
		// and its arguments quoted as one line).
		cmd, dir, ok := risk.ToolCommand(s.Tool, s.Input)
		if !ok {
			return errorf("%s without a command string", s.Tool)
		}
		return shellStep(s, cmd, dir)
	case risk.ToolWrite, risk.ToolMultiEdit:
		return fileStep(s, KindWrite, risk.OpWrite, cmp.Or(in.FilePath, in.AbsolutePath, in.NotebookPath, in.Path))
	case risk.ToolRead:
		return fileStep(s, KindRead, risk.OpRead, cmp.Or(in.FilePath, in.AbsolutePath, in.NotebookPath, in.Path))
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
		var patch string
		if err := json.Unmarshal(in.Command, &patch); err != nil {
			return errorf("%s without a patch", s.Tool)
		}
		files, err := patchFiles(patch)
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
