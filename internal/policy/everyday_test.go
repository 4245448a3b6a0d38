package policy

import (
	"bufio"
	"encoding/json"
	"os"
	"path"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

// everydayProject is a project the everyday commands of a published
// session log are judged in: where its tree and the person's home lay, the
// folder the agent worked from, and what the project declares, as the
// caller reads it from the project's files (package.json's scripts, bin and
// dependencies, pyproject.toml's scripts, the Makefile's targets).
type everydayProject struct {
	Log       string              `json:"log"`       // the published session log the commands come from
	Ecosystem string              `json:"ecosystem"` // what the project is built with
	Files     []string            `json:"files"`     // the project files that tell
	Root      string              `json:"root"`
	Home      string              `json:"home"`
	Cwd       string              `json:"cwd"`
	Scripts   map[string]string   `json:"scripts"`
	Commands  map[string]string   `json:"commands"`
	Recipes   map[string][]string `json:"recipes"`
	Packages  []string            `json:"packages"`
}

// context is the context a command of the project is judged in: the
// corpora's, moved to the project's tree and home.
func (p everydayProject) context() risk.Context {
	c := testContext
	c.Root, c.Home, c.Cwd, c.Roots = p.Root, p.Home, p.Cwd, nil
	c.Protected = []string{path.Join(p.Home, ".config/sayso"), path.Join(p.Home, ".local/state/sayso"), "/usr/local/bin/sayso"}
	c.Scripts, c.Commands, c.Recipes, c.Packages = p.Scripts, p.Commands, p.Recipes, nil
	if p.Packages != nil {
		c.Packages = map[string]bool{}
		for _, n := range p.Packages {
			c.Packages[n] = true
		}
	}
	c.Compose = nil
	return c
}

// everydayCommand is a line of the everyday and setup files: a command,
// where it was found, and for a command of a published session log the
// project it ran in and the folder the log says its shell was in.
type everydayCommand struct {
	Cmd, Src, Project, Cwd string
}

// context is the context c is judged in: its project's, or the corpora's
// for a command of no project.
func (c everydayCommand) context(t *testing.T, projects map[string]everydayProject) risk.Context {
	t.Helper()
	if c.Project == "" {
		return testContext
	}
	p, ok := projects[c.Project]
	if !ok {
		t.Fatalf("%q: project %q is not in everyday-projects.json", c.Cmd, c.Project)
	}
	ctx := p.context()
	if c.Cwd != "" {
		ctx.Cwd = c.Cwd
	}
	return ctx
}

func loadEverydayProjects(t *testing.T) map[string]everydayProject {
	t.Helper()
	b, err := os.ReadFile("../risk/testdata/everyday-projects.json")
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]everydayProject
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("everyday projects: %v", err)
	}
	for name, p := range out {
		if p.Log == "" || p.Ecosystem == "" || !path.IsAbs(p.Root) || !path.IsAbs(p.Home) {
			t.Fatalf("everyday project %s: want its log, its ecosystem, its root and home", name)
		}
	}
	return out
}

// TestEverydayInAuto holds the decision in auto, with no rules and the
// wall on, over commands coding agents really run: the commands agents ran
// in published session logs, each judged in the project it ran in, and the
// commands of public projects' agent instructions (CLAUDE.md, AGENTS.md),
// contributing guides and CI workflows, each with the file it came from.
// Left out when the file was gathered: prose and output caught in code
// blocks, machine set-up as root or through system package managers,
// pushes, releases and deployments (a session's go to the corpus, with
// their labels), and CI plumbing on CI-only variables and folders; installs
// for the whole machine (go install, cargo install, npm -g …) are in
// setup.jsonl, where TestSetupAsks wants each asked. A gate that asks about
// everyday work gets switched off: at most 3% may ask, of the whole and of
// the session logs' share, and none may be denied.
func TestEverydayInAuto(t *testing.T) {
	projects := loadEverydayProjects(t)
	f, err := os.Open("../risk/testdata/everyday.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, asked, logged, loggedAsked := 0, 0, 0, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var c everydayCommand
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("everyday line %d: %v", line, err)
		}
		if c.Cmd == "" || c.Src == "" {
			t.Fatalf("everyday line %d: a command and its source are both needed", line)
		}
		if c.Project != "" {
			logged++
		}
		n++
		got, diag := Evaluate(Request{Command: c.Cmd, Mode: ModeAuto, Context: c.context(t, projects), Wall: Wall{On: true}})
		switch got {
		case Allow:
		case Deny:
			t.Errorf("everyday command denied: %q: %v (%s)", c.Cmd, diag.Reasons, c.Src)
		default:
			asked++
			if c.Project != "" {
				loggedAsked++
			}
			t.Logf("asks: %q: %v (%s)", c.Cmd, diag.Reasons, c.Src)
		}
	}
	if n < 500 {
		t.Fatalf("everyday file has %d commands, want at least 500", n)
	}
	if logged < 300 {
		t.Fatalf("everyday file has %d commands from session logs, want at least 300", logged)
	}
	rate, loggedRate := float64(asked)/float64(n), float64(loggedAsked)/float64(logged)
	t.Logf("%d everyday commands, %d asked (%.1f%%); from session logs %d, %d asked (%.1f%%)",
		n, asked, 100*rate, logged, loggedAsked, 100*loggedRate)
	if rate > 0.03 {
		t.Errorf("%.1f%% of everyday commands ask in auto, want at most 3%%", 100*rate)
	}
	if loggedRate > 0.03 {
		t.Errorf("%.1f%% of the session logs' everyday commands ask in auto, want at most 3%%", 100*loggedRate)
	}
}
