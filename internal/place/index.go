package place

import (
	"strings"
	"sync"
)

// The engine asks Written and Secret for every path of every step. An
// index, built once from Table, answers each from a few map look-ups of
// the path's own parts instead of a scan of every place: the home's and
// the machine's by each folder of the path, the tree's by each run of its
// parts. It answers as the scan (scan) does: the test keeps the scan to
// check it.

// query is one question find answers: which kinds of place count.
type query uint8

const (
	acts   query = iota // Written: Kind.Acts
	secret              // Secret: a credential, or settings that may hold a token
	queries
)

// counts reports whether place pl answers q.
func (q query) counts(pl Place) bool {
	if q == acts {
		return pl.Kind.Acts()
	}
	return pl.Kind == Credential || pl.Token != ""
}

// hit is a place of the index and its row in Table: the machine's and
// the tree's places answer in the table's order.
type hit struct {
	pl  Place
	row int
}

// index holds, for each query and base, the first place of the table
// that counts, by its path in lower case.
type index struct {
	by [queries][Machine + 1]map[string]hit
	// treeParts is the most parts a tree place's path has.
	treeParts int
	// ok is false when a path of the table is not plain ASCII: then the
	// index cannot fold case as strings.EqualFold does, and find scans.
	ok bool
}

var (
	indexOnce sync.Once
	theIndex  index
)

func places() *index {
	indexOnce.Do(func() { theIndex = newIndex(Table) })
	return &theIndex
}

func newIndex(table []Place) index {
	x := index{ok: true}
	for q := range queries {
		for b := range x.by[q] {
			x.by[q][b] = map[string]hit{}
		}
	}
	for row, pl := range table {
		if pl.Path == "" || !ascii(pl.Path) || strings.HasPrefix(pl.Path, "/") != (pl.Base == Machine) ||
			strings.HasSuffix(pl.Path, "/") || strings.Contains(pl.Path, "//") || pl.Base > Machine {
			return index{}
		}
		if pl.Base == Tree {
			x.treeParts = max(x.treeParts, strings.Count(pl.Path, "/")+1)
		}
		key := lowerASCII(pl.Path)
		for q := range queries {
			if !q.counts(pl) {
				continue
			}
			if _, seen := x.by[q][pl.Base][key]; !seen {
				x.by[q][pl.Base][key] = hit{pl, row}
			}
		}
	}
	return x
}

// find answers Written and Secret: the deepest of the home's places that
// holds p, else the first of the machine's, else the first of the tree's
// that p's parts hold.
func find(p, home string, q query) (Place, bool) {
	x := places()
	if !x.ok {
		return scan(p, home, q)
	}
	var buf [256]byte
	var lp []byte // p in lower case (ASCII letters only)
	if len(p) <= len(buf) {
		lp = buf[:len(p)]
	} else {
		lp = make([]byte, len(p))
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lp[i] = c
	}
	if rel, ok := homeRel(p, home); ok {
		// rel is p's tail: the deepest folder of it (or rel itself) that
		// is a place answers.
		l := lp[len(p)-len(rel):]
		m := x.by[q][Home]
		for end := len(l); end > 0; end-- {
			if end < len(l) && l[end] != '/' {
				continue
			}
			if h, ok := m[string(l[:end])]; ok {
				return h.pl, true
			}
		}
	}
	best := hit{row: -1}
	m := x.by[q][Machine]
	for end := len(lp); end > 0; end-- {
		if end < len(lp) && lp[end] != '/' {
			continue
		}
		if h, ok := m[string(lp[:end])]; ok && (best.row < 0 || h.row < best.row) {
			best = h
		}
	}
	if best.row >= 0 {
		return best.pl, true
	}
	// the tree's: every run of up to treeParts parts of p, leading and
	// trailing slashes trimmed (strings.Trim(p, "/")).
	lo, hi := 0, len(lp)
	for lo < hi && lp[lo] == '/' {
		lo++
	}
	for hi > lo && lp[hi-1] == '/' {
		hi--
	}
	l := lp[lo:hi]
	m = x.by[q][Tree]
	for start := 0; start < len(l); start++ {
		if start > 0 && l[start-1] != '/' {
			continue
		}
		parts := 0
		for end := start; end <= len(l) && parts < x.treeParts; end++ {
			if end < len(l) && l[end] != '/' {
				continue
			}
			parts++
			if h, ok := m[string(l[start:end])]; ok && (best.row < 0 || h.row < best.row) {
				best = h
			}
		}
	}
	if best.row >= 0 {
		return best.pl, true
	}
	return Place{}, false
}

// scan answers as find does, row by row through the table.
func scan(p, home string, q query) (Place, bool) {
	var best Place
	found := false
	if rel, ok := homeRel(p, home); ok {
		for _, pl := range Table {
			if pl.Base == Home && q.counts(pl) && underFold(rel, pl.Path) && (!found || len(pl.Path) > len(best.Path)) {
				best, found = pl, true
			}
		}
		if found {
			return best, true
		}
	}
	for _, pl := range Table {
		if pl.Base == Machine && q.counts(pl) && underFold(p, pl.Path) {
			return pl, true
		}
	}
	q2 := strings.Trim(p, "/")
	for _, pl := range Table {
		if pl.Base == Tree && q.counts(pl) && hasPart(q2, pl.Path) {
			return pl, true
		}
	}
	return Place{}, false
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
