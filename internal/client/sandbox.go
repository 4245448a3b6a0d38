package client

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/sayso-dev/sayso/internal/policy"
)

// Sandboxes checks the wall behind sayso: each installed client's own
// sandbox. sayso gates the steps an agent asks for, but a program it lets
// run can write whatever the sandbox lets it write; when that includes
// one of sayso's folders (dirs: its state and configuration), that
// program could rewrite sayso's store or policy. The answers are
// warnings: sayso still gates every step, it just stands alone.
//
// With sayso's wall working here (wall.On), a shell step sayso lets run
// runs inside it and cannot write sayso's folders, so a client's sandbox
// being off says less: what it still leaves open is what runs outside
// the wall. Without the wall, nothing stands between a program the agent
// runs and sayso's folders.
//
// What a client's flags say at start (codex --sandbox, gemini --sandbox)
// is not visible here; the settings files and environment are.
func Sandboxes(agents map[string]bool, t Target, dirs []string, wall policy.Wall) []Problem {
	var out []Problem
	for _, c := range Clients {
		agent := c.Agent
		r, ok := c.Adapter.(sandboxReader)
		if !agents[agent] || !ok {
			continue
		}
		w := r.sandbox(t)
		if !w.on {
			fix := w.fix
			if agent == "claude" && wall.On {
				// sayso's whole wall holds the shell steps; Claude Code's
				// sandbox would hold them instead, with Landlock of the wall
				// inside it, and holds nothing else of what runs outside.
				fix = "nothing to fix for the shell steps; " + w.fix + " puts them in Claude Code's own sandbox instead, with only Landlock of sayso's wall inside it (docs/wall.md)"
			}
			out = append(out, Problem{agent, w.off + sandboxOff(wall), fix})
			continue
		}
		if agent == "claude" && wall.On {
			// Not a fault: what sayso's wall holds inside Claude Code's sandbox.
			out = append(out, Problem{agent, ClaudeSandboxNote(),
				"nothing to fix; for sayso's whole wall instead, set \"sandbox\": {\"enabled\": false} in Claude Code's settings (its sandbox then no longer confines the shell steps' network to its allowed hosts)"})
		}
		if agent == "codex" && wall.On {
			// Not a fault: what sayso's wall holds inside Codex's sandbox.
			out = append(out, Problem{agent, CodexSandboxNote(t),
				"nothing to fix; for sayso's whole wall instead, set sandbox_mode = \"danger-full-access\" (Codex's sandbox then no longer confines what runs outside sayso's wall: its MCP servers, apply_patch)"})
		}
		for _, d := range dirs {
			for _, r := range w.roots {
				if r != "" && within(d, r) {
					out = append(out, Problem{agent, "sayso's folder " + d + " is inside " + w.name + "'s writable root " + r + ": a program the agent runs there can rewrite sayso's store or policy",
						"move it out (SAYSO_STATE_DIR, SAYSO_CONFIG_DIR), or take " + r + " out of " + w.name + "'s writable roots"})
					break
				}
			}
		}
	}
	return out
}

// sandboxOff says what a client's sandbox being off still means, with
// sayso's wall working here or not: the rest of the warning's sentence.
func sandboxOff(wall policy.Wall) string {
	if wall.On {
		return ": the shell steps sayso lets run are inside sayso's wall, but what runs outside it can write anywhere you can, sayso's folders included: " +
			"the client itself, its MCP servers and plugins, and a step you allow to run as root (sudo)"
	}
	why := ""
	if wall.Why != "" {
		why = " (" + wall.Why + ")"
	}
	return ", and sayso's wall does not work here" + why + ": a program the agent runs can write anywhere you can, sayso's folders included"
}

// sandboxReader is an adapter whose client has a sandbox of its own:
// sandbox reads it as the client's settings configure it for t.
type sandboxReader interface {
	sandbox(t Target) clientSandbox
}

// clientSandbox is what one client's sandbox lets an agent's programs write.
type clientSandbox struct {
	name  string
	on    bool
	off   string   // why it is off, when it is
	fix   string   // how to turn it on
	roots []string // the folders it may write, when it is on
	mode  string   // Codex's sandbox_mode, "" when unset
}

// claudeWall reads Claude Code's "sandbox" settings: enabled, and the
// extra folders in filesystem.allowWrite. The project folder is always
// writable. Later files win: user, project, local, managed.
func claudeWall(t Target) clientSandbox {
	t.Agent = "claude"
	files := claudeFiles(t)
	t.Scope = "managed"
	if p, err := SettingsPath(t); err == nil {
		files = append(files, p)
	}
	w := clientSandbox{name: "Claude Code", roots: []string{t.Project},
		off: "Claude Code's sandbox is off (no \"sandbox\": {\"enabled\": true} in its settings)",
		fix: "set \"sandbox\": {\"enabled\": true} in " + files[0]}
	for _, f := range files {
		sb, _ := readJSON("claude", f)["sandbox"].(map[string]any)
		if on, ok := sb["enabled"].(bool); ok {
			w.on = on
		}
		fsys, _ := sb["filesystem"].(map[string]any)
		for _, p := range stringList(fsys["allowWrite"]) {
			w.roots = append(w.roots, claudePath(p, t.Home, filepath.Dir(f))...)
		}
	}
	return w
}

// claudePath reads a path of Claude Code's settings: "//x" and "/x" are
// absolute (the second may also be read against the settings file's
// folder, so both are kept), "~/x" is in the home folder, others are
// relative to the settings file's folder.
func claudePath(p, home, base string) []string {
	switch {
	case strings.HasPrefix(p, "//"):
		return []string{p[1:]}
	case strings.HasPrefix(p, "~/") || p == "~":
		return []string{filepath.Join(home, p[1:])}
	case filepath.IsAbs(p):
		return []string{p, filepath.Join(base, p)}
	}
	return []string{filepath.Join(base, p)}
}

// codexWall reads Codex's sandbox_mode (the user's config.toml, its
// selected profile, then the project's .codex/config.toml) and, for
// workspace-write, the writable roots: the project, /tmp and $TMPDIR
// unless excluded, and sandbox_workspace_write.writable_roots. With no
// sandbox_mode Codex picks read-only or workspace-write by the project's
// trust; the wider is checked.
func codexWall(t Target) clientSandbox {
	cfg := filepath.Join(CodexHome(t.Home, t.Getenv), "config.toml")
	w := clientSandbox{name: "Codex",
		off: "Codex runs with sandbox_mode = \"danger-full-access\"",
		// Not a setting that breaks sayso: in Codex's sandbox its steps
		// run with the part of the wall Landlock holds (docs/wall.md).
		fix: "sayso's whole wall holds its shell steps here; to confine what runs outside it too (MCP servers, apply_patch), set sandbox_mode = \"workspace-write\" in " + cfg +
			" and run codex without --dangerously-bypass-approvals-and-sandbox: sayso's steps then run in Codex's sandbox with only Landlock of the wall, and auto asks about steps that run code sayso does not read"}
	mode := ""
	var ws map[string]any
	for _, f := range []string{cfg, filepath.Join(t.Project, ".codex", "config.toml")} {
		m := readTOML(f)
		if s, ok := m["sandbox_mode"].(string); ok {
			mode = s
		}
		if prof, ok := m["profile"].(string); ok {
			profiles, _ := m["profiles"].(map[string]any)
			p, _ := profiles[prof].(map[string]any)
			if s, ok := p["sandbox_mode"].(string); ok {
				mode = s
			}
		}
		if s, ok := m["sandbox_workspace_write"].(map[string]any); ok {
			ws = s
		}
	}
	w.mode = mode
	switch mode {
	case "read-only":
		w.on = true
		return w
	case "danger-full-access":
		return w
	case "", "workspace-write":
		w.on = true
	default:
		w.off = "Codex's sandbox_mode " + mode + " is not one sayso knows"
		return w
	}
	w.roots = append(w.roots, t.Project)
	if ws["exclude_slash_tmp"] != true {
		w.roots = append(w.roots, "/tmp")
	}
	if tmp := t.env("TMPDIR"); tmp != "" && ws["exclude_tmpdir_env_var"] != true {
		w.roots = append(w.roots, tmp)
	}
	for _, r := range stringList(ws["writable_roots"]) {
		if !filepath.IsAbs(r) {
			r = filepath.Join(t.Project, r)
		}
		w.roots = append(w.roots, r)
	}
	return w
}

// geminiWall reads Gemini CLI's sandbox: $GEMINI_SANDBOX, else
// tools.sandbox (or the older top-level sandbox) in its settings. Its
// container mounts the project, the temporary folder and $SANDBOX_MOUNTS
// (from:to:opts, comma-separated; ro ones are skipped).
func geminiWall(t Target) clientSandbox {
	t.Agent = "gemini"
	w := clientSandbox{name: "Gemini CLI",
		off: "Gemini CLI's sandbox is off (no GEMINI_SANDBOX, no tools.sandbox in its settings)"}
	on := false
	for _, sc := range []string{"user", "project", "managed"} {
		t.Scope = sc
		f, err := SettingsPath(t)
		if err != nil {
			continue
		}
		if w.fix == "" {
			w.fix = "set \"tools\": {\"sandbox\": true} in " + f + " (or run gemini --sandbox)"
		}
		m := readJSON("gemini", f)
		tools, _ := m["tools"].(map[string]any)
		for _, v := range []any{m["sandbox"], tools["sandbox"]} {
			if v != nil {
				on = truthy(v)
			}
		}
	}
	if v := t.env("GEMINI_SANDBOX"); v != "" {
		on = truthy(v)
	}
	if !on {
		return w
	}
	w.on = true
	w.roots = append(w.roots, t.Project, os.TempDir())
	for _, m := range strings.Split(t.env("SANDBOX_MOUNTS"), ",") {
		parts := strings.Split(strings.TrimSpace(m), ":")
		if parts[0] == "" || (len(parts) > 2 && parts[2] == "ro") {
			continue
		}
		w.roots = append(w.roots, parts[0])
	}
	return w
}

// truthy reads a sandbox setting: false, "false", "0" and "" are off;
// true and any command name (docker, podman…) are on.
func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		s := strings.ToLower(strings.TrimSpace(v))
		return s != "" && s != "false" && s != "0"
	}
	return false
}

func readTOML(path string) map[string]any {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m map[string]any
	if toml.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// stringList is v's string elements, when v is a list.
func stringList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		if s, ok := e.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// within reports whether path is root or inside it, comparing real paths
// where they exist so that a symlink does not hide the answer.
func within(path, root string) bool {
	p, r := realPath(path), realPath(root)
	rel, err := filepath.Rel(r, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// realPath is p with symlinks resolved in its longest existing prefix.
func realPath(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	if dir == "" || filepath.Clean(dir) == p {
		return p
	}
	return filepath.Join(realPath(filepath.Clean(dir)), base)
}
