package hook

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// readOnce runs one hook input of agent through Run with the wall on and
// a decider that lets the step through, and checks that what the client
// then runs inside the wall is, byte for byte, the command risk
// classified: the step is read once, and the card, the ledger and the
// wall carry what was decided. It returns false when the input held no
// shell step.
func readOnce(t *testing.T, launcher, name, agent string, in []byte) bool {
	t.Helper()
	a, err := client.ForAgent(agent)
	if err != nil {
		t.Fatal(err)
	}
	walls := Walls{Launcher: launcher, Home: "/home/user"}
	var seen Step
	decide := func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
		seen = s
		return policy.Allow, policy.Diagnostic{Reasons: []string{"allow"}, Reach: policy.ReachProject, Plan: policy.Plan{Reach: policy.ReachProject, Root: s.Project()}}, nil
	}
	res := Run(context.Background(), a, in, client.Env{Getenv: func(string) string { return "" }, Home: "/home/user"}, decide, walls)
	if seen.Kind != KindShell {
		return false
	}
	classified, _, ok := risk.ToolCommand(seen.Tool, seen.Input)
	if !ok {
		t.Errorf("%s: risk cannot read the step's input %s", name, seen.Input)
		return true
	}
	if seen.Command != classified {
		t.Errorf("%s: the step carries %q, risk classifies %q", name, seen.Command, classified)
	}
	if res.Decision != policy.Allow || seen.Event != client.Deciding(agent) {
		// Nothing runs, or the client runs what its deciding event's
		// answer rewrote (a PermissionRequest carries that line back).
		return true
	}
	runs, ok := clientRuns(seen.Tool, seen.Input, res.Stdout)
	if !ok {
		t.Errorf("%s: the client runs an input risk cannot read: %s", name, res.Stdout)
		return true
	}
	inner, walled := launched(t, launcher, runs)
	if !walled {
		t.Errorf("%s: the client runs %q outside the wall", name, runs)
		return true
	}
	if inner != classified {
		t.Errorf("%s: the wall runs %q, risk classified %q (the client runs %q)", name, inner, classified, runs)
	}
	return true
}

// fakeLauncher is a program named as sayso's launcher that writes the
// command it was given to run (its one argument after --) to the file
// $SAYSO_TEST_RAN names, and runs nothing.
func fakeLauncher(t testing.TB) string {
	if _, err := exec.LookPath("bash"); err != nil {
		testenv.Missing(t, "no bash to run the client's line: install bash")
	}
	p := filepath.Join(t.TempDir(), LauncherName)
	script := "#!/bin/sh\nwhile [ \"$#\" -gt 0 ] && [ \"$1\" != -- ]; do shift; done\n[ \"$#\" -eq 2 ] || exit 9\nprintf %s \"$2\" > \"$SAYSO_TEST_RAN\"\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// launched runs the line the client runs with bash, as the client's shell
// would, and returns the command the launcher was handed; false when the
// line never started the launcher.
func launched(t *testing.T, launcher, line string) (string, bool) {
	ran := filepath.Join(t.TempDir(), "ran")
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=/usr/bin:/bin", "SAYSO_TEST_RAN=" + ran}
	_ = cmd.Run() // the status is the fake's; what it was handed is the test
	b, err := os.ReadFile(ran)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// clientRuns is the command line the client runs once it read the hook's
// answer: the tool input, with what the answer rewrote in it (Claude
// Code's and Codex's updatedInput replace it, Gemini CLI merges its
// tool_input into it), read as risk reads it.
func clientRuns(tool string, input json.RawMessage, stdout []byte) (string, bool) {
	var answer struct {
		Out struct {
			Updated map[string]json.RawMessage `json:"updatedInput"`
			Merged  map[string]json.RawMessage `json:"tool_input"`
		} `json:"hookSpecificOutput"`
	}
	if len(strings.TrimSpace(string(stdout))) > 0 {
		if err := json.Unmarshal(stdout, &answer); err != nil {
			return "", false
		}
	}
	runs := input
	switch {
	case answer.Out.Updated != nil:
		runs, _ = json.Marshal(answer.Out.Updated)
	case answer.Out.Merged != nil:
		fields := map[string]json.RawMessage{}
		_ = json.Unmarshal(input, &fields)
		for k, v := range answer.Out.Merged {
			fields[k] = v
		}
		runs, _ = json.Marshal(fields)
	}
	cmd, _, ok := risk.ToolCommand(tool, runs)
	return cmd, ok
}

// goldenInputs are the hook inputs of every golden file of every client.
func goldenInputs(t testing.TB) map[string][]byte {
	files, _ := filepath.Glob("testdata/*/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	out := map[string][]byte{}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "input.json" {
				out[file] = f.Data
			}
		}
	}
	return out
}

// TestReadOnce: for every golden hook input of every client, the command
// risk classifies is the step's command, and what the wall runs once the
// step is let through is that command, byte for byte.
func TestReadOnce(t *testing.T) {
	launcher := fakeLauncher(t)
	shells := 0
	for file, in := range goldenInputs(t) {
		agent := filepath.Base(filepath.Dir(file))
		if readOnce(t, launcher, file, agent, in) {
			shells++
		}
	}
	if shells < 10 {
		t.Errorf("only %d golden inputs hold a shell step", shells)
	}
}

// FuzzReadOnce: a shell step of any client, under any shell tool's name,
// in any input form (a string, Codex's cmd, an argv: a shell's -c line or
// a program and its arguments), runs in the wall exactly as risk
// classified it.
func FuzzReadOnce(f *testing.F) {
	templates := shellTemplates(f)
	launcher := fakeLauncher(f)
	shells := risk.ToolNames(risk.ToolShell)
	for _, seed := range []struct {
		form       uint8
		a, b, c, d string
	}{
		{0, "git status", "", "", ""},
		{1, "ls -la", "", "", ""},
		{2, "bash", "-lc", "echo hi > out.txt", ""},
		{2, "python3", "-c", "import os", ""},
		{2, "/bin/sh", "-c", "rm -rf build && make", ""},
		{2, "git", "log", "--format=%H %s", ""},
		{2, "printf", "%s\n", "it's", "$(id)"},
		{3, "touch x", "sub", "", ""},
		{0, "echo 'a' \"b\" `c` $d", "", "", ""},
	} {
		for i := range templates {
			for j := range shells {
				f.Add(uint8(i), uint8(j), seed.form, seed.a, seed.b, seed.c, seed.d)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which, tool, form uint8, a, b, c, d string) {
		tpl := templates[int(which)%len(templates)]
		name := shells[int(tool)%len(shells)]
		var input any
		switch form % 4 {
		case 0:
			input = map[string]any{"command": a}
		case 1:
			input = map[string]any{"cmd": a}
		case 2:
			argv := []string{a}
			for _, s := range []string{b, c, d} {
				if s != "" {
					argv = append(argv, s)
				}
			}
			input = map[string]any{"command": argv}
		case 3:
			input = map[string]any{"command": a, "workdir": b, "dir_path": b}
		}
		ev := map[string]json.RawMessage{}
		if err := json.Unmarshal(tpl.in, &ev); err != nil {
			t.Fatal(err)
		}
		ev["tool_name"], _ = json.Marshal(name)
		ev["tool_input"], _ = json.Marshal(input)
		in, _ := json.Marshal(ev)
		readOnce(t, launcher, tpl.agent+" "+string(in), tpl.agent, in)
	})
}

type template struct {
	agent string
	in    []byte
}

// shellTemplates are, for each client, a golden input of the event
// that decides a step, which the fuzz target fills with its own tool.
func shellTemplates(t testing.TB) []template {
	var out []template
	seen := map[string]bool{}
	for file, in := range goldenInputs(t) {
		agent := filepath.Base(filepath.Dir(file))
		var ev struct {
			Event string `json:"hook_event_name"`
			Tool  string `json:"tool_name"`
		}
		if seen[agent] || json.Unmarshal(in, &ev) != nil || ev.Event != client.Deciding(agent) || !risk.ShellTool(ev.Tool) || strings.Contains(file, "fail-") {
			continue
		}
		seen[agent] = true
		out = append(out, template{agent, in})
	}
	if len(out) != len(client.Clients) {
		t.Fatalf("a shell step's golden input for %d of %d clients", len(out), len(client.Clients))
	}
	return out
}

// TestReadOnceFiles: for every golden hook input of every client, each
// file the adapter read from a file step is a file risk classifies, with
// the same operation, and a fetch step's URL is one risk classifies: the
// card, the ledger and the decision speak of the same files and URL.
func TestReadOnceFiles(t *testing.T) {
	files, fetches := 0, 0
	inputs := map[string]string{}
	for file, in := range goldenInputs(t) {
		inputs[file] = string(in)
	}
	// Each client's deciding event, under the file and fetch tools of
	// every client.
	for _, tpl := range shellTemplates(t) {
		for _, c := range []struct{ tool, input string }{
			{"Read", `{"file_path":"src/x.go"}`},
			{"read_file", `{"absolute_path":"/srv/x"}`},
			{"Write", `{"file_path":"~/notes.md","content":"x"}`},
			{"MultiEdit", `{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"}]}`},
			{"Grep", `{"path":"src","pattern":"x"}`},
			{"Glob", `{"pattern":"**/*.go"}`},
			{"list_directory", `{"dir_path":"/srv"}`},
			{"read_many_files", `{"paths":["a.go","../b.go"]}`},
			{"save_memory", `{"fact":"x"}`},
			{"WebFetch", `{"url":"https://example.com/a","prompt":"p"}`},
			{"web_fetch", `{"prompt":"summarize https://example.com/b and http://example.org/c."}`},
		} {
			ev := map[string]json.RawMessage{}
			if err := json.Unmarshal(tpl.in, &ev); err != nil {
				t.Fatal(err)
			}
			ev["tool_name"], _ = json.Marshal(c.tool)
			ev["tool_input"] = json.RawMessage(c.input)
			in, _ := json.Marshal(ev)
			inputs[tpl.agent+"/"+c.tool] = string(in)
		}
	}
	for file, in := range inputs {
		agent, _, _ := strings.Cut(file, "/")
		if strings.HasPrefix(file, "testdata/") {
			agent = filepath.Base(filepath.Dir(file))
		}
		a, err := client.ForAgent(agent)
		if err != nil {
			t.Fatal(err)
		}
		q, err := a.Read([]byte(in), client.Env{Getenv: func(string) string { return "" }, Home: "/home/user"})
		if err != nil || q.Step == nil {
			continue
		}
		files += readOnceFiles(t, file, *q.Step)
		fetches += readOnceURL(t, file, *q.Step)
	}
	if files < 9*len(client.Clients) || fetches < 2*len(client.Clients) {
		t.Errorf("the golden inputs hold %d file steps and %d fetches", files, fetches)
	}
}

// readOnceFiles checks that risk classifies each file of the file step s
// with its operation; it returns 1 for a file step, else 0.
func readOnceFiles(t *testing.T, name string, s Step) int {
	t.Helper()
	if s.Kind != client.KindRead && s.Kind != client.KindWrite || risk.KindOfTool(s.Tool) == risk.ToolPatch {
		return 0
	}
	classified := map[risk.UseFile]bool{}
	for _, f := range s.Use.Files() {
		if !strings.HasPrefix(f.Path, "~/") {
			if !filepath.IsAbs(f.Path) {
				f.Path = filepath.Join(s.Cwd, f.Path)
			}
			f.Path = filepath.Clean(f.Path)
		}
		classified[f] = true
	}
	for _, f := range s.Files {
		p := f.Path
		if risk.KindOfTool(s.Tool) == risk.ToolMemory {
			p = "~/" + strings.TrimPrefix(p, "/home/user/")
		}
		if !classified[risk.UseFile{Op: f.Op, Path: p}] {
			t.Errorf("%s: the step %s %s %s, risk classifies %+v", name, s.Tool, f.Op, f.Path, s.Use.Files())
		}
	}
	return 1
}

// readOnceURL checks that risk classifies the URL of the fetch step s; it
// returns 1 for a fetch of a URL, else 0.
func readOnceURL(t *testing.T, name string, s Step) int {
	t.Helper()
	if s.Kind != client.KindFetch || s.URL == "" {
		return 0
	}
	for _, u := range s.Use.URLs() {
		if u == s.URL {
			return 1
		}
	}
	t.Errorf("%s: the step fetches %s, risk classifies %q", name, s.URL, s.Use.URLs())
	return 1
}
