package gateway

import "testing"

func TestProcs(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 2}, {16, 8}} {
		if got := Procs(c.n); got != c.want {
			t.Errorf("Procs(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
