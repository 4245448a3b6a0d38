package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The load, crash and cost tests run testdata/decider as separate
// processes, as hooks run: each opens the database, decides, writes its
// ledger row and leaves it (DB.Leave).

var helpers struct {
	once   sync.Once
	dir    string
	err    error
	output []byte
}

// helper builds the named program under testdata once per test binary.
func helper(t testing.TB, name string) string {
	t.Helper()
	helpers.once.Do(func() {
		helpers.dir, helpers.err = os.MkdirTemp("", "sayso-store-helpers-")
		if helpers.err != nil {
			return
		}
		for _, n := range []string{"decider", "hello"} {
			cmd := exec.Command("go", "build", "-o", filepath.Join(helpers.dir, n), "./testdata/"+n)
			if helpers.output, helpers.err = cmd.CombinedOutput(); helpers.err != nil {
				return
			}
		}
	})
	if helpers.err != nil {
		t.Fatalf("build helpers: %v\n%s", helpers.err, helpers.output)
	}
	return filepath.Join(helpers.dir, name)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if helpers.dir != "" {
		os.RemoveAll(helpers.dir)
	}
	os.Exit(code)
}

type run struct {
	out, err string
	code     int
}

// runAll starts n deciders at once and waits for all of them.
func runAll(t *testing.T, n int, args ...string) []run {
	t.Helper()
	bin := helper(t, "decider")
	runs := make([]run, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			cmd := exec.Command(bin, args...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			<-start
			err := cmd.Run()
			runs[i] = run{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
			if err != nil && runs[i].code == 0 {
				runs[i].code = -1
			}
		})
	}
	close(start)
	wg.Wait()
	return runs
}

func countKind(t *testing.T, db *DB, kind string) int {
	t.Helper()
	log, err := db.Log(context.Background(), LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range log {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// TestLoadFiftyProcesses: 50 processes deciding at once on one database
// lose no ledger row, and none sees "database is locked".
func TestLoadFiftyProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	const procs, steps = 50, 4
	runs := runAll(t, procs, "-db", path, "-steps", strconv.Itoa(steps))
	for i, r := range runs {
		if r.code != 0 || strings.Contains(r.err, "locked") || strings.Contains(r.err, "busy") {
			t.Errorf("process %d: exit %d: %s", i, r.code, r.err)
		}
	}
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := countKind(t, db, KindDecision); got != procs*steps {
		t.Errorf("%d decisions in the ledger, want %d", got, procs*steps)
	}
}

// TestLeaseRaceHundredProcesses: 100 processes race for one lease; exactly
// one is allowed.
func TestLeaseRaceHundredProcesses(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddMessage(ctx, NewSession{ID: "s1"}, NewMessage{Source: SourcePerson, Text: "push"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s1", Cwd: "/w"}); err != nil {
		t.Fatal(err)
	}
	const procs = 100
	runs := runAll(t, procs, "-db", path, "-category", "remote-write")
	allowed := 0
	for i, r := range runs {
		if r.code != 0 {
			t.Errorf("process %d: exit %d: %s", i, r.code, r.err)
		}
		if strings.HasPrefix(r.out, "allow ") {
			allowed++
		}
	}
	if allowed != 1 {
		t.Errorf("%d processes allowed on one lease, want exactly 1", allowed)
	}
	if got := countKind(t, db, KindDecision); got != procs {
		t.Errorf("%d decisions in the ledger, want %d", got, procs)
	}
	if got := countKind(t, db, KindLeaseConsumed); got != 1 {
		t.Errorf("%d lease-consumed rows, want 1", got)
	}
	db.Close()
}

// TestCrashKill9 kills deciders with SIGKILL at random points while they
// decide. Afterwards the database opens clean, passes integrity_check, and
// holds every row a decider saw committed.
func TestCrashKill9(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	bin := helper(t, "decider")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	var committed []int64
	killed := 0
	const rounds, procs = 6, 4
	for round := range rounds {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for p := range procs {
			cmd := exec.Command(bin, "-db", path, "-session", fmt.Sprintf("s%d", p), "-steps", "100000")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			delay := time.Duration(20+rng.IntN(400)) * time.Millisecond
			timer := time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
			wg.Go(func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					f := strings.Fields(sc.Text())
					if len(f) == 2 {
						id, _ := strconv.ParseInt(f[1], 10, 64)
						mu.Lock()
						committed = append(committed, id)
						mu.Unlock()
					}
				}
				err := cmd.Wait()
				timer.Stop()
				if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					mu.Lock()
					killed++
					mu.Unlock()
				} else if err != nil {
					t.Errorf("round %d: decider failed: %v", round, err)
				}
			})
		}
		wg.Wait()
	}
	if killed == 0 {
		t.Fatal("no decider was killed: the test proved nothing")
	}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("open after kill -9: %v", err)
	}
	defer db.Close()
	var check string
	if err := db.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	log, err := db.Log(ctx, LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	have := map[int64]string{}
	for _, e := range log {
		have[e.ID] = e.Kind
	}
	for _, id := range committed {
		if have[id] != KindDecision {
			t.Errorf("committed ledger row %d is missing (%q)", id, have[id])
		}
	}
	t.Logf("%d processes killed, %d committed rows all present, %d rows in the ledger", killed, len(committed), len(log))
}

// BenchmarkHookCost measures what a hook process pays without the gateway
// — start, open the database, decide one step, write the ledger row,
// leave — against a Go program that only prints a fixed answer, in the
// same run, interleaved. start-only is the same binary exiting at once:
// what linking the SQLite driver alone costs.
//
//	go test -run '^$' -bench HookCost -benchtime 200x ./internal/store
func BenchmarkHookCost(b *testing.B) {
	decider, hello := helper(b, "decider"), helper(b, "hello")
	path := filepath.Join(b.TempDir(), FileName)
	if out, err := exec.Command(decider, "-db", path).CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	time1 := func(bin string, args ...string) time.Duration {
		cmd := exec.Command(bin, args...)
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v: %s", bin, err, out)
		}
		return time.Since(start)
	}
	var floor, start, hook []time.Duration
	for b.Loop() {
		floor = append(floor, time1(hello))
		start = append(start, time1(decider, "-start-only"))
		hook = append(hook, time1(decider, "-db", path))
	}
	slices.Sort(floor)
	slices.Sort(start)
	slices.Sort(hook)
	pct := func(d []time.Duration, p float64) float64 {
		return float64(d[min(len(d)-1, int(float64(len(d))*p))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(floor, 0.5), "floor-median-ms")
	b.ReportMetric(pct(floor, 0.99), "floor-p99-ms")
	b.ReportMetric(pct(start, 0.5), "start-only-median-ms")
	b.ReportMetric(pct(hook, 0.5), "hook-median-ms")
	b.ReportMetric(pct(hook, 0.99), "hook-p99-ms")
	b.ReportMetric(pct(hook, 0.5)/pct(floor, 0.5), "ratio")
	b.ReportMetric(0, "ns/op")
}

// TestLeaveBoundsTheLog: a process that leaves the database keeps its
// rows in the write-ahead log, which the next process reads back; once the
// log passes leaveLimit the process that leaves closes, and the log is
// copied in and removed.
func TestLeaveBoundsTheLog(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	bin := helper(t, "decider")
	decide := func(steps int) {
		t.Helper()
		if out, err := exec.Command(bin, "-db", path, "-steps", strconv.Itoa(steps)).CombinedOutput(); err != nil {
			t.Fatalf("decider: %v: %s", err, out)
		}
	}
	walSize := func() int64 {
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			return -1
		}
		return fi.Size()
	}
	decide(1)
	decide(1)
	if n := walSize(); n <= 0 || n >= leaveLimit {
		t.Fatalf("after two processes left, the log is %d bytes, want it kept and under %d", n, leaveLimit)
	}
	// Enough steps in one process to pass the limit: it closes.
	decide(400)
	if n := walSize(); n != -1 {
		t.Fatalf("after the log passed %d bytes, it is still there (%d bytes): the last process did not close", leaveLimit, n)
	}
	decide(1)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	if got := countKind(t, db, KindDecision); got != 403 {
		t.Errorf("%d decisions in the ledger, want 403", got)
	}
}
