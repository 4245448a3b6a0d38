package client

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/policy"
)

// switchOff plants, for each client, a line in its settings that keeps
// sayso's hooks from running, into a scratch home and project: the file
// and what to add to it. A new client needs its line here.
var switchOff = map[string]func(t Target) (file, add string){
	"claude": func(t Target) (string, string) {
		return filepath.Join(t.Project, ".claude", "settings.local.json"), `{"disableAllHooks": true}`
	},
	"codex": func(t Target) (string, string) {
		return filepath.Join(CodexHome(t.Home, t.Getenv), "config.toml"), "\n[features]\nhooks = false\n"
	},
	"gemini": func(t Target) (string, string) {
		return filepath.Join(t.Project, ".gemini", "settings.json"), `{"hooksConfig": {"enabled": false}}`
	},
}

// Every client in the registry goes through install, doctor and
// uninstall: install writes hooks doctor finds whole, doctor finds a
// switch-off planted in the client's settings, and uninstall leaves
// every file as it was. A new client cannot skip them.
func TestEveryClientInstallsDoctorsUninstalls(t *testing.T) {
	for _, c := range Clients {
		t.Run(c.Agent, func(t *testing.T) {
			if _, ok := c.Adapter.(doctorer); !ok {
				t.Fatalf("%T does not say what doctor checks (doctorer)", c.Adapter)
			}
			plant := switchOff[c.Agent]
			if plant == nil {
				t.Fatalf("no switch-off planted for %s: add one to switchOff", c.Agent)
			}
			dir := t.TempDir()
			home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
			must(t, os.MkdirAll(project, 0o755))
			bin := filepath.Join(dir, "sayso")
			write(t, bin, "#!/bin/sh\n")
			getenv := func(string) string { return "" }
			target := Target{Agent: c.Agent, Scope: "user", Project: project, Home: home, Getenv: getenv,
				Binary: bin, StateDir: filepath.Join(dir, "state"), ConfigDir: filepath.Join(dir, "config")}
			store := FilePins{Path: filepath.Join(dir, "pins.json")}
			settings, err := SettingsPath(target)
			must(t, err)
			// The person's own settings, and the file the switch-off goes
			// in, are there before install.
			file, add := plant(target)
			before := map[string][]byte{}
			for _, f := range []string{settings, file} {
				must(t, os.MkdirAll(filepath.Dir(f), 0o755))
				if _, err := os.Stat(f); err != nil {
					write(t, f, personal(f))
				}
				before[f], err = os.ReadFile(f)
				must(t, err)
			}

			pins, err := Install(target, store)
			must(t, err)
			if len(pins) == 0 {
				t.Fatal("install pinned nothing")
			}
			installed := map[string][]byte{}
			for f := range before {
				installed[f], err = os.ReadFile(f)
				must(t, err)
			}
			if bytes.Equal(installed[settings], before[settings]) {
				t.Fatalf("install left %s as it was", settings)
			}
			if r := Doctor(store, home, project, getenv, nil, policy.Wall{On: true}); len(r.Problems) != 0 {
				t.Fatalf("doctor after install: %v", r.Problems)
			}

			// A switch-off planted in the client's settings.
			planted := append(bytes.Clone(installed[file]), add...)
			if strings.HasSuffix(file, ".json") {
				planted = []byte(add)
			}
			must(t, os.WriteFile(file, planted, 0o644))
			r := Doctor(store, home, project, getenv, nil, policy.Wall{On: true})
			pinned := map[Problem]bool{}
			for _, p := range CheckPins(store, "") {
				pinned[p] = true
			}
			found := false
			for _, p := range r.Problems {
				found = found || (!pinned[p] && p.Agent == c.Agent && strings.Contains(p.What, file))
			}
			if !found {
				t.Errorf("doctor did not find the switch-off in %s: %v", file, r.Problems)
			}
			must(t, os.WriteFile(file, installed[file], 0o644))

			if _, missing, err := Uninstall(c.Agent, store); err != nil || len(missing) != 0 {
				t.Fatalf("uninstall: missing %v, %v", missing, err)
			}
			for f, want := range before {
				if got, _ := os.ReadFile(f); !bytes.Equal(got, want) {
					t.Errorf("uninstall left %s\n%s\nwant\n%s", f, got, want)
				}
			}
		})
	}
}

// personal is a setting of the person's own in a settings file.
func personal(file string) string {
	if strings.HasSuffix(file, ".toml") {
		return "model = \"fake-model\"\n"
	}
	return "{\n  \"model\": \"fake-model\"\n}\n"
}

// Every settings file a client reads hooks or a switch-off from, in every
// scope, is a place of the one table whose content acts later: the engine
// asks before a step writes it and the wall keeps it read-only. A new
// client whose places the table lacks fails here.
func TestEveryClientsSettingsArePlaces(t *testing.T) {
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	target := Target{Project: project, Home: home, Getenv: func(string) string { return "" }}
	files := settingsFiles(target)
	for _, c := range Clients {
		if len(files[c.Agent]) == 0 {
			t.Errorf("%s: no settings files", c.Agent)
		}
		target.Agent = c.Agent
		if plant := switchOff[c.Agent]; plant != nil {
			file, _ := plant(target)
			files[c.Agent] = append(files[c.Agent], file)
		}
		for _, f := range files[c.Agent] {
			if strings.HasPrefix(f, "/etc/") || strings.HasPrefix(f, "/Library/") {
				continue // the machine's managed files: a normal user cannot write them
			}
			pl, ok := place.Written(f, home)
			if !ok || !pl.Kind.Acts() {
				t.Errorf("%s reads %s, which is no place that acts later in the one table (place.Written = %v, %v)", c.Agent, f, pl, ok)
			}
		}
	}
}
