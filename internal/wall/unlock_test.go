package wall

import (
	"slices"
	"testing"
)

// TestUnlock: a step the person approved to write an instruction file may
// write exactly that; nothing else read-only or hidden opens, and no
// other scope unlocks anything.
func TestUnlock(t *testing.T) {
	in := Inputs{Home: "/home/u", Root: "/home/u/app", Hidden: []string{"/home/u/.local/state/sayso"}, Scope: Approved,
		Unlock: []string{"/home/u/app/CLAUDE.md", "/home/u/.local/state/sayso/sayso.db"}}
	p := For(in)
	if slices.Contains(p.ReadOnly, "/home/u/app/CLAUDE.md") {
		t.Error("the approved instruction file stays read-only")
	}
	for _, want := range []string{"/home/u/app/AGENTS.md", "/home/u/app/.claude"} {
		if !slices.Contains(p.ReadOnly, want) {
			t.Errorf("%s is no longer read-only", want)
		}
	}
	if !slices.Contains(p.Hidden, "/home/u/.local/state/sayso") {
		t.Error("sayso's state folder is no longer hidden")
	}
	in.Scope = Local
	if p := For(in); !slices.Contains(p.ReadOnly, "/home/u/app/CLAUDE.md") {
		t.Error("a local step unlocked an instruction file")
	}
}

// TestUnlockHolder: approving a file inside a read-only folder (~/.claude's
// CLAUDE.md, a unit in ~/.config/systemd) does not open the folder: the
// rest of it — the client's agents, commands, plugins, other units —
// stays read-only, and the approved file with it (the wall cannot bind one
// file writable inside a read-only folder), so the step fails closed.
func TestUnlockHolder(t *testing.T) {
	p := For(Inputs{Home: "/home/u", Root: "/home/u/app", Scope: Approved,
		Unlock: []string{"/home/u/.claude/CLAUDE.md", "/home/u/.config/systemd/user/x.service", "/home/u/app/.claude/commands/x.md"}})
	for _, want := range []string{"/home/u/.claude", "/home/u/.config/systemd", "/home/u/app/.claude"} {
		if !slices.Contains(p.ReadOnly, want) {
			t.Errorf("%s is no longer read-only", want)
		}
	}
}
