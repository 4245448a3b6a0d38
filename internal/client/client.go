package client

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Client is one agent's client program: how sayso reads and answers its
// hooks, and what its end-to-end tests run.
type Client struct {
	Agent   string // the name sayso install takes
	Name    string // what its makers call it
	Package string // its npm package
	Command string // the program it puts on PATH
	// Tested is the version the end-to-end tests run: README's table
	// and .ci/install-clients name the same (TestReadmeNamesTheTestedClients).
	Tested string
	// Decides is the event whose hook decides a step first.
	Decides string
	// Events are the hook events install adds to its settings, in order.
	Events []eventDef
	// WaitStatus: it shows a statusMessage while a hook that decides a
	// step runs (WaitMessage).
	WaitStatus bool
	// SessionEndMax is the longest timeout it lets a SessionEnd hook
	// have, in seconds; 0 for no limit.
	SessionEndMax int
	// Milliseconds: its hook timeouts count milliseconds, not seconds.
	Milliseconds bool
	// Comments: it reads // and /* */ comments in its JSON settings.
	Comments bool
	// Programs are the programs it runs its hooks from, by the base name
	// of the executable: the witness looks for one above the hook.
	Programs []string
	// Adapter reads its hook JSON and answers in its format.
	Adapter Adapter
	// OwnSandbox: its shell steps may run in a sandbox of its own that
	// sayso's whole wall cannot nest in, as the step's Sandbox says.
	OwnSandbox bool
	// KeepsFolder: its shell keeps the working folder a step leaves for
	// the next, so the walled line hands it back.
	KeepsFolder bool
}

// Clients are the clients sayso plugs into, each at the version it is
// tested with: a line each. This is the one place the code holds them.
var Clients = []Client{claude, codex, gemini}

// Of returns the client of agent.
func Of(agent string) (Client, bool) {
	for _, c := range Clients {
		if c.Agent == agent {
			return c, true
		}
	}
	return Client{}, false
}

// Deciding is the event of agent's client whose hook decides a step
// first; "" for an agent sayso does not know.
func Deciding(agent string) string {
	c, _ := Of(agent)
	return c.Decides
}

// Agents lists the agents sayso plugs into, by their names on the
// command line.
func Agents() []string {
	out := make([]string, len(Clients))
	for i, c := range Clients {
		out[i] = c.Agent
	}
	return out
}

// clientVersions checks the version of each installed agent's client, the
// one its name runs on PATH, against the version sayso is tested with: a
// client whose hook format may have changed since, or that may lack what
// sayso relies on, is a warning. A client that is not on PATH, or whose
// version cannot be read, says nothing: sayso cannot tell which one the
// person runs.
func clientVersions(agents map[string]bool, getenv func(string) string) []Problem {
	var out []Problem
	for _, c := range Clients {
		if !agents[c.Agent] {
			continue
		}
		bin := lookPath(c.Command, getenv)
		if bin == "" {
			continue
		}
		have := installedVersion(c, bin)
		if have == "" {
			continue
		}
		switch cmp := compareVersions(have, c.Tested); {
		case cmp > 0:
			out = append(out, Problem{c.Agent, c.Name + " " + have + " (" + bin + ") is newer than " + c.Tested + ", the version sayso is tested with: a change in its hooks may let a step through that sayso would stop",
				"npm install -g " + c.Package + "@" + c.Tested + ", or upgrade sayso"})
		case cmp < 0:
			out = append(out, Problem{c.Agent, c.Name + " " + have + " (" + bin + ") is older than " + c.Tested + ", the version sayso is tested with: it may not honour every answer sayso's hooks give",
				"npm install -g " + c.Package + "@" + c.Tested})
		}
	}
	return out
}

// lookPath finds name on the PATH getenv gives, as a shell would.
func lookPath(name string, getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	for _, dir := range filepath.SplitList(getenv("PATH")) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// installedVersion reads the version of the client bin runs: from the
// package.json of its npm package (bin links into it), else from what
// bin --version prints (a client installed another way).
func installedVersion(c Client, bin string) string {
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
			if v := packageVersion(filepath.Join(dir, "package.json"), c.Package); v != "" {
				return v
			}
			if filepath.Dir(dir) == dir || filepath.Base(dir) == "node_modules" {
				break
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	b, err := cmd.Output()
	if err != nil {
		return ""
	}
	return versionRE.FindString(string(b))
}

var versionRE = regexp.MustCompile(`\b\d+\.\d+\.\d+\b`)

// packageVersion is the version in the package.json at path when it is
// pkg's.
func packageVersion(path, pkg string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var p struct{ Name, Version string }
	if json.Unmarshal(b, &p) != nil || p.Name != pkg {
		return ""
	}
	return versionRE.FindString(p.Version)
}

// compareVersions compares two dotted versions number by number: -1, 0
// or 1. A pre-release suffix is ignored.
func compareVersions(a, b string) int {
	release := func(v string) []string {
		if i := strings.IndexAny(v, "-+"); i >= 0 {
			v = v[:i]
		}
		return strings.Split(v, ".")
	}
	as, bs := release(a), release(b)
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y int
		if i < len(as) {
			x = leadingNumber(as[i])
		}
		if i < len(bs) {
			y = leadingNumber(bs[i])
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}

// leadingNumber is the number s starts with, 0 when none.
func leadingNumber(s string) int {
	end := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(s)
	}
	n, _ := strconv.Atoi(s[:end])
	return n
}
