package policy

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
)

// bigPolicy is a person's file of 500 entries, autonomy rows and class
// patterns.
func bigPolicy(tb testing.TB) *Policy {
	var b strings.Builder
	b.WriteString("[autonomy.claude]\n\"*\" = \"auto_approve\"\nWrite = \"require_approval\"\n\n[classes]\n\"mcp__pay__*\" = \"money\"\n\n")
	tools := []string{"kubectl", "terraform", "helm", "aws", "gcloud", "npm", "cargo", "docker", "gh", "git"}
	for i := 0; i < 500; i++ {
		switch i % 5 {
		case 0, 1:
			fmt.Fprintf(&b, "[[deny]]\ncommand = \"%s sub%d\"\n\n", tools[i%len(tools)], i)
		case 2, 3:
			fmt.Fprintf(&b, "[[ask]]\ncommand = \"%s verb%d *\"\n\n", tools[i%len(tools)], i)
		default:
			fmt.Fprintf(&b, "[[allow]]\ncommand = \"%s run%d x\"\n\n", tools[i%len(tools)], i)
		}
	}
	p := Parse("policy.toml", []byte(b.String()))
	if len(p.Entries) != 500 || len(p.Problems) > 0 {
		tb.Fatalf("%d entries, problems %v", len(p.Entries), p.Problems)
	}
	return p
}

// BenchmarkEvaluate decides a mix of steps against a 500-entry policy
// file: the target is under 20 µs per step.
func BenchmarkEvaluate(b *testing.B) {
	p := bigPolicy(b)
	reqs := []Request{
		{Agent: "claude", Command: "git status", Mode: ModeAuto},
		{Agent: "claude", Command: "go test ./... && git commit -am wip", Mode: ModeAuto},
		{Agent: "claude", Command: "git -C . push origin main", Mode: ModeAuto},
		{Agent: "codex", Command: "kubectl apply -f deploy.yaml | tee out.log", Mode: ModeAuto},
		{Agent: "claude", Tool: "Write", Use: risk.ReadUse("Write", []byte(`{"file_path":"/home/user/project/a.go","content":"x"}`)), Mode: ModeAuto},
		{Agent: "gemini", Tool: "read_file", Use: risk.ReadUse("read_file", []byte(`{"absolute_path":"/home/user/project/README.md"}`)), Mode: ModeAuto},
	}
	for i := range reqs {
		reqs[i].Policy = p
		reqs[i].Context = testContext
		reqs[i].Wall = Wall{On: true}
	}
	b.ReportAllocs()
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		Evaluate(reqs[i%len(reqs)])
	}
	// The machine is shared: CPU time is the figure to hold to the target,
	// wall time (ns/op) also counts the waits for a core.
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N)/1000, "cpu-µs/step")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkParse reads the 500-entry file, as every step does.
func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		bigPolicy(b)
	}
}
