package place

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is what a place holds, and so what the engine and the wall make of
// it. The zero value is the most guarded one.
type Kind uint8

const (
	// Credential holds the person's keys, tokens or passwords: the engine
	// calls reading it a secret read; the wall hides it from every walled
	// step not granted it.
	Credential Kind = iota
	// Instruction is what an agent reads as its instructions.
	Instruction
	// Settings is what an agent or a tool reads as its settings, which
	// can name a program it runs (a hook, a script shell, a registry).
	Settings
	// StartUp is what a shell, the session or a tool runs later on its
	// own: at the next login, terminal, cd, commit or schedule.
	StartUp
	// Cache is a build cache of the home: local work writes it (the wall
	// through a layer of its own).
	Cache
	// Daemon is a daemon's socket or folder: the daemon runs what it is
	// asked outside any wall.
	Daemon
	// Own is sayso's own: the project's policy folder, which only the
	// person edits.
	Own
)

var kindNames = []string{"credential", "instruction", "settings", "start-up", "cache", "daemon", "own"}

func (k Kind) String() string {
	if int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Acts reports whether a place of kind k changes what runs later: the
// engine asks before a step writes it (an instruction patch) and the wall
// keeps it read-only, or hides it, in every scope and widening.
func (k Kind) Acts() bool { return k == Instruction || k == Settings || k == StartUp }

// Base is what a place's path is relative to.
type Base uint8

const (
	// Home places are relative to the person's home.
	Home Base = iota
	// Tree places are the last parts of a path wherever it lies (a
	// project's AGENTS.md, a sub-folder's, the home's; a virtual
	// environment's pip.conf), in any case: a case-insensitive file
	// system makes .VSCode/ .vscode/.
	Tree
	// Machine places are absolute; "{uid}" in one stands for the user's
	// id.
	Machine
)

// Place is one named place.
type Place struct {
	Base Base
	Path string // slash-separated; a folder holds all it contains
	Kind Kind
	// What is what the engine says a step that writes it changes, or,
	// for a credential, what a step that reads it reads. "" for a tree
	// place: "what an agent or a tool reads from the project (Path)".
	What string
	// Token is, for a settings file that may hold a token too (a
	// registry's login), what the engine says a step that reads it reads.
	// The wall keeps such a file readable: the tool reads it on every run.
	Token string
	// Hide: the wall hides it from every walled step, whatever it was
	// granted (the clients' own credentials; shell start-up files, where
	// tokens are exported; browser profiles).
	Hide bool
	// Make: a folder the wall makes in a project when missing, so that a
	// step cannot plant it.
	Make bool
}

// In is p's path under home, or in the tree at root, or the machine's with
// uid: the absolute path the wall binds.
func (pl Place) In(dir string, uid int) string {
	switch pl.Base {
	case Machine:
		return strings.ReplaceAll(pl.Path, "{uid}", strconv.Itoa(uid))
	default:
		return strings.TrimSuffix(dir, "/") + "/" + pl.Path
	}
}

// Of are the places of base b and one of kinds, in the table's order.
func Of(b Base, kinds ...Kind) []Place {
	var out []Place
	for _, pl := range Table {
		if pl.Base != b {
			continue
		}
		for _, k := range kinds {
			if pl.Kind == k {
				out = append(out, pl)
				break
			}
		}
	}
	return out
}

// paths are the paths of places.
func paths(places []Place) []string {
	out := make([]string, len(places))
	for i, pl := range places {
		out[i] = pl.Path
	}
	return out
}

// grantable are the home's credentials a step can be granted: those the
// wall does not hide from every step.
func grantable() []string {
	var out []string
	for _, pl := range Of(Home, Credential) {
		if !pl.Hide {
			out = append(out, pl.Path)
		}
	}
	return out
}

// Credentials are the home's credential places, relative to it, that a
// walled step can be granted (a git fetch over ssh gets .ssh): the others
// stay hidden.
var Credentials = grantable()

// Project are the tree places that act later (Kind.Acts), relative to a
// project's root.
var Project = paths(Of(Tree, Instruction, Settings, StartUp))

// Written is the place whose content acts later (Kind.Acts) that writing
// p, absolute and clean, changes, under home or the machine's, or wherever
// a tree place lies; false when none. The deepest of the home's places
// answers first, then the machine's, then the tree's.
func Written(p, home string) (Place, bool) {
	return find(p, home, acts)
}

// Secret is the place that reading p, absolute and clean, reads a secret
// of: a credential, or settings that may hold a token; false when none.
func Secret(p, home string) (Place, bool) {
	return find(p, home, secret)
}

// homeRel is p relative to home, when p lies below it.
func homeRel(p, home string) (string, bool) {
	if home == "" || home == "/" || len(p) <= len(home)+1 || p[len(home)] != '/' || !strings.EqualFold(p[:len(home)], home) {
		return "", false
	}
	return p[len(home)+1:], true
}

// IsCredential reports whether rel, a path relative to the home, is one
// of the home's credential places or lies inside one.
func IsCredential(rel string) bool {
	for _, pl := range Table {
		if pl.Base == Home && pl.Kind == Credential && under(rel, pl.Path) {
			return true
		}
	}
	return false
}

// under reports whether p is dir or below it, building no string: the
// engine asks for every path of every step.
func under(p, dir string) bool {
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// underFold is under in any case.
func underFold(p, dir string) bool {
	return len(p) >= len(dir) && strings.EqualFold(p[:len(dir)], dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// hasPart reports whether the parts of the path p (no leading slash)
// hold e, one part or several, in any case: p ends with it, or it is a
// folder of p. It builds no string: the engine asks for every path of
// every step.
func hasPart(p, e string) bool {
	for i := 0; i+len(e) <= len(p); i++ {
		if (i == 0 || p[i-1] == '/') && (i+len(e) == len(p) || p[i+len(e)] == '/') && strings.EqualFold(p[i:i+len(e)], e) {
			return true
		}
	}
	return false
}

// SecretVar reports whether a variable's name says it holds a secret
// (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DATABASE_PASSWORD, NPM_AUTH,
// GH_PAT): sayso calls printing one a secret read, and the wall leaves it
// out of the environment of a step that reads or does local work.
func SecretVar(name string) bool {
	u := strings.ToUpper(name)
	for _, s := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH", "SESSION_KEY", "CLIENT_KEY"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	// a personal access token (GH_PAT, PAT_GITHUB), not a PATH
	if strings.HasSuffix(u, "_PAT") || strings.Contains(u, "_PAT_") || strings.HasPrefix(u, "PAT_") || u == "PAT" {
		return true
	}
	return strings.HasSuffix(u, "_KEY")
}
