//go:build linux

package risk

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// cpuTime is the processor time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkClassifyCPU measures bare parsing and classification of the
// corpus per second of processor time, not of the wall clock: on a
// machine shared by many jobs the wall clock measures the queue. Run with
// -cpu 1 -benchtime 1x.
func BenchmarkClassifyCPU(b *testing.B) {
	cmds := corpusCmds(b)
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	rounds := 10 * b.N
	start := cpuTime()
	for r := 0; r < rounds; r++ {
		for _, c := range cmds {
			_, _ = p.Parse(strings.NewReader(c), "")
		}
	}
	parse := cpuTime() - start
	start = cpuTime()
	for r := 0; r < rounds; r++ {
		for _, c := range cmds {
			Command(c, TestContext)
		}
	}
	classify := cpuTime() - start
	n := float64(rounds * len(cmds))
	if parse > 0 && classify > 0 {
		b.ReportMetric(n/parse.Seconds(), "parse-cmds/cpu-s")
		b.ReportMetric(n/classify.Seconds(), "classify-cmds/cpu-s")
	}
}
