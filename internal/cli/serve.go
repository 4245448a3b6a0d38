package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/review"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
)

const serveUsage = `usage: sayso serve [--addr 127.0.0.1:PORT] [--card-timeout D] [--notify COMMAND]

Runs the gateway: hooks hand their steps to it over a unix socket in the
state folder, questions become cards the person answers on a page served
on loopback only, and every decision goes to the ledger. Its first line
says it is ready and where the page is; the next is a one-time login
link, and it prints a fresh one each time Enter is pressed in its
terminal; 'sayso login' asks it for another over the person's socket.
A card waits as long as the agent's client waits for its hook (the
timeout 'sayso install' wrote: 10 minutes for a step), less a few
seconds so that sayso answers first; --card-timeout D waits less.
--notify runs COMMAND with /bin/sh -c when a card waits; the card's
one-line summary comes on its standard input and in $SAYSO_CARD, never
on the command line, e.g. --notify 'notify-send sayso "$SAYSO_CARD"'.
Errors the page and the hosts' API cannot show, and the hook's failures
it could not keep in the ledger, are logged on its standard error.
It runs on half the machine's processors (at least one), leaving the
rest to the clients and their hooks; a GOMAXPROCS in its environment
wins.
`

// DefaultAddr is where the person's page is served.
const DefaultAddr = "127.0.0.1:7474"

func init() {
	register(command{"serve", "run the gateway and the person's page", runServe, serveUsage})
	register(command{name: "login", summary: "print a one-time link to the person's page", run: runLogin})
}

func runServe(env *Env, args []string) error {
	fs := verbFlags("serve")
	addr := fs.String("addr", DefaultAddr, "")
	timeout := fs.Duration("card-timeout", 0, "")
	notify := fs.String("notify", "", "")
	if done, err := parseFlags(env, fs, serveUsage, args); done || err != nil {
		return err
	}
	// What the person should hear of but that does not stop the gateway
	// is said after the line that says it is ready, which comes first.
	var later []string
	warn := func(format string, a ...any) { later = append(later, fmt.Sprintf(format, a...)) }
	// A card lives only as long as its hook waits: the clients end a hook
	// after the timeout install gave them, and the hook stops waiting for
	// the gateway a little before. A longer card would show the person a
	// question nobody waits on.
	if longest := hookWait - client.CardMargin; *timeout > longest {
		warn("sayso: warning: --card-timeout %v is longer than a hook waits; cards wait %v", *timeout, longest)
		*timeout = longest
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || host != "127.0.0.1" && host != "localhost" {
		return usagef("serve: --addr %q is not a loopback address (want 127.0.0.1:PORT)", *addr)
	}
	// Unless the person set it, the gateway leaves the clients and their
	// hooks half the machine (gateway.Procs).
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(gateway.Procs(runtime.GOMAXPROCS(0)))
	}
	// The gateway's and the page's log: what they cannot show goes here.
	slog.SetDefault(slog.New(slog.NewTextHandler(env.Stderr, nil)))
	ctx := env.context()
	state, err := paths.StateDir()
	if err != nil {
		return err
	}
	if err := paths.Private(state); err != nil {
		return err
	}
	socket, err := gateway.Socket()
	if err != nil {
		return err
	}
	ln, err := gateway.Listen(socket)
	if err != nil {
		return err
	}
	defer os.Remove(socket)
	personSocket, err := gateway.PersonSocket()
	if err != nil {
		ln.Close()
		return err
	}
	pln, err := gateway.Listen(personSocket)
	if err != nil {
		ln.Close()
		return err
	}
	defer os.Remove(personSocket)
	db, err := store.Open(ctx, filepath.Join(state, store.FileName))
	if err != nil {
		ln.Close()
		return err
	}
	defer db.Close()

	d, pins, err := newDecider(db)
	if err != nil {
		return err
	}
	if _, err := personReviewer(d.ConfigDir); err != nil {
		warn("sayso: warning: %v: no reviewer, auto asks", err)
	}
	if w := d.Walls.State(); !w.On {
		warn("sayso: warning: no wall: %s; auto and autopilot ask about every shell step but a read", w.Why)
		warn("sayso: hint: go install ./cmd/sayso ./cmd/sayso-hook ./cmd/sayso-wall, then run sayso serve from there")
	}
	// A policy file sayso cannot read gives none of its settings and
	// allow entries: the person hears it when the gateway starts.
	for _, p := range policy.Load(policy.Files{Person: filepath.Join(d.ConfigDir, "policy.toml"), ReadFile: os.ReadFile}).Problems {
		warn("sayso: warning: policy: %s", p)
	}
	d.Forwarders = &gateway.Forwarders{Pins: pins}
	c := gateway.Config{Decider: d, Guard: guardWith(pins), Addr: *addr, CardTimeout: *timeout,
		Waits:    func(agent, event string) time.Duration { return client.Waits(pins, agent, event) },
		Enroller: &team.Enroller{Config: d.ConfigDir, DB: db}}
	if *notify != "" {
		c.Notify = notifier(*notify, env.Stderr)
	}
	tcp, err := net.Listen("tcp", *addr)
	if err != nil {
		ln.Close()
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("serve the page on %s: the port is taken (another sayso serve, for another state folder?); pick another with --addr 127.0.0.1:PORT", *addr)
		}
		return fmt.Errorf("serve the page on %s: %w", *addr, err)
	}
	if _, port, _ := net.SplitHostPort(*addr); port == "0" {
		// Port 0: the one the kernel chose.
		*addr = tcp.Addr().String()
		c.Addr = *addr
	}
	// No session's wall forwards a server of its own to the page's port.
	d.Walls.PagePort = tcp.Addr().(*net.TCPAddr).Port
	g, err := gateway.New(c)
	if err != nil {
		ln.Close()
		tcp.Close()
		return err
	}
	// A node registered with its hub relays beside the gateway: the
	// outbox, the cards, the org's bundle. It stops before the store
	// closes.
	if stop, err := startRelay(ctx, db, g.Cards, d.ConfigDir); err != nil {
		warn("sayso: warning: team: %v: the ledger waits in the outbox and cards stay on this page", err)
	} else if stop != nil {
		defer stop()
	}
	// A decision may wait for the person as long as the longest wait a
	// client gives a hook; each card's own life is shorter.
	hook.Timeout = hookWait

	if gone, err := gateway.Announce(gateway.Running{PID: os.Getpid(), Page: "http://" + *addr + "/", Started: time.Now().UTC(), CardTimeout: *timeout}); err != nil {
		warn("sayso: warning: %v: sayso status will not name the page", err)
	} else {
		defer gone()
	}
	// Every listener is open: hooks and the page are taken from here on.
	fmt.Fprintf(env.Stdout, "sayso: ready: the page is on http://%s/ (hooks on %s)\n", *addr, socket)
	fmt.Fprintf(env.Stdout, "sayso: open %s\n", g.Page.LoginURL())
	for _, l := range later {
		fmt.Fprintln(env.Stderr, l)
	}
	if f, ok := env.Stdin.(*os.File); ok && isTerminal(f) {
		fmt.Fprintln(env.Stdout, "sayso: press Enter here for a fresh login link")
		// Run in the background ('sayso serve &'), a read of the terminal
		// would stop the whole gateway (SIGTTIN): ignored, the read fails
		// instead, and is tried again until serve is in the foreground.
		signal.Ignore(syscall.SIGTTIN)
		go func() {
			r := bufio.NewReader(f)
			for ctx.Err() == nil {
				_, err := r.ReadString('\n')
				switch {
				case err == nil:
					fmt.Fprintf(env.Stdout, "sayso: open %s\n", g.Page.LoginURL())
				case errors.Is(err, io.EOF):
					return
				default:
					time.Sleep(time.Second)
				}
			}
		}()
	}
	err = g.Serve(ctx, gateway.Listeners{Hooks: ln, Person: pln, Page: tcp})
	fmt.Fprintln(env.Stderr, "sayso: gateway stopped")
	return err
}

// runLogin asks sayso serve for a login link over the person's socket:
// the hooks' socket answers decisions only.
func runLogin(env *Env, args []string) error {
	if len(args) != 0 {
		return usagef("login takes no arguments")
	}
	link, err := askGateway(gateway.AskLogin)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, link)
	return nil
}

// askGateway asks the running sayso serve on the person's socket for a
// one-time link (gateway.AskLogin, gateway.AskEnrol).
func askGateway(ask func(socket string) (string, error)) (string, error) {
	socket, err := gateway.PersonSocket()
	if err != nil {
		return "", err
	}
	link, err := ask(socket)
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
		return "", fmt.Errorf("no gateway answers on %s: run 'sayso serve' first", socket)
	}
	return link, err
}

// isTerminal reports whether f is a terminal: serve reads its standard
// input only then, for the person's Enter.
func isTerminal(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}

// newDecider is the store-backed decider with sayso's protected paths and
// the hook definitions sayso installed.
func newDecider(db *store.DB) (*gateway.Decider, client.PinStore, error) {
	config, err := paths.ConfigDir()
	if err != nil {
		return nil, nil, err
	}
	state, err := paths.StateDir()
	if err != nil {
		return nil, nil, err
	}
	home, _ := os.UserHomeDir()
	// sayso serve reads the pins three times a step (the forwarder's
	// binary, the person's evidence, the pin check): parsed once, and
	// again when the file changes.
	pins := &client.CachedPins{FilePins: client.FilePins{Path: filepath.Join(state, "pins.json")}}
	protected := append(paths.Protected(), client.Installed(pins)...)
	d := &gateway.Decider{DB: db, Home: home, ConfigDir: config, Protected: protected, Verdicts: review.NewCache(1024), Walls: hook.FindWalls(home, protected)}
	d.Reviewer, _ = personReviewer(config) // one that cannot be built is none: auto asks; serve warns
	d.Witness = func(pid int) client.Witness { return witnessWith(pid, state, pins) }
	return d, pins, nil
}

func guardWith(pins client.PinStore) gateway.Guard {
	return func(agent string, next client.Decider) client.Decider { return hook.Guard(pins, agent, next) }
}

// notifier runs the person's notifier command when a card waits. The
// command is the person's own words, run by /bin/sh -c; the card's
// summary, which an agent's step wrote, never becomes part of a command
// line: it comes on standard input and in $SAYSO_CARD, one line, capped.
func notifier(command string, stderr io.Writer) func(card.Card) {
	return func(c card.Card) {
		summary := notice(c.Summary())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
		cmd.Env = append(os.Environ(), "SAYSO_CARD="+summary, "SAYSO_CARD_ID="+c.ID)
		cmd.Stdin = strings.NewReader(summary + "\n")
		if err := cmd.Start(); err != nil {
			cancel()
			fmt.Fprintf(stderr, "sayso: warning: notifier: %v\n", err)
			return
		}
		go func() {
			defer cancel()
			if err := cmd.Wait(); err != nil {
				fmt.Fprintf(stderr, "sayso: warning: notifier: %v\n", err)
			}
		}()
	}
}

// notice is a card's summary made safe to hand a notifier: one line, no
// control characters, capped with the step's length and SHA-256.
func notice(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	return store.Cap(s)
}

// startRelay runs the node's relay to its hub when the node registered
// with one; stop ends it and waits. Not in a team, or joined with no hub
// to register with, there is none.
func startRelay(ctx context.Context, db *store.DB, cards *gateway.Cards, config string) (stop func(), err error) {
	st, joined, err := team.ReadState(config)
	if !joined || err == nil && !st.Registered() {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	key, err := team.ReadNodeKey(config)
	if err != nil {
		return nil, err
	}
	r := &team.Relay{Hub: hubapi.NewClient(st.Hub, st.HubPin, st.Node, key), DB: db, Cards: cards, Config: config, State: st}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	return func() { cancel(); <-done }, nil
}
