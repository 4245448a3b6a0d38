package client

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// claudeMods finds the code Claude Code loads that can answer a tool call
// ahead of sayso's hook, or instead of the person:
//
//   - dev mods, each folder in dev-mods under Claude Code's configuration
//     folder (2.1.287 and later): they run inside the client and answer
//     classic.PreToolUse and classic.PermissionRequest before any hook;
//     only the managed option allowManagedModsOnly keeps the person's own
//     from loading;
//   - plugins that bring hooks (a hooks/hooks.json under plugins/): their
//     PermissionRequest hook can allow a step sayso asked the person
//     about, in the client's own dialog.
//
// The first are problems (sayso's answer is not the last word), the
// second warnings. Neither can be written by a step sayso lets through:
// Claude Code's configuration folder is read-only in the wall, and a
// write the engine reads there is an instruction-patch that asks.
func claudeMods(t Target) (problems, warnings []Problem) {
	t.Agent, t.Scope = "claude", "user"
	user, err := SettingsPath(t)
	if err != nil {
		return nil, nil
	}
	config := filepath.Dir(user)
	t.Scope = "managed"
	managed, _ := SettingsPath(t)
	if !managedModsOnly(readJSON("claude", managed)) {
		mods := filepath.Join(config, "dev-mods")
		entries, _ := os.ReadDir(mods)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			p := filepath.Join(mods, e.Name())
			problems = append(problems, Problem{"claude", "Claude Code loads the dev mod " + p + ", which can answer tool calls ahead of sayso's hook (classic.PreToolUse, classic.PermissionRequest): sayso's deny or question is not the last word",
				"remove " + p + " if you did not put it there; your admin can load only the organization's mods with allowManagedModsOnly in " + managed})
		}
	}
	var hooks []string
	root := filepath.Join(config, "plugins")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && strings.Count(strings.TrimPrefix(p, root), "/") > 6 {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "hooks.json" && filepath.Base(filepath.Dir(p)) == "hooks" {
			hooks = append(hooks, p)
		}
		return nil
	})
	slices.Sort(hooks)
	for _, h := range hooks {
		plugin := filepath.Dir(filepath.Dir(h))
		warnings = append(warnings, Problem{"claude", "the Claude Code plugin " + plugin + " brings hooks (" + h + "): its PermissionRequest hook can allow, without you, a step sayso asked you about",
			"uninstall the plugin (claude plugin uninstall) if you do not need its hooks; your admin can allow only managed hooks with allowManagedHooksOnly in " + managed + " (then install sayso with --scope managed)"})
	}
	return problems, warnings
}

// managedModsOnly reports whether managed settings set
// allowManagedModsOnly, in a plugin's options (pluginConfigs) or at the
// top level.
func managedModsOnly(m map[string]any) bool {
	if m["allowManagedModsOnly"] == true {
		return true
	}
	cfgs, _ := m["pluginConfigs"].(map[string]any)
	for _, c := range cfgs {
		cm, _ := c.(map[string]any)
		opts, _ := cm["options"].(map[string]any)
		if v, ok := opts["allowManagedModsOnly"]; ok && v != nil && v != false {
			return true
		}
	}
	return false
}
