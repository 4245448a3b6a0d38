package risk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/shell"
)

// ToolKind is what an agent's tool does, known by its name. The zero value
// is ToolUnknown: a tool sayso does not know, judged opaque.
type ToolKind uint8

const (
	ToolUnknown   ToolKind = iota
	ToolShell              // runs a shell command line
	ToolRead               // reads one file
	ToolWrite              // writes or edits one file
	ToolMultiEdit          // edits one file in several places
	ToolSearch             // lists or searches a folder
	ToolReadMany           // reads several files
	ToolFetch              // fetches a URL
	ToolWebSearch          // sends a query to a search engine
	ToolAgent              // starts a sub-agent
	ToolQuiet              // the client's own bookkeeping: plans, todos, questions to the person
	ToolPatch              // applies a patch (apply_patch)
	ToolMemory             // appends to the agent's own instructions (save_memory)
)

// agentTools are the names the agents give their built-in tools, every
// client's (its shells, exec_command, apply_patch and the rest). It
// is the one list of them: the adapters read a step's kind from it and
// the decision classifies by it.
var agentTools = map[string]ToolKind{
	"Bash": ToolShell, "run_shell_command": ToolShell, "exec_command": ToolShell, "shell": ToolShell,
	"shell_command": ToolShell, "local_shell": ToolShell,

	"Read": ToolRead, "read_file": ToolRead, "view_image": ToolRead, "NotebookRead": ToolRead,
	"Write": ToolWrite, "write_file": ToolWrite, "Edit": ToolWrite, "replace": ToolWrite, "edit": ToolWrite,
	"NotebookEdit": ToolWrite, "edit_file": ToolWrite,
	"MultiEdit": ToolMultiEdit,
	"Glob":      ToolSearch, "glob": ToolSearch, "Grep": ToolSearch, "grep": ToolSearch, "grep_search": ToolSearch,
	"search_file_content": ToolSearch, "LS": ToolSearch, "list_directory": ToolSearch,
	"read_many_files": ToolReadMany,

	"WebFetch": ToolFetch, "web_fetch": ToolFetch,
	"WebSearch": ToolWebSearch, "google_web_search": ToolWebSearch, "web_search": ToolWebSearch,

	"Task": ToolAgent, "Agent": ToolAgent, "invoke_agent": ToolAgent, "delegate_to_agent": ToolAgent,
	"spawn_agent": ToolAgent, "resume_agent": ToolAgent, "multi_agent_v1": ToolAgent,

	"TodoWrite": ToolQuiet, "TodoRead": ToolQuiet, "ExitPlanMode": ToolQuiet, "EnterPlanMode": ToolQuiet,
	"AskUserQuestion": ToolQuiet, "ListAgents": ToolQuiet, "ToolSearch": ToolQuiet, "ReportFindings": ToolQuiet,
	"Skill": ToolQuiet, "BashOutput": ToolQuiet, "TaskOutput": ToolQuiet, "KillShell": ToolQuiet, "KillBash": ToolQuiet,
	"write_todos": ToolQuiet, "update_topic": ToolQuiet, "enter_plan_mode": ToolQuiet, "exit_plan_mode": ToolQuiet,
	"ask_user": ToolQuiet, "get_internal_docs": ToolQuiet, "complete_task": ToolQuiet,
	"update_plan": ToolQuiet, "get_goal": ToolQuiet, "create_goal": ToolQuiet, "update_goal": ToolQuiet,
	"request_user_input": ToolQuiet, "write_stdin": ToolQuiet,

	"apply_patch": ToolPatch,
	"save_memory": ToolMemory,
}

// KindOfTool returns what the agent's tool called name does.
func KindOfTool(name string) ToolKind { return agentTools[name] }

// ToolNames returns every tool name of kind k, for tests that hold other
// lists to this one.
func ToolNames(k ToolKind) []string {
	var out []string
	for n, kk := range agentTools {
		if kk == k {
			out = append(out, n)
		}
	}
	return out
}

// ShellTool reports whether name is an agent's shell tool.
func ShellTool(name string) bool { return agentTools[name] == ToolShell }

// toolInput holds the fields the agents' tools take, under every name they
// use for them. The fields only the classifier reads stay raw until the
// input's own fields are read, so that one of them with an odd type makes
// the input unreadable to the classifier (opaque) and not to the adapters.
type toolInput struct {
	Command     json.RawMessage `json:"command"` // a string, or an argv
	Cmd         string          `json:"cmd"`
	Workdir     string          `json:"workdir"`
	DirPath     string          `json:"dir_path"`
	Directory   json.RawMessage `json:"directory"`
	FilePath    string          `json:"file_path"`
	AbsPath     string          `json:"absolute_path"`
	NotebookPth string          `json:"notebook_path"`
	Path        string          `json:"path"`
	Paths       []string        `json:"paths"`
	Include     json.RawMessage `json:"include"`
	Pattern     json.RawMessage `json:"pattern"`
	Glob        json.RawMessage `json:"glob"`
	URL         string          `json:"url"`
	Prompt      string          `json:"prompt"`
	Query       json.RawMessage `json:"query"`
	Edits       json.RawMessage `json:"edits"`
}

// ToolFields are the fields of a tool's input, decoded.
type ToolFields struct {
	Cmd, Workdir, DirPath, Directory      string
	FilePath, AbsPath, NotebookPath, Path string
	Paths, Include                        []string
	Pattern, Glob, URL, Prompt, Query     string
	EditPaths                             []string // MultiEdit's edits[].file_path
}

// Use is one tool call as ReadUse read its input, once: the one value the
// adapters fill a step from and the classifier (Tool) judges.
type Use struct {
	Tool string
	// Given reports that the call came with an input at all.
	Given bool
	// Err is why the input is not the JSON its fields take (the adapters
	// deny such a step); Odd that a field only the classifier reads
	// has the wrong type. Either makes the input unreadable to Tool.
	Err error
	Odd bool
	In  ToolFields
	// Command and Dir are a shell tool's line and the folder it asks to
	// run in; HasCommand is false when there is no line.
	Command, Dir string
	HasCommand   bool
	// Patch is the text an apply_patch call carries; PatchCommand its
	// command field when that is a string (PatchCommandOK).
	Patch          string
	PatchCommand   string
	PatchCommandOK bool
	// Unsandboxed is why the input asks the client to run the command
	// outside its own sandbox, or the zero Reason.
	Unsandboxed Reason
}

// ReadUse reads the input of the tool called name: the one decoder of an
// agent's tool input. The adapters call it and the API's steps go through
// it; the classifier takes its Use and reads no JSON.
func ReadUse(name string, input []byte) Use {
	u := Use{Tool: name, Given: len(input) > 0}
	if !u.Given {
		return u
	}
	var in toolInput
	u.Err = json.Unmarshal(input, &in)
	if u.Err == nil && KindOfTool(name) != ToolUnknown {
		u.Err = keysAsRead(input, inputKeys)
	}
	f := &u.In
	f.Cmd, f.Workdir, f.DirPath = in.Cmd, in.Workdir, in.DirPath
	f.FilePath, f.AbsPath, f.NotebookPath, f.Path = in.FilePath, in.AbsPath, in.NotebookPth, in.Path
	f.Paths, f.URL, f.Prompt = in.Paths, in.URL, in.Prompt
	for _, r := range []struct {
		raw json.RawMessage
		to  any
	}{{in.Directory, &f.Directory}, {in.Include, &f.Include}, {in.Pattern, &f.Pattern}, {in.Glob, &f.Glob}, {in.Query, &f.Query}} {
		if len(r.raw) > 0 && json.Unmarshal(r.raw, r.to) != nil {
			u.Odd = true
		}
	}
	if len(in.Edits) > 0 {
		var edits []struct {
			FilePath string `json:"file_path"`
		}
		if json.Unmarshal(in.Edits, &edits) != nil {
			u.Odd = true
		}
		for _, e := range edits {
			f.EditPaths = append(f.EditPaths, e.FilePath)
		}
	}
	if u.PatchCommandOK = json.Unmarshal(in.Command, &u.PatchCommand) == nil; !u.PatchCommandOK {
		u.PatchCommand = ""
	}
	if ShellTool(name) && u.Err == nil && !u.Odd {
		u.Command, u.Dir, u.HasCommand = shellLine(name, &in, f)
	}
	if KindOfTool(name) == ToolPatch {
		u.Patch = patchText(input)
	}
	u.Unsandboxed = unsandboxed(input)
	return u
}

// inputKeys are the keys of a tool's input sayso reads: toolInput's.
var inputKeys = jsonKeys(reflect.TypeFor[toolInput]())

// editKeys are the keys sayso reads of one of an input's edits.
var editKeys = map[string]bool{"file_path": true}

func jsonKeys(t reflect.Type) map[string]bool {
	keys := map[string]bool{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys[name] = true
	}
	return keys
}

// keysAsRead reports an input whose keys a client would read otherwise
// than Go's decoder: Go matches a key to a field in any case (and folds
// K and ſ), the clients only as spelled, so {"command": A, "Command": B}
// runs A where Go reads B. A key it reads given twice, or spelled in
// another case, makes the input unreadable; the edits' keys alike.
func keysAsRead(input []byte, known map[string]bool) error {
	dec := json.NewDecoder(bytes.NewReader(input))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil // not an object: the decoder has said what it reads
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return err
		}
		for k := range known {
			if strings.EqualFold(key, k) && key != k {
				return fmt.Errorf("key %q stands for %q only to sayso's decoder: the client reads it as another key", key, k)
			}
		}
		if known[key] && seen[key] {
			return fmt.Errorf("key %q given twice", key)
		}
		seen[key] = true
		if key == "edits" {
			var edits []json.RawMessage
			if json.Unmarshal(value, &edits) == nil {
				for _, e := range edits {
					if err := keysAsRead(e, editKeys); err != nil {
						return fmt.Errorf("edits: %w", err)
					}
				}
			}
		}
	}
	return nil
}

// ToolCommand returns the command line a shell tool's input carries and the
// folder it asks to run in ("" for the step's own).
func ToolCommand(name string, input []byte) (command, dir string, ok bool) {
	u := ReadUse(name, input)
	return u.Command, u.Dir, u.HasCommand
}

func shellLine(name string, in *toolInput, f *ToolFields) (command, dir string, ok bool) {
	dir = shellDir(name, f)
	if in.Cmd != "" {
		return in.Cmd, dir, true
	}
	var s string
	if json.Unmarshal(in.Command, &s) == nil && s != "" {
		return s, dir, true
	}
	var argv []string
	if json.Unmarshal(in.Command, &argv) == nil && len(argv) > 0 {
		// A shell tool may give argv: ["bash", "-lc", "…"] or a program
		// and its arguments.
		if len(argv) == 3 && shell.IsShell(path.Base(argv[0])) && (argv[1] == "-c" || argv[1] == "-lc") {
			return argv[2], dir, true
		}
		quoted := make([]string, len(argv))
		for i, a := range argv {
			quoted[i] = ShellQuote(a)
		}
		return strings.Join(quoted, " "), dir, true
	}
	return "", dir, false
}

// shellDir is the folder a shell tool's input names, in the one field
// that tool reads: run_shell_command runs in dir_path (directory
// in older releases), every other shell in workdir. A field the tool does
// not read is not where the step runs.
func shellDir(name string, in *ToolFields) string {
	if name == "run_shell_command" {
		return firstNonEmpty(in.DirPath, in.Directory)
	}
	return in.Workdir
}

// ShellQuote is s as one word of a shell's line: bare when it holds only
// characters no shell reads specially, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// Tool classifies one tool call of an agent: a shell tool by its command,
// a file tool by the paths it reads and writes (scope, protected paths,
// secrets, instruction files), a fetch by its host. A tool sayso does not
// know, an MCP tool included, is opaque; the policy file's class patterns
// may say more about it.
func Tool(u Use, ctx Context) Assessment {
	name := u.Tool
	if ShellTool(name) {
		cmd, dir, ok := u.Command, u.Dir, u.HasCommand
		if !ok {
			return toolOpaque(name, ctx, InputUnreadable.By(name, "", "no command"))
		}
		if dir != "" {
			if ctx.Cwd == "" {
				ctx.Cwd = ctx.Root
			}
			if !path.IsAbs(dir) {
				dir = path.Join(ctx.Cwd, dir)
			}
			ctx.Cwd = path.Clean(dir)
		}
		a := Classify(shell.Parse(cmd), ctx)
		for _, f := range NamedProtected(a.Script, ctx) {
			a.Classes = a.Classes.Add(f.Class)
			a.Findings = append(a.Findings, f)
		}
		if r := u.Unsandboxed; r.Kind != ReasonUnknown {
			a.Classes = a.Classes.Add(Privilege)
			a.Findings = append(a.Findings, Finding{Class: Privilege, Segment: -1, Reason: r})
		}
		return a
	}
	in := u.In
	if u.Given && (u.Err != nil || u.Odd) && KindOfTool(name) != ToolPatch {
		return toolOpaque(name, ctx, InputUnreadable.By(name, "", "not JSON"))
	}
	t := newToolAssessor(name, ctx)
	switch KindOfTool(name) {
	case ToolRead, ToolWrite:
		t.files(u.Files())
	case ToolMultiEdit:
		if in.FilePath == "" {
			t.files(nil)
		}
		t.files(u.Files())
	case ToolSearch:
		t.c.add(Read, OnlyReads.By(name, "", ""))
		for _, f := range u.Files() {
			t.c.path(f.Op, toolWord(f.Path))
		}
	case ToolReadMany:
		t.c.add(Read, OnlyReads.By(name, "", ""))
		if len(in.Paths)+len(in.Include) == 0 {
			t.cwd(OpRead)
		} else {
			t.files(u.Files())
		}
	case ToolFetch:
		t.fetch(u.URLs())
	case ToolWebSearch:
		t.c.add(Network, ReachesHost.By(name, "", clip(in.Query)))
	case ToolAgent:
		t.c.add(LocalWrite, StartsAgent.By(name, "", ""))
	case ToolQuiet:
		t.c.add(Read, AgentOnly.By(name, "", ""))
	case ToolMemory:
		t.files(u.Files())
	case ToolPatch:
		t.patch(u.Patch)
	default:
		if server, tool, ok := MCPTool(name); ok {
			t.c.add(Opaque, MCPUnseen.By(server, tool, ""))
		} else {
			t.c.add(Opaque, UnknownVerb.By(name, "", ""))
		}
	}
	if t.a.out.Classes.Empty() {
		t.c.add(Read, ChangesNothing.By(name, "", ""))
	}
	return t.a.out
}

// MCPTool splits mcp__<server>__<tool>.
func MCPTool(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	return server, tool, ok && server != "" && tool != ""
}

// CheckPath classifies op on the absolute path p as the shell and file tools
// do: protected, secret, instruction files, devices, system files. A policy
// that resolved a symlink holds the real path to the same checks.
func CheckPath(op Op, p string, ctx Context) Assessment {
	t := newToolAssessor("", ctx)
	t.c.path(op, shell.Word{Raw: p, Value: p, Literal: true})
	if op == OpDelete {
		// Where the deleted path really lies decides: a link below /tmp
		// to the home deletes in the home.
		t.c.delAt(p, p, false, true)
	}
	return t.a.out
}

type toolAssessor struct {
	a *assessor
	c *cmd
}

func newToolAssessor(name string, ctx Context) *toolAssessor {
	if ctx.Cwd == "" {
		ctx.Cwd = ctx.Root
	}
	if ctx.TrustedHosts == nil {
		ctx.TrustedHosts = DefaultTrustedHosts
	}
	a := &assessor{ctx: ctx, cwds: []string{ctx.Cwd}, script: &shell.Script{}}
	a.out.Script = a.script
	return &toolAssessor{a: a, c: &cmd{a: a, i: -1, seg: &shell.Segment{}, name: name}}
}

func toolOpaque(name string, ctx Context, r Reason) Assessment {
	t := newToolAssessor(name, ctx)
	t.c.add(Opaque, r)
	return t.a.out
}

// word turns a path a tool names into a word: ~ and $HOME are read as the
// shell would, anything else with a $ cannot be known.
func toolWord(p string) shell.Word {
	return shell.Word{
		Raw: p, Value: p,
		Literal: !strings.Contains(p, "$"),
		Tilde:   strings.HasPrefix(p, "~"),
		Glob:    strings.ContainsAny(p, "*?["),
	}
}

// files classifies each of fs; none at all is opaque.
func (t *toolAssessor) files(fs []UseFile) {
	if len(fs) == 0 {
		t.c.add(Opaque, InputUnreadable.By(t.c.name, "", "no file"))
	}
	for _, f := range fs {
		t.file(f.Op, f.Path)
	}
}

func (t *toolAssessor) file(op Op, p string) {
	w := toolWord(p)
	switch op {
	case OpWrite:
		t.c.write(w)
	case OpDelete:
		t.c.del(w, false)
	default:
		t.c.add(Read, OnlyReads.By(t.c.name, "", p))
		t.c.path(op, w)
	}
}

func (t *toolAssessor) cwd(op Op) {
	t.c.path(op, shell.Word{Raw: ".", Value: ".", Literal: true})
}

// UseFile is one path a file tool's call names, as the call names it
// (relative, ~/…), with what the tool does to it.
type UseFile struct {
	Op   Op
	Path string
}

// Files are the paths a file tool's call names, each as Tool classifies
// it: the one path a read or a write names, a multi-edit's file and its
// edits' files, the folder a search reads ("." for the step's own) and the
// paths its pattern names, a read of several files' paths and includes
// ("." for none), the agent's memory file. An apply_patch call's files are
// in its Patch.
func (u Use) Files() []UseFile {
	in := &u.In
	one := func(op Op, ps ...string) []UseFile {
		if p := firstNonEmpty(ps...); p != "" {
			return []UseFile{{op, p}}
		}
		return nil
	}
	switch KindOfTool(u.Tool) {
	case ToolRead:
		return one(OpRead, in.FilePath, in.AbsPath, in.Path, in.NotebookPath)
	case ToolWrite:
		return one(OpWrite, in.FilePath, in.AbsPath, in.NotebookPath, in.Path)
	case ToolMultiEdit:
		out := one(OpWrite, in.FilePath)
		for _, p := range in.EditPaths {
			if p != "" {
				out = append(out, UseFile{OpWrite, p})
			}
		}
		return out
	case ToolSearch:
		return searchFiles(u.Tool, in)
	case ToolReadMany:
		var out []UseFile
		for _, p := range append(append([]string(nil), in.Paths...), in.Include...) {
			out = append(out, UseFile{OpRead, p})
		}
		if len(out) == 0 {
			out = []UseFile{{OpRead, "."}}
		}
		return out
	case ToolMemory:
		return []UseFile{{OpWrite, "~/" + place.MemoryFile}}
	}
	return nil
}

// searchFiles are the folder a search reads (the cwd when none is given),
// and the files a pattern names.
func searchFiles(name string, in *ToolFields) []UseFile {
	dir := firstNonEmpty(in.Path, in.DirPath, in.Directory)
	out := []UseFile{{OpRead, firstNonEmpty(dir, ".")}}
	if base := dir; in.Pattern != "" && (name == "Glob" || name == "glob") {
		if base == "" {
			base = "."
		}
		p := in.Pattern
		if !path.IsAbs(p) && !strings.HasPrefix(p, "~") {
			p = strings.TrimSuffix(base, "/") + "/" + p
		}
		out = append(out, UseFile{OpRead, p})
	}
	if in.Glob != "" && dir != "" {
		out = append(out, UseFile{OpRead, strings.TrimSuffix(dir, "/") + "/" + in.Glob})
	}
	return out
}

// URLs are the URLs a fetch names: its url, or those inside its prompt
// (web_fetch).
func (u Use) URLs() []string {
	if u.In.URL != "" {
		return []string{u.In.URL}
	}
	var out []string
	for _, f := range strings.Fields(u.In.Prompt) {
		if strings.Contains(f, "://") {
			out = append(out, strings.Trim(f, "\"'()<>,."))
		}
	}
	return out
}

// fetch is a plain GET: a trusted host is read, any other network.
func (t *toolAssessor) fetch(urls []string) {
	seen := false
	for _, u := range urls {
		if u == "" {
			continue
		}
		seen = true
		h := hostOf(u)
		switch {
		case h == "":
			t.c.add(Network, ReachesHost.By(t.c.name, "", clip(u)))
		case t.a.trusted(h):
			t.c.add(Read, FetchesTrusted.By(t.c.name, "", h))
		default:
			t.c.add(Network, FetchesUntrusted.By(t.c.name, "", h))
		}
		if strings.HasPrefix(strings.ToLower(u), "file:") {
			t.c.add(Opaque, ReadsLocalURL.By(t.c.name, "", clip(u)))
		}
	}
	if !seen {
		t.c.add(Network, ReachesHost.By(t.c.name, "", ""))
	}
}

// patchText is the text an apply_patch call carries: its command (a
// string, or an argv's last word), input or patch field, or the input
// itself when it is no JSON envelope.
func patchText(input []byte) string {
	text := string(input)
	var in struct {
		Command json.RawMessage `json:"command"`
		Input   string          `json:"input"`
		Patch   string          `json:"patch"`
	}
	if json.Unmarshal(input, &in) == nil {
		var s string
		var argv []string
		switch {
		case json.Unmarshal(in.Command, &s) == nil && s != "":
			text = s
		case json.Unmarshal(in.Command, &argv) == nil && len(argv) > 0:
			text = argv[len(argv)-1]
		case in.Input != "":
			text = in.Input
		case in.Patch != "":
			text = in.Patch
		}
	}
	return text
}

// patch reads the files an apply_patch envelope adds, updates, deletes and
// moves to.
func (t *toolAssessor) patch(text string) {
	if !strings.Contains(text, "*** Begin Patch") {
		t.c.add(Opaque, InputUnreadable.By("apply_patch", "", "no patch"))
		return
	}
	n := 0
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		for _, h := range []struct {
			prefix string
			op     Op
		}{{"*** Add File: ", OpWrite}, {"*** Update File: ", OpWrite}, {"*** Delete File: ", OpDelete}, {"*** Move to: ", OpWrite}} {
			if p, ok := strings.CutPrefix(line, h.prefix); ok {
				p = strings.TrimSpace(p)
				if p == "" {
					t.c.add(Opaque, InputUnreadable.By("apply_patch", "", "an empty path"))
					continue
				}
				t.file(h.op, p)
				n++
			}
		}
	}
	if n == 0 {
		t.c.add(Opaque, InputUnreadable.By("apply_patch", "", "no file"))
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// pathTokens splits text where a path may start or end. A token that
// follows a closing brace or bracket continues the word before it
// ({docs,site}/**/*.md), and is not a path from the root.
func pathTokens(text string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(text); i++ {
		sep := i == len(text) || strings.IndexByte(" \t\n'\"`(),;=[]{}<>|&", text[i]) >= 0
		if !sep && start < 0 {
			start = i
		}
		if sep && start >= 0 {
			tok := text[start:i]
			if !(start > 0 && (text[start-1] == '}' || text[start-1] == ']') && strings.HasPrefix(tok, "/")) {
				out = append(out, tok)
			}
			start = -1
		}
	}
	return out
}

// NamedProtected finds sayso's own files named anywhere in a command's
// words, not only where a program is known to take a path: inside an
// interpreter's one-liner, a string handed to another program, an
// assignment. It also finds a step that runs inside a protected folder.
// Naming them is enough: sayso cannot see what the code does with the name.
func NamedProtected(s *shell.Script, ctx Context) []Finding {
	if ctx.Cwd == "" {
		ctx.Cwd = ctx.Root
	}
	a := &assessor{ctx: ctx}
	var out []Finding
	if a.protected(ctx.Cwd) {
		out = append(out, Finding{Class: Protected, Segment: -1, Reason: RunsInProtected.By("", "", ctx.Cwd)})
	}
	seen := map[string]bool{}
	check := func(seg int, text string) {
		for _, tok := range pathTokens(text) {
			p := namedPath(tok, ctx)
			if p == "" || seen[tok] {
				continue
			}
			if a.protected(p) || strings.ContainsAny(p, "*?") && a.globReachesProtected(p) {
				seen[tok] = true
				out = append(out, Finding{Class: Protected, Segment: seg, Reason: NamesProtected.By("", "", tok)})
			}
		}
	}
	for i := range s.Segments {
		seg := &s.Segments[i]
		for _, w := range seg.Args {
			check(i, w.Value)
			if !w.Literal {
				check(i, w.Raw)
			}
		}
		for _, as := range seg.Assigns {
			check(i, as.Value.Raw)
		}
		for _, r := range seg.Redirs {
			check(i, r.Target.Raw)
		}
	}
	return out
}

// namedPath reads a token as a path: absolute, ~/…, $HOME/… or relative
// with a slash in it; "" when it is no path.
func namedPath(tok string, ctx Context) string {
	switch {
	case strings.HasPrefix(tok, "/"):
		return path.Clean(tok)
	case tok == "~" || strings.HasPrefix(tok, "~/"):
		return path.Join(ctx.Home, tok[1:])
	case strings.HasPrefix(tok, "$HOME") || strings.HasPrefix(tok, "${HOME}"):
		rest := strings.TrimPrefix(strings.TrimPrefix(tok, "${HOME}"), "$HOME")
		if rest == "" || rest[0] == '/' {
			return path.Join(ctx.Home, rest)
		}
	case strings.Contains(tok, "/") && !strings.Contains(tok, "://") && !strings.HasPrefix(tok, "$"):
		return path.Join(ctx.Cwd, tok)
	}
	return ""
}

// unsandboxed says why a shell tool's input asks its client to run the
// command outside the client's own sandbox, or the zero Reason:
// dangerouslyDisableSandbox, sandbox_permissions (anything but
// use_default, require_escalated included) and its older
// with_escalated_permissions. A value sayso cannot read is a request.
func unsandboxed(input []byte) Reason {
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		return Reason{}
	}
	set := func(k string) bool {
		v, ok := in[k]
		return ok && string(v) != "false" && string(v) != "null"
	}
	switch {
	case set("dangerouslyDisableSandbox"):
		return LeavesSandbox.By("", "", "dangerouslyDisableSandbox")
	case set("with_escalated_permissions"):
		return LeavesSandbox.By("", "", "with_escalated_permissions")
	case set("sandbox_permissions"):
		var v string
		if json.Unmarshal(in["sandbox_permissions"], &v) == nil && (v == "" || v == "use_default") {
			return Reason{}
		}
		return LeavesSandbox.By("", "", "sandbox_permissions "+clip(string(in["sandbox_permissions"])))
	}
	return Reason{}
}
