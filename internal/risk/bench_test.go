package risk

import (
	"fmt"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// BenchmarkParseBare is the floor: mvdan.cc/sh parsing the corpus, nothing
// else. Compare BenchmarkClassify with it in the same run.
func BenchmarkParseBare(b *testing.B) {
	cmds := corpusCmds(b)
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = p.Parse(strings.NewReader(cmds[i%len(cmds)]), "")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cmds/s")
}

// BenchmarkClassify classifies the corpus, one command per op.
func BenchmarkClassify(b *testing.B) {
	cmds := corpusCmds(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Command(cmds[i%len(cmds)], TestContext)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cmds/s")
}

// BenchmarkClassifySize shows time and allocations grow linearly with the
// size of a command, up to 1 MiB: a long && chain, and one long argument.
func BenchmarkClassifySize(b *testing.B) {
	for _, size := range []int{1 << 10, 16 << 10, 256 << 10, 1 << 20} {
		chain := strings.Repeat("git status && ", size/14)
		arg := "echo " + strings.Repeat("a", size)
		cds := strings.Repeat("cd a; ", size/6) + "rm -rf x"
		links := strings.Repeat("ln -s / x; ", size/11) + "rm -rf x/y"
		for name, src := range map[string]string{"chain": chain + "ls", "arg": arg, "cd": cds, "links": links} {
			b.Run(fmt.Sprintf("%s/%dKiB", name, size>>10), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src)))
				for i := 0; i < b.N; i++ {
					Command(src, TestContext)
				}
			})
		}
	}
}

func corpusCmds(b *testing.B) []string {
	var out []string
	for _, c := range loadCorpus(b) {
		out = append(out, c.Cmd)
	}
	return out
}
