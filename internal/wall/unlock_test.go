package wall

import (
	"os"
	"path/filepath"
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

// TestWritten: what an approved step may write for each place the
// decision read as written: a folder whole; a file through its folder;
// never a folder too wide to open for one file.
func TestWritten(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{"notes", "src", ".local/bin", ".config", "old", ".ssh"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".gitconfig", "notes/todo.txt", ".config/tool.conf", ".ssh/config"} {
		if err := os.WriteFile(filepath.Join(home, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := func(p string) string { return filepath.Join(home, p) }
	for _, tt := range []struct {
		target string
		want   []string
	}{
		{h("old"), []string{h("old")}},
		{h("notes/todo.txt"), []string{h("notes")}},
		{h("notes/new.txt"), []string{h("notes")}},
		{h("src/new/deeper/x"), []string{h("src")}},
		{h(".local/bin/tool"), []string{h(".local/bin")}},
		{h(".gitconfig"), []string{h(".gitconfig")}},
		{h(".planted"), nil},
		{h(".config/tool.conf"), []string{h(".config/tool.conf")}},
		{h(".config/nvim/init.lua"), nil},
		{h(".ssh/config"), []string{h(".ssh/config")}},
		{h(".ssh/id_ed25519"), nil},
		{h(".local/share/x"), nil},
		{home, nil},
		{filepath.Dir(home), nil},
		{"/", nil},
		{"/etc/passwd", []string{"/etc/passwd"}},
		{"/etc/new.conf", nil},
		{"/usr/local/bin/git", nil},
		{"relative", nil},
	} {
		if got := written(tt.target, home); !slices.Equal(got, tt.want) {
			t.Errorf("written(%q) = %v, want %v", tt.target, got, tt.want)
		}
	}
	// The approved scope writes them beside a local step's places, and
	// keeps the home whole around them.
	p := For(Inputs{Home: home, Root: h("src"), Scope: Approved, Writes: []string{h("notes/todo.txt"), h(".planted")}})
	if !slices.Contains(p.Write, h("notes")) || !slices.Contains(p.Write, h("src")) || slices.Contains(p.Write, home) || !slices.Contains(p.Kept, home) {
		t.Errorf("approved: write %v, kept %v", p.Write, p.Kept)
	}
	// The person's approved_writes open what they name, whole.
	if p := For(Inputs{Home: home, Root: h("src"), Scope: Approved, Widen: []string{home}}); !slices.Contains(p.Write, home) || slices.Contains(p.Kept, home) {
		t.Errorf("widened to the home: write %v, kept %v", p.Write, p.Kept)
	}
	if p := For(Inputs{Home: home, Root: h("src"), Scope: Local, Writes: []string{h("notes/todo.txt")}, Widen: []string{home}}); slices.Contains(p.Write, h("notes")) || slices.Contains(p.Write, home) {
		t.Errorf("a local step wrote an approved step's places: %v", p.Write)
	}
}
