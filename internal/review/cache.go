package review

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"
)

// Key names one question to the reviewer: the step with everything it was
// judged on, in one epoch. A new person message opens a new epoch, so the
// same step asks again.
type Key struct {
	Epoch uint64
	Sum   [sha256.Size]byte // of the input: step, classes, cwd, agent, words, note, diagnostic
}

// KeyOf returns the key of in within epoch.
func KeyOf(in Input, epoch uint64) Key {
	h := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field(in.Agent)
	field(in.Cwd)
	field(in.Step.Tool)
	field(in.Step.Command)
	field(string(in.Step.Input))
	field(in.Classes.String())
	field(in.Note)
	for _, d := range in.Diagnostic {
		field("d")
		field(d)
	}
	for _, w := range in.OwnerWords {
		if w.FromParent {
			field("p")
		} else {
			field("w")
		}
		field(w.Text)
	}
	k := Key{Epoch: epoch}
	h.Sum(k.Sum[:0])
	return k
}

// Cache keeps verdicts per Key, at most max of them, dropping the oldest
// first. A verdict that failed (Err set) is never kept: the next step asks
// the reviewer again. It is safe for concurrent use and reads no clock.
type Cache struct {
	mu    sync.Mutex
	max   int
	m     map[Key]Verdict
	order []Key
}

// NewCache returns a cache of at most max verdicts.
func NewCache(max int) *Cache {
	return &Cache{max: max, m: map[Key]Verdict{}}
}

// Get returns the verdict kept for k.
func (c *Cache) Get(k Key) (Verdict, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// Put keeps v for k, unless v failed.
func (c *Cache) Put(k Key, v Verdict) {
	if v.Err != nil || c.max <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok {
		c.order = append(c.order, k)
	}
	c.m[k] = v
	for len(c.order) > c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
}

// Advance drops every verdict of an epoch before epoch: a new person
// message makes them stale.
func (c *Cache) Advance(epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := c.order[:0]
	for _, k := range c.order {
		if k.Epoch < epoch {
			delete(c.m, k)
			continue
		}
		kept = append(kept, k)
	}
	c.order = kept
}

// Len returns how many verdicts are kept.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
