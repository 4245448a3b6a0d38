package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"

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
// name and input. A tool it does not know stays KindTool; a known tool
// whose input it cannot read is an error, which the caller turns into a
// deny.
func readTool(s *Step, home string) error {
	var in toolInput
	if len(s.Input) > 0 && string(s.Input) != "null" {
		if err := json.Unmarshal(s.Input, &in); err != nil {
			return errorf("read tool_input of %s: %v", s.Tool, err)
		}
	}
	switch s.Agent {
	case "claude":
		return claudeTool(s, &in)
	case "codex":
		return codexTool(s, &in)
	case "gemini":
		return geminiTool(s, &in, home)
	}
	return nil
}

func claudeTool(s *Step, in *toolInput) error {
	switch s.Tool {
	case "Bash":
		return shellStep(s, in.Command, "")
	case "Write", "Edit", "MultiEdit":
		return fileStep(s, KindWrite, risk.OpWrite, in.FilePath)
	case "NotebookEdit":
		return fileStep(s, KindWrite, risk.OpWrite, in.NotebookPath)
	case "Read":
		return fileStep(s, KindRead, risk.OpRead, in.FilePath)
	case "Glob", "Grep", "LS":
		return fileStep(s, KindRead, risk.OpRead, orDot(in.Path))
	case "WebFetch":
		s.Kind, s.URL = KindFetch, in.URL
	case "WebSearch":
		s.Kind = KindFetch
	case "Agent", "Task":
		s.Kind = KindAgent
	case "TodoWrite", "TodoRead", "ExitPlanMode", "EnterPlanMode", "AskUserQuestion", "ListAgents", "ToolSearch", "ReportFindings", "Skill", "BashOutput", "TaskOutput":
		s.Kind = KindQuiet
	}
	return nil
}

func codexTool(s *Step, in *toolInput) error {
	switch s.Tool {
	case "Bash", "exec_command", "shell", "shell_command", "local_shell":
		return shellStep(s, in.Command, in.Workdir)
	case "apply_patch":
		var patch string
		if err := json.Unmarshal(in.Command, &patch); err != nil {
			return errorf("apply_patch without a patch")
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

func geminiTool(s *Step, in *toolInput, home string) error {
	switch s.Tool {
	case "run_shell_command":
		return shellStep(s, in.Command, in.DirPath)
	case "write_file", "replace", "edit":
		return fileStep(s, KindWrite, risk.OpWrite, in.FilePath)
	case "read_file":
		return fileStep(s, KindRead, risk.OpRead, first(in.FilePath, in.AbsolutePath))
	case "list_directory", "glob", "grep_search", "search_file_content", "grep":
		return fileStep(s, KindRead, risk.OpRead, orDot(first(in.DirPath, in.Path)))
	case "read_many_files":
		s.Kind = KindRead
		if len(in.Paths) == 0 {
			return errorf("read_many_files without paths")
		}
		for _, p := range in.Paths {
			s.Files = append(s.Files, FileUse{risk.OpRead, abs(s.Cwd, p)})
		}
	case "save_memory":
		// It appends to the user's GEMINI.md: the agent's own instructions.
		s.Kind = KindWrite
		s.Files = []FileUse{{risk.OpWrite, filepath.Join(home, ".gemini", "GEMINI.md")}}
	case "web_fetch":
		s.Kind, s.URL = KindFetch, firstURL(in.URL+" "+in.Prompt)
	case "google_web_search":
		s.Kind = KindFetch
	case "invoke_agent", "delegate_to_agent":
		s.Kind = KindAgent
	case "write_todos", "update_topic", "enter_plan_mode", "exit_plan_mode", "ask_user", "get_internal_docs":
		s.Kind = KindQuiet
	}
	return nil
}

func shellStep(s *Step, raw json.RawMessage, dir string) error {
	var cmd string
	if err := json.Unmarshal(raw, &cmd); err != nil {
		// Older Codex shells send an argv; sayso reads it as one line only
		// when it is "bash -lc LINE".
		var argv []string
		if json.Unmarshal(raw, &argv) != nil || len(argv) != 3 || argv[1] != "-lc" && argv[1] != "-c" {
			return errorf("%s without a command string", s.Tool)
		}
		cmd = argv[2]
	}
	if strings.TrimSpace(cmd) == "" {
		return errorf("%s with an empty command", s.Tool)
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

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func firstURL(text string) string {
	for _, w := range strings.Fields(text) {
		if strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://") {
			return strings.TrimRight(w, ".,;:)\"'")
		}
	}
	return ""
}
