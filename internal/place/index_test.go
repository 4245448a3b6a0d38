package place

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// TestIndexAnswersAsScan checks that the index answers Written and Secret
// as a scan of every row of the table does, for every place of the table
// and the paths around it: below it, above it, beside it, in another
// case, with slashes doubled or left over, and with letters that fold to
// ASCII only outside it (the Kelvin sign, the long s).
func TestIndexAnswersAsScan(t *testing.T) {
	x := places()
	if !x.ok {
		t.Fatal("the index does not cover the table: find scans every row")
	}
	homes := []string{"/home/u", "/HOME/U", "/", ""}
	var rels []string
	for _, pl := range Table {
		p := strings.ReplaceAll(pl.Path, "{uid}", "1000")
		for _, r := range []string{pl.Path, p, strings.TrimPrefix(pl.Path, "/")} {
			rels = append(rels, r, strings.ToUpper(r), r+"/", r+"/x/y", r+"x", "x"+r, path.Dir(r), r+"//x",
				strings.Replace(r, "/", "//", 1), strings.Replace(r, "k", "\u212a", 1), strings.Replace(r, "s", "\u017f", 1),
				"a/b/"+r+"/c", "/a/"+r)
		}
	}
	rels = append(rels, "", "/", "//", "x", "/x", strings.Repeat("a/", 200)+".ssh/id_rsa", strings.Repeat("/.ssh", 100))
	slices.Sort(rels)
	rels = slices.Compact(rels)
	n := 0
	for _, home := range homes {
		for _, r := range rels {
			ps := []string{r, home + "/" + r, strings.ToUpper(home) + "/" + r}
			for _, p := range ps {
				for q := range queries {
					got, gotOK := find(p, home, q)
					want, wantOK := scan(p, home, q)
					n++
					if got != want || gotOK != wantOK {
						t.Errorf("find(%q, %q, %d) = %+v %v, the scan %+v %v", p, home, q, got, gotOK, want, wantOK)
					}
				}
			}
		}
	}
	t.Logf("%d paths", n)
}

func BenchmarkWritten(b *testing.B) {
	ps := []string{"/home/u/src/p/main.go", "/home/u/src/p/.claude/settings.json", "/etc/cron.d/x", "/tmp/x/y", "/home/u/.ssh/id_rsa"}
	for i := 0; i < b.N; i++ {
		Written(ps[i%len(ps)], "/home/u")
		Secret(ps[i%len(ps)], "/home/u")
	}
}
