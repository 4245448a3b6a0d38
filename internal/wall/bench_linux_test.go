package wall

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkWallTrue measures what the wall adds to one step: the client's
// bash running `true` plainly, against the same bash running the line
// Wrap makes of `true`, with the launcher built as it ships (static,
// CGO_ENABLED=0). The two alternate, so that a busy machine slows both;
// it reports both medians and the median of the differences. Each of the
// step's networks is measured: the machine's (a step granted a
// credential), one of its own that ends with it (no session), and its
// session's, whose holder is up after the first step. In a session it
// also measures a step that is one program, /bin/true, against bash
// running it plainly: the starter starts it with no bash of its own.
//
//	go test -run '^$' -bench WallTrue -benchtime 200x ./internal/wall/
func BenchmarkWallTrue(b *testing.B) {
	need(b)
	// Installed as a person would: in a small folder of the home, not
	// in /tmp, whose many entries the read rights would list one by one.
	home, _ := os.UserHomeDir()
	dir, err := os.MkdirTemp(home, ".sayso-wall-bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "sayso-wall")
	build := exec.Command("go", "build", "-o", bin, "github.com/sayso-dev/sayso/cmd/sayso-wall")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build the launcher: %v\n%s", err, out)
	}
	root := b.TempDir()
	state := filepath.Join(b.TempDir(), "state")
	os.MkdirAll(state, 0o700)
	sock := filepath.Join(state, "walls", "bench.sock")
	b.Cleanup(func() { EndSession(sock) })
	for _, net := range []struct {
		name string
		in   Inputs
	}{
		{"host-network", Inputs{HostNetwork: true}},
		{"own-network", Inputs{Hosts: []string{"proxy.golang.org"}}},
		{"session", Inputs{Hosts: []string{"proxy.golang.org"}, Session: sock}},
	} {
		in := net.in
		in.Home, in.Root, in.Hidden, in.Scope = home, root, []string{state, bin}, Local
		b.Run(net.name, func(b *testing.B) { benchLine(b, root, "true", For(in).Wrap("true", bin)) })
		if in.Session != "" {
			// A step that is one program: the starter starts it, with no
			// bash of its own.
			b.Run(net.name+"-program", func(b *testing.B) { benchLine(b, root, "/bin/true", For(in).Wrap("/bin/true", bin)) })
		}
	}
}

// benchLine times bash running line against bash running plain.
func benchLine(b *testing.B, root, plain, line string) {
	run := func(script string) time.Duration {
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = root
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("bash -c %q: %v\n%s", script, err, out)
		}
		return time.Since(start)
	}
	run(line) // warm the page cache
	var plains, walled, added []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := run(plain)
		w := run(line)
		plains, walled, added = append(plains, p), append(walled, w), append(added, w-p)
	}
	b.StopTimer()
	ms := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(plains), "plain-ms")
	b.ReportMetric(ms(walled), "walled-ms")
	b.ReportMetric(ms(added), "added-ms")
	// The fastest of each, against the noise of a shared machine.
	b.ReportMetric(float64(walled[0]-plains[0])/float64(time.Millisecond), "added-fastest-ms")
	b.ReportMetric(0, "ns/op")
}
