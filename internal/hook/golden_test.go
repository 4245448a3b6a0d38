package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

var update = flag.Bool("update", false, "rewrite the golden files' expected sections")

// fakeDecider answers as the archive's "decide" section says: its first
// line is allow, ask, deny, error, panic or hang; the rest is the reason.
// One that hangs answers allow once it was told to stop and late is
// closed: after the hook has answered.
func fakeDecider(spec string, seen *Step, late <-chan struct{}) client.Decider {
	verb, reason, _ := strings.Cut(strings.TrimSpace(spec), "\n")
	return func(ctx context.Context, s Step) (policy.Decision, policy.Diagnostic, error) {
		*seen = s
		diag := policy.Diagnostic{Reasons: []string{strings.TrimSpace(reason)}}
		switch verb {
		case "allow":
			return policy.Allow, diag, nil
		case "ask":
			return policy.Ask, diag, nil
		case "deny":
			return policy.Deny, diag, nil
		case "panic":
			panic("decider exploded")
		case "hang":
			<-ctx.Done()
			<-late
			return policy.Allow, diag, nil
		}
		return policy.Allow, diag, os.ErrPermission // "error": the decision must not count
	}
}

// TestGolden runs every internal/hook/testdata/<agent>/*.txtar: the input
// JSON through the agent's adapter, with the decider and environment the
// archive gives, against the exact output, exit status, step and events.
func TestGolden(t *testing.T) {
	Timeout = 200 * time.Millisecond
	files, _ := filepath.Glob("testdata/*/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		agent := filepath.Base(filepath.Dir(file))
		t.Run(agent+"/"+strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string]string{}
			for _, f := range ar.Files {
				sec[f.Name] = string(f.Data)
			}
			a, err := client.ForAgent(agent)
			if err != nil {
				t.Fatal(err)
			}
			env := map[string]string{}
			for _, line := range strings.Split(sec["env"], "\n") {
				if k, v, ok := strings.Cut(line, "="); ok {
					env[k] = v
				}
			}
			var seen Step
			in := []byte(sec["input.json"])
			// On synctest's clock the hook's Timeout passes only while the
			// decider waits for it ("hang"): one that answers at once is
			// never timed out, however busy the machine.
			var res client.Result
			synctest.Test(t, func(t *testing.T) {
				late := make(chan struct{})
				res = Run(context.Background(), a, in, client.Env{Getenv: func(k string) string { return env[k] }, Home: "/home/user", Witness: witnessAll{}}, fakeDecider(sec["decide"], &seen, late), Walls{})
				close(late)
			})
			got := map[string]string{
				"stdout": string(res.Stdout),
				"exit":   strconv.Itoa(res.Exit) + "\n",
			}
			if res.Exit == 2 {
				got["stderr"] = res.Stderr + "\n"
			}
			if res.Input.Step != nil {
				got["step.json"] = pretty(t, res.Input.Step)
			}
			// Read once: the line the step carries (to the card, the
			// ledger and the wall) is the line risk classifies.
			if seen.Kind == KindShell {
				if cmd, _, ok := risk.ToolCommand(seen.Tool, seen.Input); !ok || cmd != seen.Command {
					t.Errorf("%s: the step carries %q, risk classifies %q (%v)", file, seen.Command, cmd, ok)
				}
			}
			if len(res.Input.Events) > 0 {
				got["events.json"] = pretty(t, res.Input.Events)
			}
			if *update {
				var keep []txtar.File
				for _, f := range ar.Files {
					if _, ok := got[f.Name]; !ok && f.Name != "stderr" && f.Name != "step.json" && f.Name != "events.json" {
						keep = append(keep, f)
					}
				}
				for _, name := range []string{"stdout", "stderr", "exit", "step.json", "events.json"} {
					if v, ok := got[name]; ok {
						keep = append(keep, txtar.File{Name: name, Data: []byte(v)})
					}
				}
				ar.Files = keep
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range []string{"stdout", "stderr", "exit", "step.json", "events.json"} {
				want, wok := sec[name]
				g, gok := got[name]
				if wok != gok || want != g {
					t.Errorf("%s: %s =\n%s\nwant\n%s", file, name, g, want)
				}
			}
			// Every answer on stdout is one valid JSON object, or nothing.
			if out := bytes.TrimSpace(res.Stdout); len(out) > 0 && !json.Valid(out) {
				t.Errorf("%s: stdout is not JSON: %s", file, out)
			}
			if res.Exit != 0 && res.Exit != 2 {
				t.Errorf("%s: exit %d: the clients run the command on any status but 0 and 2", file, res.Exit)
			}
		})
	}
}

func pretty(t *testing.T, v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// witnessAll is a witness that finds the client behind every hook: the golden
// files test what each adapter reads; evidence_test.go and the sec-person
// scripts test the witness on real processes.
type witnessAll struct{}

func (witnessAll) Open(agent, session string) error         { return nil }
func (witnessAll) Person(agent, session, turn string) error { return nil }
