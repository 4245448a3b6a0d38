package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
)

// Report is what doctor found: problems switch sayso off or make it ask
// every step; warnings weaken the wall behind it.
type Report struct {
	Problems []Problem `json:"problems"`
	Warnings []Problem `json:"warnings"`
}

// Doctor checks what sayso installed: the pins, the client settings that
// switch hooks off, and each client's own sandbox against sayso's
// folders (dirs). project is the project root to check project files in.
func Doctor(store PinStore, home, project string, getenv func(string) string, dirs []string) Report {
	pins, err := store.Load()
	if err != nil {
		return Report{Problems: []Problem{{What: err.Error(), Fix: "sayso install AGENT"}}}
	}
	if len(pins) == 0 {
		return Report{Problems: []Problem{{What: "sayso is installed for no agent", Fix: "sayso install claude (or codex, gemini)"}}}
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
	if s := scopes["claude"]; s != nil {
		out = append(out, claudeOff(t, s["managed"])...)
	}
	if scopes["codex"] != nil {
		out = append(out, codexOff(t)...)
	}
	if scopes["gemini"] != nil {
		out = append(out, geminiOff(t)...)
	}
	agents := map[string]bool{}
	for a := range scopes {
		agents[a] = true
	}
	return Report{Problems: out, Warnings: Sandboxes(agents, t, dirs)}
}

func readJSON(path string) map[string]any {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
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

func claudeOff(t Target, managed bool) []Problem {
	t.Agent = "claude"
	var out []Problem
	for _, f := range claudeFiles(t) {
		m := readJSON(f)
		if m["\x00invalid"] == true {
			out = append(out, Problem{"claude", f + " is not valid JSON: Claude Code ignores the whole file in -p runs", "fix the JSON in " + f})
		}
		if m["disableAllHooks"] == true && !managed {
			out = append(out, Problem{"claude", f + " sets disableAllHooks: sayso's hooks do not run", "remove \"disableAllHooks\" from " + f + ", or run 'sayso install claude --scope managed'"})
		}
	}
	t.Scope = "managed"
	mp, _ := SettingsPath(t)
	if m := readJSON(mp); m["allowManagedHooksOnly"] == true && !managed {
		out = append(out, Problem{"claude", mp + " allows managed hooks only: sayso's hooks do not run", "sayso install claude --scope managed"})
	}
	return out
}

var codexHooksOff = regexp.MustCompile(`(?m)^\s*(codex_)?hooks\s*=\s*false\b`)

func codexOff(t Target) []Problem {
	cfg := filepath.Join(CodexHome(t.Home, t.Getenv), "config.toml")
	b, _ := os.ReadFile(cfg)
	if codexHooksOff.Match(b) {
		return []Problem{{"codex", cfg + " switches hooks off", "remove the 'hooks = false' line from " + cfg}}
	}
	return nil
}

func geminiOff(t Target) []Problem {
	t.Agent = "gemini"
	var out []Problem
	for _, sc := range Scopes {
		t.Scope = sc
		f, err := SettingsPath(t)
		if err != nil {
			continue
		}
		m := readJSON(f)
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
