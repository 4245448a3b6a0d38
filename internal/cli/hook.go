package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
)

func init() {
	register(command{"hook", "answer an agent's hook (run by the agent)", runHook, client.HookUsage}, client.Agents()...)
}

func runHook(env *Env, args []string) error {
	name := ""
	if len(args) == 1 {
		name = args[0]
	}
	a, err := client.ForAgent(name)
	if err != nil {
		// The client is unknown: deny in a form every client reads.
		a = client.Fallback
	}
	var res client.Result
	in, rerr := io.ReadAll(io.LimitReader(env.Stdin, hook.MaxInput+1))
	switch {
	case err != nil:
		res = a.Fail("", "sayso: "+err.Error()+"; the step is denied")
	case rerr != nil:
		res = a.Fail("", "sayso: cannot read stdin; the step is denied")
	case !paths.Fixed():
		res = unfixedHook(a, in)
	default:
		res = answerHook(a.Name(), in)
	}
	env.Stdout.Write(res.Stdout)
	if res.Exit == 2 {
		// Exit status 2 with the reason on stderr blocks in every client.
		return usagef("%s", strings.TrimPrefix(res.Stderr, "sayso: "))
	}
	return nil
}

// unfixedHook answers a hook line that names no folders (--state-dir,
// --config-dir), as an older install wrote it: sayso's folders found
// through the environment could be ones the agent set up, so every step
// asks (a deny where the client cannot ask) and no message is the
// person's, until the person installs again.
func unfixedHook(a client.Adapter, in []byte) client.Result {
	home, _ := os.UserHomeDir()
	why := "this hook line names no folders (--state-dir, --config-dir): every step asks until the person runs 'sayso install " + a.Name() + "'"
	return hook.Run(context.Background(), a, in, client.Env{Getenv: os.Getenv, Home: home}, hook.AskEvery(why), hook.Walls{})
}

// hookWait is how long the hook waits for sayso serve, a card's answer
// included: the longest wait sayso install gives a client. The gateway
// answers before the client's own wait for the event runs out.
const hookWait = client.DecideTimeout * time.Second

// answerHook hands the input to sayso serve when it runs; otherwise it
// decides here, against the store.
func answerHook(agent string, in []byte) client.Result {
	home, _ := os.UserHomeDir()
	if socket, err := gateway.Socket(); err == nil {
		fwd := map[string]string{}
		for _, k := range gateway.ForwardEnv {
			if v, ok := os.LookupEnv(k); ok {
				fwd[k] = v
			}
		}
		if r, err := gateway.Ask(socket, gateway.Request{Agent: agent, Input: in, Env: fwd, Home: home}, hookWait); err == nil {
			return client.Result{Stdout: r.Stdout, Stderr: r.Stderr, Exit: r.Exit}
		}
	}
	a, _ := client.ForAgent(agent)
	env := client.Env{Getenv: os.Getenv, Home: home, Witness: witness(os.Getpid())}
	db, ctx, cancel, err := openStore()
	if err != nil {
		return hook.Run(context.Background(), a, in, env, hook.Guard(client.FilePins{}, agent, failing(err)), hook.Walls{})
	}
	defer cancel()
	// The process exits after this answer: Leave spares it the checkpoint
	// Close runs, while the write-ahead log is small.
	defer db.Leave()
	d, pins, err := newDecider(db)
	if err != nil {
		res := hook.Run(ctx, a, in, env, failing(err), hook.Walls{})
		gateway.RecordFailure(ctx, db, agent, res)
		return res
	}
	return d.Run(ctx, agent, in, env, guardWith(pins))
}

func failing(err error) client.Decider {
	return func(context.Context, client.Step) (policy.Decision, policy.Diagnostic, error) {
		return policy.Deny, policy.Diagnostic{}, err
	}
}

// pinStore is where install, uninstall, doctor and the hook keep pins.
func pinStore() (client.FilePins, error) {
	state, err := paths.StateDir()
	if err != nil {
		return client.FilePins{}, err
	}
	if err := paths.Private(state); err != nil {
		return client.FilePins{}, err
	}
	return client.FilePins{Path: filepath.Join(state, "pins.json")}, nil
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func printPins(w io.Writer, verb string, pins []client.Pin) {
	for _, p := range pins {
		switch p.Kind {
		case client.PinBinary:
			fmt.Fprintf(w, "%s %s binary %s (sha256 %s)\n", verb, p.Agent, p.Path, shortHash(p.SHA256))
		case client.PinDefinition:
			fmt.Fprintf(w, "%s %s %s hook in %s (sha256 %s)\n", verb, p.Agent, p.Event, p.Path, shortHash(p.SHA256))
		case client.PinTrust:
			fmt.Fprintf(w, "%s %s hook trust in %s (sha256 %s)\n", verb, p.Agent, p.Path, shortHash(p.SHA256))
		case client.PinCommand:
			fmt.Fprintf(w, "%s %s /sayso command %s (sha256 %s)\n", verb, p.Agent, p.Path, shortHash(p.SHA256))
		}
	}
}

// witness is the person-evidence check for the hook process pid: this
// process, or the peer of sayso serve's socket.
func witness(pid int) client.Witness {
	state, err := paths.StateDir()
	if err != nil {
		return nil
	}
	return witnessWith(pid, state, client.FilePins{Path: filepath.Join(state, "pins.json")})
}

// witnessWith is witness with the state folder and the pins given.
func witnessWith(pid int, state string, pins client.PinStore) client.Witness {
	self, _ := os.Executable()
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	p := client.NewProcs(pid, state, self, pins)
	p.Home, _ = os.UserHomeDir() // the home the wall is built from
	return p
}
