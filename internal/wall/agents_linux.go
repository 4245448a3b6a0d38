package wall

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// agentVars are the variables of a step's environment agentsIn reads.
var agentVars = []string{"SSH_AUTH_SOCK", "XDG_RUNTIME_DIR", "TMPDIR", "HOME", "VSCODE_GIT_IPC_HANDLE", "VSCODE_IPC_HOOK_CLI", "VSCODE_IPC_HOOK"}

// agentsIn are the sockets of the agents that sign or decrypt with the
// person's keys, for a step whose environment get reads: the ssh agent
// ($SSH_AUTH_SOCK), the person's other ssh agents (otherAgentsIn), gpg's
// and the keyrings' folders under the runtime folder; the sockets of
// the editor whose terminal the client runs in (editorSockets); and ssh's
// shared connections (controlSockets).
func agentsIn(get func(string) string) []string {
	var out []string
	if s := get("SSH_AUTH_SOCK"); strings.HasPrefix(s, "/") {
		out = append(out, s)
	}
	run := "/run/user/" + strconv.Itoa(os.Getuid())
	if d := get("XDG_RUNTIME_DIR"); strings.HasPrefix(d, "/") {
		run = d
	}
	out = append(out, otherAgentsIn(get("TMPDIR"))...)
	out = append(out, editorSockets(get, run)...)
	out = append(out, controlSockets(get("HOME"))...)
	return append(out, run+"/gnupg", run+"/keyring", run+"/gcr")
}

// controlSockets are the sockets of ssh's shared connections the
// person's ssh configuration names (ControlPath, in ~/.ssh/config,
// /etc/ssh/ssh_config and the files their Includes read; a leading $HOME
// or ${HOME} is the home folder): a master connection is logged in
// already, and anything that reaches its socket runs commands on the
// remote as the person (ssh -S SOCKET host git-receive-pack …) — a push with no key.
// Those under ~/.ssh are hidden with it; these may lie anywhere, /tmp
// most often. Each of the user's sockets that a ControlPath matches is
// hidden, whatever host, port and user its tokens stand for.
func controlSockets(home string) []string {
	// Each configuration, with the folder its Includes' relative paths
	// are read from.
	type config struct{ path, dir string }
	var configs []config
	if strings.HasPrefix(home, "/") {
		configs = append(configs, config{filepath.Join(home, ".ssh", "config"), filepath.Join(home, ".ssh")})
	}
	configs = append(configs, config{"/etc/ssh/ssh_config", "/etc/ssh"})
	uid := uint32(os.Getuid())
	var out []string
	seen := map[string]bool{}
	for n := 0; n < len(configs) && n < 256; n++ {
		c := configs[n]
		if seen[c.path] {
			continue
		}
		seen[c.path] = true
		b, err := os.ReadFile(c.path)
		if err != nil || len(b) > 1<<20 {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			for _, inc := range includes(line, home, c.dir) {
				matches, _ := filepath.Glob(inc)
				for _, m := range matches {
					configs = append(configs, config{m, c.dir})
				}
			}
			pattern := controlPath(line, home)
			if pattern == "" {
				continue
			}
			matches, _ := filepath.Glob(pattern)
			for _, m := range matches {
				fi, err := os.Lstat(m)
				if err != nil || fi.Mode()&os.ModeSocket == 0 {
					continue
				}
				if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid == uid && !slices.Contains(out, m) {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// includes are the globs of the files an Include line of an ssh
// configuration reads, relative ones under dir; none for another line.
func includes(line, home, dir string) []string {
	line = strings.TrimSpace(line)
	i := strings.IndexAny(line, " \t=")
	if i < 0 || !strings.EqualFold(line[:i], "Include") {
		return nil
	}
	var out []string
	for _, f := range words(strings.TrimPrefix(strings.TrimSpace(line[i:]), "=")) {
		if rest, ok := strings.CutPrefix(f, "~/"); ok && home != "" {
			f = filepath.Join(home, rest)
		}
		if f != "" && !strings.HasPrefix(f, "/") {
			f = filepath.Join(dir, f)
		}
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// words are the arguments of an ssh configuration's line as ssh splits
// them: at blanks outside quotes, single or double, a backslash keeping a
// quote, a blank or itself; a word starting with # ends the line.
func words(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			continue
		}
		if s[i] == '#' {
			break
		}
		var w strings.Builder
		var quote byte
		for ; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '\\' && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '"' || s[i+1] == '\\' || quote == 0 && s[i+1] == ' '):
				i++
				w.WriteByte(s[i])
				continue
			case quote == 0 && (c == '"' || c == '\''):
				quote = c
				continue
			case quote != 0 && c == quote:
				quote = 0
				continue
			case quote == 0 && (c == ' ' || c == '\t'):
			default:
				w.WriteByte(c)
				continue
			}
			break
		}
		out = append(out, w.String())
	}
	return out
}

// controlPath is the glob of the sockets a ControlPath line of an ssh
// configuration names, its tokens for host, port, user and the like each
// any name; "" for another line, or none.
func controlPath(line, home string) string {
	line = strings.TrimSpace(line)
	i := strings.IndexAny(line, " \t=")
	if i < 0 || !strings.EqualFold(line[:i], "ControlPath") {
		return ""
	}
	var value string
	if w := words(strings.TrimPrefix(strings.TrimSpace(line[i:]), "=")); len(w) > 0 {
		value = w[0]
	}
	if value == "" || strings.EqualFold(value, "none") {
		return ""
	}
	if rest, ok := strings.CutPrefix(value, "~/"); ok && home != "" {
		value = filepath.Join(home, rest)
	}
	for _, v := range []string{"${HOME}", "$HOME"} {
		if rest, ok := strings.CutPrefix(value, v); ok && home != "" && (rest == "" || rest[0] == '/') {
			value = home + rest
		}
	}
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case c == '%' && i+1 < len(value):
			i++
			switch value[i] {
			case '%':
				b.WriteString("%")
			case 'd':
				b.WriteString(home)
			case 'i':
				b.WriteString(strconv.Itoa(os.Getuid()))
			default:
				b.WriteString("*")
			}
		case c == '$' || c == '*' || c == '?' || c == '[' || c == '\\':
			// An environment variable, or what glob would read: any name.
			b.WriteString("*")
			if c == '$' {
				for i+1 < len(value) && (value[i+1] == '{' || value[i+1] == '}' || value[i+1] == '_' ||
					value[i+1] >= 'A' && value[i+1] <= 'Z' || value[i+1] >= 'a' && value[i+1] <= 'z' || value[i+1] >= '0' && value[i+1] <= '9') {
					i++
				}
			}
		default:
			b.WriteByte(c)
		}
	}
	if p := b.String(); strings.HasPrefix(p, "/") {
		return filepath.Clean(p)
	}
	return ""
}

// editorSockets are the editors' sockets. VS Code's: git's askpass
// ($VSCODE_GIT_IPC_HANDLE: asked for a password, the editor answers with
// the token the person signed in with) and its command line's
// ($VSCODE_IPC_HOOK_CLI: it opens windows and installs extensions, which
// run outside any wall), as the environment names them, and every
// vscode-*.sock of the user's in the runtime folder and the temp folders,
// where the editor's other windows keep theirs; and Neovim's.
func editorSockets(get func(string) string, run string) []string {
	var out []string
	for _, v := range []string{"VSCODE_GIT_IPC_HANDLE", "VSCODE_IPC_HOOK_CLI", "VSCODE_IPC_HOOK"} {
		if s := get(v); strings.HasPrefix(s, "/") {
			out = append(out, filepath.Clean(s))
		}
	}
	uid := uint32(os.Getuid())
	for _, d := range append([]string{run}, temps(get("TMPDIR"))...) {
		socks, _ := filepath.Glob(filepath.Join(d, "vscode-*.sock"))
		// Neovim's servers: nvim.PID.0 in the runtime folder, or a
		// folder nvim.USER in the temp folder (`nvim --server … --remote-send`).
		nvim, _ := filepath.Glob(filepath.Join(d, "nvim.*"))
		for _, s := range append(socks, nvim...) {
			if fi, err := os.Lstat(s); err == nil {
				if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid == uid && !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// temps are the temp folders: /tmp, and tmpdir when it is another.
func temps(tmpdir string) []string {
	out := []string{"/tmp"}
	if strings.HasPrefix(tmpdir, "/") && filepath.Clean(tmpdir) != "/tmp" {
		out = append(out, filepath.Clean(tmpdir))
	}
	return out
}

// otherAgentsIn are the folders where ssh-agent and sshd keep the
// person's other agents' sockets (/tmp/ssh-XXXXXXXXXX/agent.PID, under
// tmpdir, a step's $TMPDIR, when set): an agent started in another
// terminal, or forwarded into another login, that the client's
// SSH_AUTH_SOCK does not name. Each folder of the user's that holds an
// agent.* socket is hidden: a step that finds one by its place would
// have it sign.
func otherAgentsIn(tmpdir string) []string {
	uid := uint32(os.Getuid())
	var out []string
	for _, t := range temps(tmpdir) {
		dirs, _ := filepath.Glob(filepath.Join(t, "ssh-*"))
		for _, d := range dirs {
			fi, err := os.Lstat(d)
			if err != nil || !fi.IsDir() {
				continue
			}
			if st, ok := fi.Sys().(*syscall.Stat_t); !ok || st.Uid != uid {
				continue // another user's: the kernel keeps it from this one
			}
			socks, _ := filepath.Glob(filepath.Join(d, "agent.*"))
			if len(socks) > 0 {
				out = append(out, d)
			}
		}
	}
	return out
}
