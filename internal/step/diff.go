package step

import (
	"fmt"
	"strings"
)

// context is how many unchanged lines a diff keeps around a change.
const context = 3

// maxCells bounds the work of a diff (lines before × lines after): past
// it, the old text is shown removed and the new one added.
const maxCells = 4 << 20

// diff is the line diff from a to b: the longest common subsequence of
// their lines, with unchanged runs longer than twice the context left out.
func diff(a, b string) []Line {
	x, y := splitLines(a), splitLines(b)
	var all []Line
	if len(x)*len(y) > maxCells {
		for _, l := range x {
			all = append(all, Line{Removed, l})
		}
		for _, l := range y {
			all = append(all, Line{Added, l})
		}
		return all
	}
	// lcs[i][j] is the length of the longest common subsequence of x[i:]
	// and y[j:].
	lcs := make([][]int32, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			all = append(all, Line{Same, x[i]})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			all = append(all, Line{Removed, x[i]})
			i++
		default:
			all = append(all, Line{Added, y[j]})
			j++
		}
	}
	return fold(all)
}

// fold leaves out the unchanged lines farther than context from a change.
func fold(all []Line) []Line {
	var out []Line
	for i := 0; i < len(all); {
		if all[i].Op != Same {
			out = append(out, all[i])
			i++
			continue
		}
		j := i
		for j < len(all) && all[j].Op == Same {
			j++
		}
		keepHead, keepTail := context, context
		if i == 0 {
			keepHead = 0
		}
		if j == len(all) {
			keepTail = 0
		}
		if j-i <= keepHead+keepTail+1 {
			out = append(out, all[i:j]...)
		} else {
			out = append(out, all[i:i+keepHead]...)
			n := j - i - keepHead - keepTail
			out = append(out, Line{Skipped, fmt.Sprintf("%d unchanged %s", n, plural(n, "line"))})
			out = append(out, all[j-keepTail:j]...)
		}
		i = j
	}
	return out
}

func plural(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// splitLines splits text into lines without their ends; "" has none.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
