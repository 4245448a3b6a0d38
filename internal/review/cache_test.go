package review

import (
	"errors"
	"testing"
)

func TestCache(t *testing.T) {
	c := NewCache(2)
	in := testInput()
	allow := Verdict{Answer: Allow, Reason: "asked", Quote: "push my branch to origin"}
	k1 := KeyOf(in, 1)
	c.Put(k1, allow)
	if v, ok := c.Get(k1); !ok || v != allow {
		t.Fatalf("Get = %+v, %v", v, ok)
	}
	// A new person message opens a new epoch: the same step is a new question.
	if _, ok := c.Get(KeyOf(in, 2)); ok {
		t.Error("a verdict crossed into a new epoch")
	}
	// Anything the verdict rested on makes a new key.
	for name, change := range map[string]func(*Input){
		"command":    func(in *Input) { in.Step.Command += " --tags" },
		"cwd":        func(in *Input) { in.Cwd = "/elsewhere" },
		"classes":    func(in *Input) { in.Classes = in.Classes.Add(0) },
		"note":       func(in *Input) { in.Note = "" },
		"words":      func(in *Input) { in.OwnerWords = append(in.OwnerWords, OwnerWord{Text: "don't push yet"}) },
		"from":       func(in *Input) { in.OwnerWords[0].FromParent = true },
		"tool input": func(in *Input) { in.Step.Input = []byte(`{}`) },
	} {
		other := testInput()
		other.OwnerWords = append([]OwnerWord(nil), in.OwnerWords...)
		change(&other)
		if KeyOf(other, 1) == k1 {
			t.Errorf("changing the %s keeps the key", name)
		}
	}
	// Fields cannot run into each other.
	a, b := testInput(), testInput()
	a.Agent, a.Cwd = "claude/x", "y"
	b.Agent, b.Cwd = "claude", "/xy"
	if KeyOf(a, 1) == KeyOf(b, 1) {
		t.Error("agent and cwd run into each other")
	}

	// A failed verdict is not kept.
	k2 := KeyOf(in, 3)
	c.Put(k2, failed(errors.New("timed out")))
	if _, ok := c.Get(k2); ok {
		t.Error("a failed verdict was kept")
	}

	// Advance drops older epochs; the cache never holds more than max.
	c.Put(KeyOf(in, 2), allow)
	c.Advance(2)
	if _, ok := c.Get(k1); ok || c.Len() != 1 {
		t.Errorf("after Advance(2): %d kept, epoch 1 still there: %v", c.Len(), ok)
	}
	for e := uint64(10); e < 20; e++ {
		c.Put(KeyOf(in, e), allow)
	}
	if c.Len() != 2 {
		t.Errorf("cache holds %d, want 2", c.Len())
	}
	if _, ok := c.Get(KeyOf(in, 19)); !ok {
		t.Error("the newest verdict was dropped")
	}
	if v, ok := NewCache(0).Get(k1); ok || v.Answer != Ask {
		t.Error("an empty cache answered")
	}
}
