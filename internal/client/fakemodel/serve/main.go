// Command fakemodel serves the scripted model of sayso's end-to-end tests
// on 127.0.0.1, to try sayso with a real client and no account: every
// conversation asks for the steps given as arguments, one after the
// other (the next once the client sends the last one's result back), then
// ends its turn with "DONE".
//
//	go run ./internal/client/fakemodel/serve 'ls' 'git push origin main' write:$HOME/demo/notes.txt edit:$HOME/demo/notes.txt mcp task:'look around'
//
// A step is a shell command, or one of:
//
//	write:FILE   write FILE with the client's file tool (Codex: apply_patch)
//	edit:FILE    read FILE, then edit the line write: wrote in it
//	mcp          call say_hello on the fake's own MCP server
//	task:PROMPT  start a sub-agent with PROMPT (Claude Code and Gemini CLI)
//
// It prints the line that points each client at it (Claude Code, Codex
// CLI, Gemini CLI), and each tool result the client sends back, until it
// is stopped with Ctrl-C. Codex is asked for the shell and file steps
// only: it offers this model no sub-agent tool, and its MCP tools only
// through its tool search.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/sayso-dev/sayso/internal/client/fakemodel"
)

const usage = `usage: fakemodel STEP...

Serves a scripted model on 127.0.0.1 that asks, in every conversation,
for each STEP in turn. A STEP is a shell command, or one of:

  write:FILE   write FILE (an absolute path) with the client's file tool
  edit:FILE    read FILE, then edit the line write: wrote in it
  mcp          call say_hello on the fake's own MCP server
  task:PROMPT  start a sub-agent with PROMPT
`

// written and edited are the line write: puts in a file and the line
// edit: makes of it.
const (
	written = "written by the fake model"
	edited  = "edited by the fake model"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	os.Exit(serve(os.Args[1:], os.Stdout, os.Stderr, stop))
}

// steps reads the arguments as the fake's calls.
func steps(args []string) ([]fakemodel.Call, error) {
	var calls []fakemodel.Call
	for _, a := range args {
		kind, rest, _ := strings.Cut(a, ":")
		switch {
		case kind == "write" && rest != "":
			if !filepath.IsAbs(rest) {
				return nil, fmt.Errorf("write:%s: want an absolute path (Claude Code's file tools take no other)", rest)
			}
			calls = append(calls, fakemodel.Call{Path: rest, Content: written + "\n"})
		case kind == "edit" && rest != "":
			if !filepath.IsAbs(rest) {
				return nil, fmt.Errorf("edit:%s: want an absolute path (Claude Code's file tools take no other)", rest)
			}
			// Claude Code edits only a file the conversation has read.
			calls = append(calls, fakemodel.Call{Read: rest}, fakemodel.Call{Path: rest, Old: written, New: edited})
		case a == "mcp":
			calls = append(calls, fakemodel.Call{MCP: fakemodel.MCPTool, Text: "sayso"})
		case kind == "task" && rest != "":
			calls = append(calls, fakemodel.Call{Task: fakemodel.SubagentMark + ": " + rest})
		case strings.HasPrefix(a, "-") || strings.TrimSpace(a) == "":
			return nil, fmt.Errorf("unknown step %q", a)
		default:
			calls = append(calls, fakemodel.Call{Command: a})
		}
	}
	if len(calls) == 0 {
		return nil, fmt.Errorf("no steps")
	}
	return calls, nil
}

func serve(args []string, stdout, stderr io.Writer, stop <-chan os.Signal) int {
	calls, err := steps(args)
	if err != nil {
		fmt.Fprintf(stderr, "fakemodel: %v\n%s", err, usage)
		return 2
	}
	f := fakemodel.NewFake(calls...)
	defer f.Close()
	var seen atomic.Int64
	f.OnResult(func(r string) {
		fmt.Fprintf(stdout, "tool result %d: %s\n", seen.Add(1), shorten(r))
	})
	fmt.Fprintf(stdout, "fake model on %s; each conversation asks, in turn, for:\n", f.URL)
	for _, a := range args {
		fmt.Fprintf(stdout, "  %s\n", a)
	}
	mcp, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{fakemodel.MCPServer: map[string]any{"type": "http", "url": f.URL + "/mcp"}}})
	// Gemini CLI takes its key's kind and its MCP servers from its
	// settings only: the project's, for this run.
	gemini, _ := json.Marshal(map[string]any{
		"security":   map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"mcpServers": map[string]any{fakemodel.MCPServer: map[string]any{"httpUrl": f.URL + "/mcp"}},
	})
	fmt.Fprintf(stdout, "\nIn a git project, after 'sayso install claude' (or codex, gemini), run one of:\n\n")
	fmt.Fprintf(stdout, "  ANTHROPIC_BASE_URL=%s ANTHROPIC_API_KEY=sk-ant-try CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 claude -p 'do the task' --mcp-config '%s'\n\n", f.URL, mcp)
	fmt.Fprintf(stdout, "  FAKE_API_KEY=sk-try codex exec -s workspace-write -c model=gpt-5.5 -c model_provider=fake -c 'model_providers.fake={name=\"fake\",base_url=\"%s/v1\",wire_api=\"responses\",env_key=\"FAKE_API_KEY\"}' 'do the task' </dev/null\n", f.URL)
	fmt.Fprintf(stdout, "    (Codex is asked for the shell steps and the file steps only: it offers this model no sub-agent tool, and its MCP tools only through a search)\n\n")
	fmt.Fprintf(stdout, "  mkdir -p .gemini && echo '%s' > .gemini/settings.json\n", gemini)
	fmt.Fprintf(stdout, "  GOOGLE_GEMINI_BASE_URL=%s GEMINI_API_KEY=try GEMINI_CLI_TRUST_WORKSPACE=true gemini -m gemini-2.5-pro --approval-mode yolo -p 'do the task'\n\n", f.URL)
	<-stop
	return 0
}

func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}
