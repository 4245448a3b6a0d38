package risk

import (
	"path"
	"strings"
	"sync/atomic"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/shell"
)

// buildPrograms makes the table of the programs with a classifier of
// their own: the program's name to the function that classifies it.
func buildPrograms() map[string]func(*cmd) {
	programs := make(map[string]func(*cmd), 1400)
	for _, f := range families() {
		fn := f.classifier()
		for _, n := range f.names {
			programs[n] = fn
		}
	}
	return programs
}

// hasPrefixArg reports whether a literal argument starts with p.
func (c *cmd) hasPrefixArg(p string) bool {
	for _, w := range c.args {
		if strings.HasPrefix(w.Value, p) {
			return true
		}
	}
	return false
}

// readSecrets records operands that name secrets or sayso's own files.
func (c *cmd) readSecrets() {
	ops := c.operands()
	for _, w := range ops {
		c.readIfSecret(w)
	}
	c.readsUnder(ops)
}

// secretFolders are the home's credential places (place.Table), relative
// to it: the folders and files that hold keys, tokens and passwords.
var secretFolders = homeCredentials()

// secretDirs are secretFolders, each with a slash after it.
var secretDirs = withSlash(secretFolders)

func withSlash(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p + "/"
	}
	return out
}

// homeSecrets are secretFolders joined to a home (path.Join), kept for the
// last home asked: the engine asks with one home for every path of every
// step, and builds the joins once for it.
type homeSecrets struct {
	home  string
	paths []string
}

var lastHomeSecrets atomic.Pointer[homeSecrets]

func secretsIn(home string) []string {
	if h := lastHomeSecrets.Load(); h != nil && h.home == home {
		return h.paths
	}
	h := &homeSecrets{home: home, paths: make([]string, len(secretFolders))}
	for i, f := range secretFolders {
		h.paths[i] = path.Join(home, f)
	}
	lastHomeSecrets.Store(h)
	return h.paths
}

func homeCredentials() []string {
	var out []string
	for _, pl := range place.Of(place.Home, place.Credential) {
		out = append(out, pl.Path)
	}
	return out
}

// readsUnder classifies reading every file below each of ws: a folder that
// holds sayso's own files is protected, one that holds the home's keys is
// secret (grep -r token ~, tar czf home.tgz ~).
func (c *cmd) readsUnder(ws []shell.Word) {
	home := c.a.ctx.Home
	for _, w := range ws {
		for _, p := range c.a.resolve(w) {
			for _, q := range c.a.ctx.Protected {
				if within(q, p) && q != p {
					c.add(Protected, TouchesProtected.By(c.name, "", w.Raw))
				}
			}
			if home == "" || !within(home, p) && !within(p, home) {
				continue
			}
			for i, s := range secretsIn(home) {
				if f := secretFolders[i]; within(s, p) && s != p {
					c.add(Secret, Reason{Kind: PathCredential, Program: c.name, Verb: "read", Object: w.Raw, What: "everything under it, ~/" + f + " included"})
					break
				}
			}
		}
	}
}

// recursive reports whether a grep-like reader walks the folders it is
// given: rg, ag and ack always do; grep with -r, -R or --recursive.
func (c *cmd) recursive() bool {
	switch c.name {
	case "rg", "ag", "ack":
		return true
	case "grep", "egrep", "fgrep", "zgrep":
		return c.has("-r", "-R", "--recursive", "--dereference-recursive") || c.shortFlag('r') || c.shortFlag('R')
	}
	return false
}

// cwdWrite records the working folder as written: a build, an install or
// a test run writes where it runs.
func (c *cmd) cwdWrite() {
	for _, d := range c.a.cwds {
		c.a.out.Paths = append(c.a.out.Paths, PathUse{Op: OpWrite, Path: d, Raw: ".", Segment: c.i})
	}
}

func localWriteFamily() family {
	return family{names: []string{"memcached", "ansible-galaxy", "tree-sitter", "git-lfs", "pre-commit"}, classify: localWrite}
}

func localWrite(c *cmd) {
	c.add(LocalWrite, ChangesProject.By(c.name, "", ""))
	c.cwdWrite()
}

// logFiles records the files less copies what it shows into (-o, -O,
// --log-file and --LOG-FILE, abbreviated or in a cluster) and the file
// tree -o writes its listing to.
func (c *cmd) logFiles() {
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		var file *shell.Word
		next := func() {
			if i+1 < len(c.args) {
				i++
				file = &c.args[i]
			}
		}
		switch {
		case !w.Literal && strings.HasPrefix(w.Raw, "-"):
			c.unknownWrite(c.name + " " + w.Raw)
			continue
		case v == "--":
			return
		case c.name == "tree" && v == "-o":
			next()
		case c.name == "tree":
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			if len(name) < 2 || !strings.HasPrefix("log-file", name) && !strings.HasPrefix("LOG-FILE", name) {
				continue
			}
			if hasVal {
				file = &shell.Word{Raw: val, Value: val, Literal: true, Tilde: strings.HasPrefix(val, "~")}
			} else {
				next()
			}
		case strings.HasPrefix(v, "-"):
			for j := 1; j < len(v); j++ {
				if strings.IndexByte("bhjkpPtTxyz#D", v[j]) >= 0 {
					break // the rest is this option's value
				}
				if v[j] == 'o' || v[j] == 'O' {
					if rest := v[j+1:]; rest != "" {
						file = &shell.Word{Raw: rest, Value: rest, Literal: true, Tilde: strings.HasPrefix(rest, "~")}
					} else {
						next()
					}
					break
				}
			}
		}
		if file != nil {
			c.add(LocalWrite, WritesPath.By(c.name, "", file.Raw))
			c.write(*file)
		}
	}
}
