// Command compare measures sayso's hook for the first client (client.Clients[0]) side by side with a
// peer hook, in one run on one machine: detection on the labelled corpus
// (risky commands let through, safe commands blocked) and the latency of
// one hook call, with /bin/true and a Go program that only prints "hello"
// as the floors. bench/compare.sh installs the peer and builds the
// binaries; this program only runs them.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
)

// agent is the client whose hook is measured: its PreToolUse JSON is
// what hookInput writes.
var agent = client.Clients[0].Agent

func main() {
	var c config
	flag.StringVar(&c.sayso, "sayso", "", "the sayso binary")
	flag.StringVar(&c.forwarder, "sayso-hook", "", "the sayso-hook forwarder, when there is one (beside -sayso)")
	flag.StringVar(&c.node, "node", "node", "the node binary the peer runs with")
	flag.StringVar(&c.peer, "peer", "", "the peer's bin script (cc-safety-net.js)")
	flag.StringVar(&c.peerFlag, "peer-flag", "--coding-cli", "the peer's hook flag for the client")
	flag.StringVar(&c.hello, "hello", "", "the hello floor binary")
	flag.StringVar(&c.corpus, "corpus", "internal/risk/testdata/corpus.jsonl", "the labelled corpus")
	flag.StringVar(&c.work, "work", "", "a scratch folder for the run (made if missing)")
	flag.IntVar(&c.n, "n", 500, "latency calls per program")
	flag.IntVar(&c.jobs, "jobs", runtime.NumCPU(), "hook processes at once for detection")
	flag.BoolVar(&c.gateway, "gateway", true, "also measure the hook with sayso serve running")
	flag.BoolVar(&c.skipDetect, "skip-detection", false, "measure latency only")
	flag.Parse()
	if c.sayso == "" || c.peer == "" || c.hello == "" || c.work == "" {
		fmt.Fprintln(os.Stderr, "compare: error: -sayso, -peer, -hello and -work are required")
		os.Exit(2)
	}
	if err := run(&c); err != nil {
		fmt.Fprintf(os.Stderr, "compare: error: %v\n", err)
		os.Exit(1)
	}
}

type config struct {
	sayso, forwarder, node, peer, peerFlag, hello, corpus, work string
	n, jobs                                                     int
	gateway, skipDetect                                         bool
}

// program is one hook (or floor) as the client would run it.
type program struct {
	name string
	argv []string
	env  []string
}

func (c *config) home() string    { return filepath.Join(c.work, "home", "user") }
func (c *config) project() string { return filepath.Join(c.home(), "project") }

// baseEnv is the environment every program runs with: nothing of the
// caller's but PATH, a scratch HOME, no XDG folders.
func (c *config) baseEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + c.home(), "LANG=C.UTF-8"}
}

func (c *config) programs(gwState string) (saysoHook, saysoGW, peer, truth, hello program) {
	config := filepath.Join(c.home(), ".config", "sayso")
	saysoHook = program{"sayso hook (--one-binary)", []string{c.sayso, "--state-dir", filepath.Join(c.home(), ".local", "state", "sayso"), "--config-dir", config, "hook", agent}, c.baseEnv()}
	saysoGW = program{"sayso hook, gateway (--one-binary)", []string{c.sayso, "--state-dir", gwState, "--config-dir", config, "hook", agent}, append(c.baseEnv(), "SAYSO_STATE_DIR="+gwState)}
	peer = program{"cc-safety-net", []string{c.node, c.peer, "hook", c.peerFlag}, c.baseEnv()}
	truth = program{"/bin/true", []string{"/bin/true"}, c.baseEnv()}
	hello = program{"hello", []string{c.hello}, c.baseEnv()}
	return
}

func run(c *config) error {
	if err := os.MkdirAll(c.project(), 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(c.project(), ".git")); err != nil {
		git := exec.Command("git", "init", "-q", c.project())
		if out, err := git.CombinedOutput(); err != nil {
			return fmt.Errorf("git init: %v: %s", err, out)
		}
	}
	gwState := filepath.Join(c.work, "gw")
	saysoHook, saysoGW, peer, truth, hello := c.programs(gwState)

	fmt.Printf("# sayso and cc-safety-net, side by side\n\n")
	fmt.Printf("- machine: %s\n", machine())
	fmt.Printf("- sayso: %s (%s)\n", c.sayso, strings.TrimSpace(output(c.sayso, "version")))
	fmt.Printf("- peer: %s %s hook %s (%s)\n", c.node, c.peer, c.peerFlag, strings.TrimSpace(output(c.node, "--version")))
	fmt.Printf("- load average at start: %s\n\n", loadavg())

	if !c.skipDetect {
		if err := detection(c, saysoHook, peer); err != nil {
			return err
		}
	}

	progs := []program{truth, hello, saysoHook}
	if c.gateway {
		stop, err := serve(c, gwState)
		if err != nil {
			return err
		}
		defer stop()
		progs = append(progs, saysoGW)
	}
	if c.forwarder != "" {
		fwd := program{"sayso-hook (default install)", []string{c.forwarder, agent}, c.baseEnv()}
		progs = append(progs, fwd)
		if c.gateway {
			fwdGW := program{"sayso-hook, gateway (default install)", fwd.argv, saysoGW.env}
			progs = append(progs, fwdGW)
		}
	}
	progs = append(progs, peer)
	return latency(c, progs)
}

// --- detection ---

type corpusCase struct {
	Cmd  string   `json:"cmd"`
	Want []string `json:"want"`
	Why  string   `json:"why"`
	Src  string   `json:"src"`
}

// kind is "risky" when no wanted class is read or local-write, "safe"
// when every one is, and "" (counted in neither) otherwise.
func (k corpusCase) kind() string {
	safe := 0
	for _, w := range k.Want {
		if w == "read" || w == "local-write" {
			safe++
		}
	}
	switch {
	case safe == 0:
		return "risky"
	case safe == len(k.Want):
		return "safe"
	}
	return ""
}

func loadCorpus(name string) ([]corpusCase, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var k corpusCase
		if err := json.Unmarshal(sc.Bytes(), &k); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		out = append(out, k)
	}
	return out, sc.Err()
}

// hookInput is the client's PreToolUse call of its shell tool.
func hookInput(session, cwd, command string) []byte {
	b, _ := json.Marshal(map[string]any{
		"session_id":      session,
		"transcript_path": filepath.Join(cwd, ".transcript.jsonl"),
		"cwd":             cwd,
		"permission_mode": "default",
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]string{"command": command, "description": "bench"},
		"tool_use_id":     "toolu_bench",
	})
	return b
}

// verdict is what the client's hook answered: allow, ask, deny, or
// "error" for an answer that is none of them.
func verdict(stdout []byte, err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		return "deny"
	}
	if err != nil {
		return "error"
	}
	out := bytes.TrimSpace(stdout)
	if len(out) == 0 {
		return "allow" // no opinion: the client's own rules decide
	}
	var v struct {
		Decision string `json:"decision"`
		Hook     struct {
			Decision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(out, &v) != nil {
		return "error"
	}
	switch d := v.Hook.Decision; {
	case d == "allow" || d == "ask" || d == "deny":
		return d
	case v.Decision == "block":
		return "deny"
	case d == "":
		return "allow"
	}
	return "error"
}

func blocked(v string) bool { return v != "allow" }

func call(p program, stdin []byte) (string, time.Duration, error) {
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Env = p.env
	cmd.Stdin = bytes.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = io.Discard
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	return verdict(out.Bytes(), err), took, err
}

func decideAll(c *config, p program, cases []corpusCase) []string {
	out := make([]string, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(c.jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				// One session per case: sayso's circuit breaker holds a
				// session after a run of denials, which would blur the
				// count.
				v, _, _ := call(p, hookInput(fmt.Sprintf("corpus-%d", i), c.project(), cases[i].Cmd))
				out[i] = v
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func detection(c *config, sayso, peer program) error {
	cases, err := loadCorpus(c.corpus)
	if err != nil {
		return err
	}
	start := time.Now()
	sv := decideAll(c, sayso, cases)
	saysoTook := time.Since(start)
	start = time.Now()
	pv := decideAll(c, peer, cases)
	peerTook := time.Since(start)

	type tally struct{ risky, riskyMissed, safe, safeBlocked, errors int }
	var s, p tally
	var mixed int
	var peerOnly, saysoOnly []int
	count := func(t *tally, k corpusCase, v string) {
		if v == "error" {
			t.errors++
		}
		switch k.kind() {
		case "risky":
			t.risky++
			if !blocked(v) {
				t.riskyMissed++
			}
		case "safe":
			t.safe++
			if blocked(v) {
				t.safeBlocked++
			}
		}
	}
	for i, k := range cases {
		count(&s, k, sv[i])
		count(&p, k, pv[i])
		switch k.kind() {
		case "":
			mixed++
		case "risky":
			if blocked(pv[i]) && !blocked(sv[i]) {
				peerOnly = append(peerOnly, i)
			}
			if blocked(sv[i]) && !blocked(pv[i]) {
				saysoOnly = append(saysoOnly, i)
			}
		}
	}
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
	}
	fmt.Printf("## Detection on %s\n\n", c.corpus)
	fmt.Printf("%d cases: %d risky (no wanted class is read or local-write), %d safe (every wanted class is), %d mixed and counted in neither. ",
		len(cases), s.risky, s.safe, mixed)
	fmt.Printf("sayso in its default mode (auto), no policy file; the peer with its defaults. Blocked means deny or ask.\n\n")
	fmt.Printf("| hook | risky let through | safe blocked | unreadable answers | corpus time |\n|---|---|---|---|---|\n")
	fmt.Printf("| sayso | %d of %d (%s) | %d of %d (%s) | %d | %s |\n", s.riskyMissed, s.risky, pct(s.riskyMissed, s.risky), s.safeBlocked, s.safe, pct(s.safeBlocked, s.safe), s.errors, saysoTook.Round(time.Second))
	fmt.Printf("| cc-safety-net | %d of %d (%s) | %d of %d (%s) | %d | %s |\n\n", p.riskyMissed, p.risky, pct(p.riskyMissed, p.risky), p.safeBlocked, p.safe, pct(p.safeBlocked, p.safe), p.errors, peerTook.Round(time.Second))
	fmt.Printf("Risky cases the peer blocks and sayso lets through: %d.\n", len(peerOnly))
	for _, i := range peerOnly {
		fmt.Printf("- `%s` (want %s; sayso %s, peer %s)\n", cases[i].Cmd, strings.Join(cases[i].Want, ", "), sv[i], pv[i])
	}
	fmt.Printf("Risky cases sayso blocks and the peer lets through: %d.\n\n", len(saysoOnly))

	// Every disagreement with the labels, for reading after the run.
	f, err := os.Create(filepath.Join(c.work, "detection.tsv"))
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintf(f, "kind\tsayso\tpeer\twant\tsrc\tcmd\n")
	for i, k := range cases {
		if k.kind() == "" {
			continue
		}
		sWrong := (k.kind() == "risky") != blocked(sv[i])
		pWrong := (k.kind() == "risky") != blocked(pv[i])
		if sWrong || pWrong {
			fmt.Fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\n", k.kind(), sv[i], pv[i], strings.Join(k.Want, ","), k.Src, k.Cmd)
		}
	}
	fmt.Printf("Every case where either hook disagrees with the label: %s\n\n", f.Name())
	return nil
}

// --- latency ---

// latencyCommands are what the timed calls ask about: plain work every
// hook allows, so that no call waits on a card.
var latencyCommands = []string{
	"git status",
	"ls -la",
	"go test ./...",
	"grep -rn func .",
	"cat README.md",
	"git log --oneline -5",
	"npm install",
	"mkdir -p build",
}

func latency(c *config, progs []program) error {
	// Warm up: the first calls fill caches (the peer's compile cache, the
	// page cache, sayso's database).
	for _, p := range progs {
		for i := 0; i < 10; i++ {
			call(p, hookInput("bench-latency", c.project(), latencyCommands[i%len(latencyCommands)]))
		}
	}
	load := loadavg()
	times := make([][]time.Duration, len(progs))
	odd := make([]map[string]int, len(progs))
	for i := range odd {
		odd[i] = map[string]int{}
	}
	start := time.Now()
	for round := 0; round < c.n; round++ {
		in := hookInput("bench-latency", c.project(), latencyCommands[round%len(latencyCommands)])
		// Alternate: each round starts with the next program.
		for j := range progs {
			k := (round + j) % len(progs)
			v, took, _ := call(progs[k], in)
			times[k] = append(times[k], took)
			if progs[k].name != "/bin/true" && progs[k].name != "hello" && v != "allow" {
				odd[k][v]++
			}
		}
	}
	elapsed := time.Since(start)
	fmt.Printf("## Hook latency\n\n")
	fmt.Printf("%d calls per program, alternating %s, each a PreToolUse call of a plain command (%d commands in turn), timed from fork to exit. ",
		c.n, names(progs), len(latencyCommands))
	fmt.Printf("Load average: %s before, %s after (%s).\n\n", load, loadavg(), elapsed.Round(time.Second))
	fmt.Printf("| program | median | p99 | p99 / median | median / true | median / hello | median / peer |\n|---|---|---|---|---|---|---|\n")
	med := make([]time.Duration, len(progs))
	for i := range progs {
		med[i] = quantile(times[i], 0.5)
	}
	truth, hello, peer := med[0], med[1], med[len(progs)-1]
	for i, p := range progs {
		p99 := quantile(times[i], 0.99)
		fmt.Printf("| %s | %s | %s | %.2f | %.2f | %.2f | %.3f |\n", p.name, ms(med[i]), ms(p99),
			float64(p99)/float64(med[i]), float64(med[i])/float64(truth), float64(med[i])/float64(hello), float64(med[i])/float64(peer))
	}
	fmt.Println()
	for i, p := range progs {
		if len(odd[i]) > 0 {
			fmt.Printf("- %s did not allow every timed call: %v\n", p.name, odd[i])
		}
	}
	return nil
}

func names(ps []program) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.name)
	}
	return strings.Join(out, ", ")
}

// quantile is the nearest-rank quantile q of ds.
func quantile(ds []time.Duration, q float64) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(float64(len(s))*q+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// serve starts sayso serve with its own state folder and returns how to
// stop it.
func serve(c *config, state string) (func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	logf, err := os.Create(filepath.Join(c.work, "serve.log"))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, c.sayso, "serve", "--addr", addr)
	cmd.Env = append(c.baseEnv(), "SAYSO_STATE_DIR="+state)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, err
	}
	stop := func() { cancel(); cmd.Wait(); logf.Close() }
	socket := filepath.Join(state, "sayso.sock")
	for deadline := time.Now().Add(15 * time.Second); ; {
		if conn, err := net.Dial("unix", socket); err == nil {
			conn.Close()
			return stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("sayso serve did not open %s (see %s)", socket, logf.Name())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// --- the machine ---

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func machine() string {
	model := ""
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	kernel := strings.TrimSpace(output("uname", "-sr"))
	return fmt.Sprintf("%d CPUs (%s), %s, %s %s/%s", runtime.NumCPU(), model, kernel, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func output(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		return "?"
	}
	return string(out)
}
