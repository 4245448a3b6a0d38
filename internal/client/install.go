package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/sayso-dev/sayso/internal/atomicfile"
	"github.com/sayso-dev/sayso/internal/risk"
)

// HookTimeout is the timeout, in seconds, install writes for the events
// that only record (a prompt, a session, a task): they answer at once.
// It is also the wait assumed of a client whose definition sayso did not
// pin: the shortest sayso ever wrote.
const HookTimeout = 30

// DecideTimeout is the timeout, in seconds, install writes for the events
// that decide a step (PreToolUse, PermissionRequest, BeforeTool): a card
// waits for the person that long, less CardMargin. It is Claude Code's and
// Codex's own default for tool hooks (seconds); Gemini CLI counts
// milliseconds and sets no maximum.
const DecideTimeout = 600

// CardMargin is how long before its client gives up on a hook the
// gateway stops waiting for the person, so that sayso's own answer comes
// first: Codex and Gemini run a step whose hook timed out.
const CardMargin = 5 * time.Second

// ManagedRoot is where managed (system-wide) settings live; tests move it.
var ManagedRoot = "/"

// Scopes lists where a hook may be installed.
var Scopes = []string{"user", "project", "managed"}

// Target is where to install one agent's hooks.
type Target struct {
	Agent   string
	Scope   string // user, project or managed
	Project string // the project root, for scope project
	Home    string
	Getenv  func(string) string
	Binary  string // the absolute path of the binary the hooks run
	// Fallback is the sayso binary Binary runs when no gateway answers,
	// when Binary is the forwarder sayso-hook; "" when Binary is sayso.
	Fallback string
	// StateDir and ConfigDir are sayso's folders, named on the hook's
	// command line: the hook never looks for them in its environment.
	StateDir, ConfigDir string
}

func (t Target) env(k string) string {
	if t.Getenv == nil {
		return ""
	}
	return t.Getenv(k)
}

// eventDef is one hook event install adds, with its matcher ("" for none)
// and whether it decides a step (and so may wait for the person).
type eventDef struct {
	name, matcher string
	decides       bool
}

// timeout is the timeout, in seconds, install writes for the event in
// agent's settings.
func (e eventDef) timeout(agent string) int {
	if e.decides {
		return DecideTimeout
	}
	if c, _ := Of(agent); c.SessionEndMax > 0 && e.name == "SessionEnd" {
		return c.SessionEndMax
	}
	return HookTimeout
}

// WaitMessage is what Claude Code and Codex show in the person's
// terminal while a hook that decides a step runs (their statusMessage):
// when a card waits for the person, the terminal says where.
const WaitMessage = "sayso: a question may wait for you on sayso's page (sayso status prints its address)"

// status is the statusMessage install writes for the event in agent's
// settings; "" for none.
func (e eventDef) status(agent string) string {
	if c, _ := Of(agent); e.decides && c.WaitStatus {
		return WaitMessage
	}
	return ""
}

// installer is what install asks of a client's adapter: where its
// hooks go, and the shape of one hook handler.
type installer interface {
	// settings is the file the client's hooks go in for t's scope; ""
	// for a scope sayso does not know.
	settings(t Target) (string, error)
	// handler is one hook handler in the client's own shape, with every
	// fail-closed option the client has.
	handler(command string, timeout int) map[string]any
}

// scopedSettings is the settings file of a client that reads one per
// scope: user's, the project's dir/settings.json, and managed (under
// ManagedRoot/etc); "" for another scope.
func scopedSettings(t Target, user, dir, managed string) string {
	switch t.Scope {
	case "user":
		return user
	case "project":
		return filepath.Join(t.Project, dir, "settings.json")
	case "managed":
		return filepath.Join(ManagedRoot, "etc", managed)
	}
	return ""
}

// SettingsPath is the file an agent's hooks go in for a scope.
func SettingsPath(t Target) (string, error) {
	c, ok := Of(t.Agent)
	if !ok {
		return "", fmt.Errorf("unknown agent %q (want %s)", t.Agent, AgentList())
	}
	if p, err := c.Adapter.(installer).settings(t); err != nil || p != "" {
		return p, err
	}
	return "", fmt.Errorf("unknown scope %q (want user, project or managed)", t.Scope)
}

// CodexHome is $CODEX_HOME, else ~/.codex.
func CodexHome(home string, getenv func(string) string) string {
	if getenv != nil && getenv("CODEX_HOME") != "" {
		return getenv("CODEX_HOME")
	}
	return filepath.Join(home, ".codex")
}

// GeminiHome is $GEMINI_CLI_HOME, else the home folder; settings live in
// its .gemini folder.
func GeminiHome(home string, getenv func(string) string) string {
	if getenv != nil && getenv("GEMINI_CLI_HOME") != "" {
		return getenv("GEMINI_CLI_HOME")
	}
	return home
}

// HookCommand is the command line a client runs for agent's hook: the
// binary, sayso's folders, the agent.
func HookCommand(binary, state, config, agent string) string {
	return risk.ShellQuote(binary) + " --state-dir " + risk.ShellQuote(state) + " --config-dir " + risk.ShellQuote(config) + " hook " + agent
}

// handler is one hook handler of agent's client, with its status
// message.
func handler(agent, command string, timeout int, status string) map[string]any {
	c, _ := Of(agent)
	h := c.Adapter.(installer).handler(command, timeout)
	if status != "" {
		h["statusMessage"] = status
	}
	return h
}

func group(agent string, ev eventDef, command string) map[string]any {
	g := map[string]any{"hooks": []any{handler(agent, command, ev.timeout(agent), ev.status(agent))}}
	if ev.matcher != "" {
		g["matcher"] = ev.matcher
	}
	return g
}

// Install writes agent's hook definitions into the client's settings,
// keeping everything else in the file, with a backup of what was there,
// and records the pins. Installing again replaces what the last install
// of the same agent into the same settings file added; the pins of every
// other settings file are kept.
func Install(t Target, store PinStore) ([]Pin, error) {
	if !filepath.IsAbs(t.Binary) {
		return nil, fmt.Errorf("install %s: binary path %q is not absolute", t.Agent, t.Binary)
	}
	path, err := SettingsPath(t)
	if err != nil {
		return nil, err
	}
	all, err := store.Load()
	if err != nil {
		return nil, fmt.Errorf("install %s: %w", t.Agent, err)
	}
	var old, keep []Pin
	for _, p := range all {
		if p.ownedBy(t.Agent, t.Scope, path) {
			old = append(old, p)
		} else {
			keep = append(keep, p)
		}
	}
	settings, orig, created, err := readSettings(t.Agent, path)
	if err != nil {
		return nil, fmt.Errorf("install %s: %w", t.Agent, err)
	}
	for _, p := range old {
		if p.Kind == PinDefinition && p.Path == path {
			removeGroup(settings, p)
			created = created || p.Created
		}
	}
	hooks, ok := settings["hooks"].(map[string]any)
	if settings["hooks"] != nil && !ok {
		return nil, fmt.Errorf("install %s: %s: \"hooks\" is not an object", t.Agent, path)
	}
	if hooks == nil {
		hooks = map[string]any{}
		settings["hooks"] = hooks
	}
	bin, err := binaryPin(t, t.Binary)
	if err != nil {
		return nil, err
	}
	pins := []Pin{bin}
	if t.Fallback != "" {
		fb, err := binaryPin(t, t.Fallback)
		if err != nil {
			return nil, err
		}
		pins = append(pins, fb)
	}
	if !filepath.IsAbs(t.StateDir) || !filepath.IsAbs(t.ConfigDir) {
		return nil, fmt.Errorf("install %s: sayso's folders %q and %q must be absolute", t.Agent, t.StateDir, t.ConfigDir)
	}
	command := HookCommand(t.Binary, t.StateDir, t.ConfigDir, t.Agent)
	var trusts []codexTrust
	c, _ := Of(t.Agent)
	for _, ev := range c.Events {
		list, ok := hooks[ev.name].([]any)
		if hooks[ev.name] != nil && !ok {
			return nil, fmt.Errorf("install %s: %s: hooks.%s is not a list", t.Agent, path, ev.name)
		}
		g := group(t.Agent, ev, command)
		hooks[ev.name] = append(list, g)
		entry := canonical(g)
		pins = append(pins, Pin{Agent: t.Agent, Scope: t.Scope, Kind: PinDefinition, Path: path, Event: ev.name,
			SHA256: sum(entry), Entry: entry, Created: created})
		trusts = append(trusts, codexTrust{path, ev, len(list), command})
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("install %s: %w", t.Agent, err)
	}
	if orig != nil {
		if err := atomicfile.WriteFile(path+".sayso-backup", orig, 0o600); err != nil {
			return nil, fmt.Errorf("install %s: backup: %w", t.Agent, err)
		}
	}
	if err := writeSettings(t.Agent, path, orig, settings); err != nil {
		return nil, fmt.Errorf("install %s: %w", t.Agent, err)
	}
	if t.Agent == "codex" {
		var oldTrust *Pin
		for i := range old {
			if old[i].Kind == PinTrust {
				oldTrust = &old[i]
			}
		}
		tp, err := writeCodexTrust(filepath.Join(filepath.Dir(path), "config.toml"), trusts, oldTrust)
		if err != nil {
			return nil, fmt.Errorf("install codex: %w", err)
		}
		tp.Scope = t.Scope
		pins = append(pins, tp)
	}
	if cmd := commandPath(t, path); cmd != "" {
		cp, err := writeCommand(t, cmd, old)
		if err != nil {
			return nil, fmt.Errorf("install %s: %w", t.Agent, err)
		}
		pins = append(pins, cp)
	}
	for i := range pins {
		pins[i].Settings = path
	}
	if err := store.Save(append(keep, pins...)); err != nil {
		return nil, fmt.Errorf("install %s: %w", t.Agent, err)
	}
	return pins, nil
}

func binaryPin(t Target, path string) (Pin, error) {
	if !filepath.IsAbs(path) {
		return Pin{}, fmt.Errorf("install %s: binary path %q is not absolute", t.Agent, path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return Pin{}, fmt.Errorf("install %s: %w", t.Agent, err)
	}
	h, err := FileSum(path)
	if err != nil {
		return Pin{}, fmt.Errorf("install %s: hash binary: %w", t.Agent, err)
	}
	ino, change := inode(fi)
	return Pin{Agent: t.Agent, Scope: t.Scope, Kind: PinBinary, Path: path, SHA256: h, Size: fi.Size(), ModTime: fi.ModTime(), Inode: ino, Change: change}, nil
}

// readSettings reads agent's client's JSON settings, as the client reads
// them (Gemini's with comments): nil orig and created when the file does
// not exist yet. A file that is not a JSON object is an error: sayso does
// not overwrite what it cannot read.
func readSettings(agent, path string) (settings map[string]any, orig []byte, created bool, err error) {
	orig, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]any{}, nil, true, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	if len(bytes.TrimSpace(orig)) == 0 {
		return map[string]any{}, orig, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(settingsJSON(agent, orig)))
	dec.UseNumber()
	if err := dec.Decode(&settings); err != nil || settings == nil {
		return nil, nil, false, fmt.Errorf("%s is not a JSON object; fix it or move it away first", path)
	}
	return settings, orig, false, nil
}

// writeSettings writes settings over path, whose text was orig. A file
// with comments its client reads keeps them: only its "hooks" is
// rewritten.
func writeSettings(agent, path string, orig []byte, settings map[string]any) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if hasComments(agent, orig) {
		b, err := withHooks(orig, settings["hooks"])
		if err != nil {
			return fmt.Errorf("%s: keep its comments: %w", path, err)
		}
		return atomicfile.WriteFile(path, b, mode)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(settings); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, buf.Bytes(), mode)
}

// removeGroup removes the groups matching pin p from settings, and the
// event list and hooks object when they are left empty.
func removeGroup(settings map[string]any, p Pin) bool {
	hooks, _ := settings["hooks"].(map[string]any)
	list, _ := hooks[p.Event].([]any)
	var rest []any
	found := false
	for _, g := range list {
		if sum(canonical(normalize(g))) == p.SHA256 {
			found = true
			continue
		}
		rest = append(rest, g)
	}
	if !found {
		return false
	}
	if len(rest) == 0 {
		delete(hooks, p.Event)
	} else {
		hooks[p.Event] = rest
	}
	if len(hooks) == 0 {
		delete(settings, "hooks")
	}
	return true
}

// normalize turns json.Number values back into plain numbers so a group
// read with UseNumber hashes as it did when it was written.
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	}
	return v
}

// Uninstall removes exactly what install added for agent ("" for every
// agent): each pinned group still found unchanged, the Codex trust block,
// a file install created that is left empty, and the pins. It returns
// what it could not find.
func Uninstall(agent string, store PinStore) (removed []Pin, missing []Pin, err error) {
	all, err := store.Load()
	if err != nil {
		return nil, nil, fmt.Errorf("uninstall: %w", err)
	}
	var keep []Pin
	byPath := map[string][]Pin{}
	var order []string
	for _, p := range all {
		if agent != "" && p.Agent != agent {
			keep = append(keep, p)
			continue
		}
		switch p.Kind {
		case PinDefinition:
			if byPath[p.Path] == nil {
				order = append(order, p.Path)
			}
			byPath[p.Path] = append(byPath[p.Path], p)
		case PinCommand, PinTrust:
			remove := removeCommand
			if p.Kind == PinTrust {
				remove = removeCodexTrust
			}
			ok, err := remove(p)
			if err != nil {
				return nil, nil, fmt.Errorf("uninstall: %w", err)
			}
			if ok {
				removed = append(removed, p)
			} else {
				missing = append(missing, p)
			}
		default:
			removed = append(removed, p)
		}
	}
	for _, path := range order {
		settings, orig, _, err := readSettings(byPath[path][0].Agent, path)
		if err != nil {
			return nil, nil, fmt.Errorf("uninstall: %w", err)
		}
		created := false
		for _, p := range byPath[path] {
			created = created || p.Created
			if orig != nil && removeGroup(settings, p) {
				removed = append(removed, p)
			} else {
				missing = append(missing, p)
			}
		}
		if orig == nil {
			continue
		}
		if created && len(settings) == 0 {
			if err := os.Remove(path); err != nil {
				return nil, nil, fmt.Errorf("uninstall: %w", err)
			}
			continue
		}
		if err := atomicfile.WriteFile(path+".sayso-backup", orig, 0o600); err != nil {
			return nil, nil, fmt.Errorf("uninstall: backup: %w", err)
		}
		if err := writeSettings(byPath[path][0].Agent, path, orig, settings); err != nil {
			return nil, nil, fmt.Errorf("uninstall: %w", err)
		}
	}
	if err := store.Save(keep); err != nil {
		return nil, nil, fmt.Errorf("uninstall: %w", err)
	}
	return removed, missing, nil
}

// Installed lists what sayso installed that no agent step may touch: the
// settings files holding its hook definitions and the binaries they run
// (sayso-hook, with install --fast).
func Installed(store PinStore) []string {
	pins, _ := store.Load()
	seen := map[string]bool{}
	var out []string
	for _, p := range pins {
		if (p.Kind == PinDefinition || p.Kind == PinTrust || p.Kind == PinBinary || p.Kind == PinCommand) && !seen[p.Path] {
			seen[p.Path] = true
			out = append(out, p.Path)
		}
	}
	return out
}
