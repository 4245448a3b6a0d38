package client

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
)

// Report is what doctor found: problems switch sayso off or make it ask
// every step; warnings weaken the wall behind it.
type Report struct {
	Problems []Problem `json:"problems"`
	Warnings []Problem `json:"warnings"`
}

// Doctor checks what sayso installed: the pins, the client settings that
// switch hooks off, each client's version against the one sayso is
// tested with, and each client's own sandbox against sayso's
// folders (dirs), saying what a sandbox being off means with sayso's wall
// as it is here (wall). project is the project root to check project
// files in.
func Doctor(store PinStore, home, project string, getenv func(string) string, dirs []string, wall policy.Wall) Report {
	pins, err := store.Load()
	if err != nil {
		return Report{Problems: []Problem{{What: err.Error(), Fix: "sayso install AGENT"}}}
	}
	if len(pins) == 0 {
		return Report{Problems: []Problem{{What: "sayso is installed for no agent", Fix: installAny()}}}
	}
	out := CheckPins(store, "")
	scopes := map[string]map[string]bool{}
	for _, p := range pins {
		if scopes[p.Agent] == nil {
			scopes[p.Agent] = map[string]bool{}
		}
		scopes[p.Agent][p.Scope] = true
	}
	t := Target{Home: home, Project: project, Getenv: getenv}
	var clientWarnings []Problem
	for _, c := range Clients {
		if s := scopes[c.Agent]; s != nil {
			problems, warnings := c.Adapter.(doctorer).off(t, s)
			out, clientWarnings = append(out, problems...), append(clientWarnings, warnings...)
		}
	}
	out = append(out, planted(t, pins)...)
	out = append(out, shadowed(pins, getenv)...)
	agents := map[string]bool{}
	for a := range scopes {
		agents[a] = true
	}
	warn := append(Sandboxes(agents, t, dirs, wall), clientVersions(agents, getenv)...)
	warn = append(warn, clientWarnings...)
	return Report{Problems: out, Warnings: warn}
}

// doctorer is what doctor asks of a client's adapter.
type doctorer interface {
	// off finds what in the client's settings keeps sayso's hooks from
	// running (problems), and what weakens them (warnings); scopes are
	// the scopes sayso is installed in for it.
	off(t Target, scopes map[string]bool) (problems, warnings []Problem)
	// localSettings are its JSON settings files that can hold hooks and
	// an env block beside those of the scopes sayso installs in, in the
	// order later ones win; the scopes' files follow them.
	localSettings(t Target) []string
}

// installAny is the fix for sayso installed for no agent: "sayso install
// a (or b, c)".
func installAny() string {
	as := Agents()
	if len(as) < 2 {
		return "sayso install " + strings.Join(as, "")
	}
	return "sayso install " + as[0] + " (or " + strings.Join(as[1:], ", ") + ")"
}

// scopeFiles are agent's settings files of every scope sayso installs
// in, after the ones in files.
func scopeFiles(t Target, agent string, files []string) []string {
	t.Agent = agent
	for _, sc := range Scopes {
		t.Scope = sc
		if p, err := SettingsPath(t); err == nil && !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	return files
}

// readJSON reads agent's settings file at path as its client reads it:
// Gemini's with its comments.
func readJSON(agent, path string) map[string]any {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(settingsJSON(agent, b), &m) != nil {
		return map[string]any{"\x00invalid": true}
	}
	return m
}

// claudeFiles are Claude Code's user, project and local settings files, in
// the order later ones win.
func claudeFiles(t Target) []string {
	t.Agent = "claude"
	var files []string
	for _, sc := range []string{"user", "project"} {
		t.Scope = sc
		if p, err := SettingsPath(t); err == nil {
			files = append(files, p)
		}
	}
	return append(files, filepath.Join(t.Project, ".claude", "settings.local.json"))
}

// off checks Claude Code's settings that switch hooks off, unless sayso
// is installed in its managed settings, and the plugins and modes that
// weaken them.
func (Claude) off(t Target, scopes map[string]bool) (problems, warnings []Problem) {
	mods, plugins := claudeMods(t)
	return append(claudeOff(t, scopes["managed"]), mods...), plugins
}

// localSettings are Claude Code's user, project and local files.
func (Claude) localSettings(t Target) []string { return claudeFiles(t) }

func claudeOff(t Target, managed bool) []Problem {
	t.Agent = "claude"
	var out []Problem
	for _, f := range claudeFiles(t) {
		m := readJSON("claude", f)
		if m["\x00invalid"] == true {
			out = append(out, Problem{"claude", f + " is not valid JSON: Claude Code ignores the whole file in -p runs", "fix the JSON in " + f})
		}
		if m["disableAllHooks"] == true && !managed {
			out = append(out, Problem{"claude", f + " sets disableAllHooks: sayso's hooks do not run", "remove \"disableAllHooks\" from " + f + ", or run 'sayso install claude --scope managed'"})
		}
	}
	t.Scope = "managed"
	mp, _ := SettingsPath(t)
	if m := readJSON("claude", mp); m["allowManagedHooksOnly"] == true && !managed {
		out = append(out, Problem{"claude", mp + " allows managed hooks only: sayso's hooks do not run", "sayso install claude --scope managed"})
	}
	return out
}

var codexHooksOff = regexp.MustCompile(`(?m)^\s*(codex_)?hooks\s*=\s*false\b`)

// off checks Codex's config.toml.
func (Codex) off(t Target, _ map[string]bool) (problems, warnings []Problem) { return codexOff(t), nil }

// localSettings: Codex has its scope's hooks.json alone.
func (Codex) localSettings(Target) []string { return nil }

func codexOff(t Target) []Problem {
	cfg := filepath.Join(CodexHome(t.Home, t.Getenv), "config.toml")
	b, _ := os.ReadFile(cfg)
	if codexHooksOff.Match(b) {
		return []Problem{{"codex", cfg + " switches hooks off", "remove the 'hooks = false' line from " + cfg}}
	}
	return nil
}

// off checks Gemini CLI's hooksConfig in each scope's settings.
func (Gemini) off(t Target, _ map[string]bool) (problems, warnings []Problem) {
	return geminiOff(t), nil
}

// localSettings: Gemini CLI has its scopes' settings files alone.
func (Gemini) localSettings(Target) []string { return nil }

func geminiOff(t Target) []Problem {
	t.Agent = "gemini"
	var out []Problem
	for _, sc := range Scopes {
		t.Scope = sc
		f, err := SettingsPath(t)
		if err != nil {
			continue
		}
		m := readJSON("gemini", f)
		hc, _ := m["hooksConfig"].(map[string]any)
		if hc["enabled"] == false {
			out = append(out, Problem{"gemini", f + " sets hooksConfig.enabled to false: sayso's hooks do not run", "remove hooksConfig.enabled from " + f})
		}
		if ds, ok := hc["disabled"].([]any); ok {
			for _, d := range ds {
				if d == "sayso" {
					out = append(out, Problem{"gemini", f + " lists sayso in hooksConfig.disabled", "remove \"sayso\" from hooksConfig.disabled in " + f})
				}
			}
		}
	}
	return out
}

// settingsFiles are the clients' JSON settings files that can hold hooks
// and an env block, by agent: each client's local ones, then its scopes'.
func settingsFiles(t Target) map[string][]string {
	files := map[string][]string{}
	for _, c := range Clients {
		files[c.Agent] = scopeFiles(t, c.Agent, c.Adapter.(doctorer).localSettings(t))
	}
	return files
}

// pinnedProjects are the project folders of the pins of scope project:
// the folder above the client's settings folder (.claude, .gemini).
func pinnedProjects(pins []Pin) []string {
	var out []string
	for _, p := range pins {
		if p.Kind != PinDefinition || p.Scope != "project" {
			continue
		}
		if root := filepath.Dir(filepath.Dir(p.Path)); !slices.Contains(out, root) {
			out = append(out, root)
		}
	}
	return out
}

// planted finds what an agent could write into a client's settings to
// loosen sayso: an env block that moves sayso's folders (SAYSO_*, XDG_*,
// HOME), Claude Code's sandbox.allowUnsandboxedCommands, and a hook that
// runs a sayso program but that no pin holds.
func planted(t Target, pins []Pin) []Problem {
	pinned := map[string]bool{}
	for _, p := range pins {
		if p.Kind == PinDefinition {
			pinned[p.SHA256] = true
		}
	}
	var out []Problem
	files := settingsFiles(t)
	// Every project sayso was installed in is looked at, not only the
	// one doctor runs in: a hook planted beside a pinned one is found.
	for _, root := range pinnedProjects(pins) {
		if root == t.Project {
			continue
		}
		o := t
		o.Project = root
		for agent, list := range settingsFiles(o) {
			for _, f := range list {
				if !slices.Contains(files[agent], f) {
					files[agent] = append(files[agent], f)
				}
			}
		}
	}
	for _, c := range Clients {
		agent := c.Agent
		for _, f := range files[agent] {
			m := readJSON(agent, f)
			if m == nil {
				continue
			}
			env, _ := m["env"].(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(env)) {
				if strings.HasPrefix(k, "SAYSO_") || strings.HasPrefix(k, "XDG_") || k == "HOME" {
					out = append(out, Problem{agent, f + " sets " + k + " in its env: the client hands it to every hook and step, and it can move where sayso's folders are looked for",
						"remove " + k + " from \"env\" in " + f})
				}
			}
			if sb, _ := m["sandbox"].(map[string]any); sb["allowUnsandboxedCommands"] == true {
				out = append(out, Problem{agent, f + " sets sandbox.allowUnsandboxedCommands: a step may ask to run outside Claude Code's sandbox",
					"set \"allowUnsandboxedCommands\": false under \"sandbox\" in " + f})
			}
			hooks, _ := m["hooks"].(map[string]any)
			for _, event := range slices.Sorted(maps.Keys(hooks)) {
				for _, g := range groups(m, event) {
					if runsSayso(g) && !pinned[sum(canonical(g))] {
						out = append(out, Problem{agent, f + " runs a sayso hook on " + event + " that no pin holds (sayso did not install it, or it was changed)",
							"remove it from " + f + ", then run 'sayso install " + agent + "'"})
					}
				}
			}
		}
	}
	return out
}

// runsSayso reports whether a hook group runs one of sayso's programs.
func runsSayso(g any) bool {
	gm, _ := g.(map[string]any)
	hs, _ := gm["hooks"].([]any)
	for _, h := range hs {
		hm, _ := h.(map[string]any)
		cmd, _ := hm["command"].(string)
		if f := strings.Fields(cmd); len(f) > 0 && slices.Contains(paths.Binaries, filepath.Base(strings.Trim(f[0], `'"`))) {
			return true
		}
	}
	return false
}

// shadowed finds each installed sayso binary that another file of the same
// name comes before on PATH: typing its name runs that other file.
func shadowed(pins []Pin, getenv func(string) string) []Problem {
	path := ""
	if getenv != nil {
		path = getenv("PATH")
	}
	var out []Problem
	seen := map[string]bool{}
	for _, p := range pins {
		if p.Kind != PinBinary || seen[p.Path] {
			continue
		}
		seen[p.Path] = true
		mine, err := os.Stat(p.Path)
		if err != nil {
			continue // CheckPins reports it
		}
		name := filepath.Base(p.Path)
		for _, dir := range filepath.SplitList(path) {
			if dir == "" || !filepath.IsAbs(dir) {
				continue
			}
			c := filepath.Join(dir, name)
			fi, err := os.Stat(c)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
				continue
			}
			if !os.SameFile(fi, mine) {
				out = append(out, Problem{p.Agent, c + " comes before " + p.Path + " on PATH: '" + name + "' runs it, not the sayso that is installed",
					"remove " + c + ", or put " + filepath.Dir(p.Path) + " first on PATH"})
			}
			break
		}
	}
	return out
}
