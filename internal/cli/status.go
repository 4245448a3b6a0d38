package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/team"
)

const statusUsage = `usage: sayso status [--json]

Says, in a few lines, how sayso stands: whether the gateway (sayso serve)
runs and the address of the person's page; the clients sayso is installed
for, where, and how long the running gateway lets a step wait for the
person (its --card-timeout, or as long as the client waits); whether the pins
hold (sayso doctor says more); whether steps run inside the wall; the
problems of the policy files; and the cards missed in the last 24 hours.
It changes nothing, and exits 0 whatever it finds.
`

func init() {
	register(command{"status", "say whether the gateway runs, where the page is, and what is installed", runStatus, statusUsage})
}

// Status is what sayso status reports.
type Status struct {
	Gateway bool   `json:"gateway"`
	Page    string `json:"page,omitempty"`
	PID     int    `json:"pid,omitempty"`
	// CardTimeout is the running gateway's --card-timeout in seconds,
	// 0 for none.
	CardTimeout float64          `json:"card_timeout_seconds,omitempty"`
	Clients     []ClientState    `json:"clients"`
	Pins        []client.Problem `json:"pin_problems"`
	Wall        policy.Wall      `json:"wall"`
	client.PartialWalls
	Policy   []string `json:"policy_problems"`
	Missed   int      `json:"missed_24h"`
	Problems []string `json:"problems"` // what kept status from saying something
}

// ClientState is one client sayso is installed for, at one scope.
type ClientState struct {
	Agent string `json:"agent"`
	Scope string `json:"scope"`
	Path  string `json:"path"`
	Hooks int    `json:"hooks"`
	// Wait is how long, in seconds, the client waits for the hook that
	// decides a step: a card lives a few seconds less.
	Wait int `json:"wait_seconds"`
	// CardWait is how long, in seconds, the running gateway lets a card
	// of this client wait for the person; absent when no gateway runs or
	// the one running does not say.
	CardWait float64 `json:"card_wait_seconds,omitempty"`
}

func runStatus(env *Env, args []string) error {
	asJSON, done, err := jsonOnly(env, "status", statusUsage, args)
	if done || err != nil {
		return err
	}
	st := Status{Clients: []ClientState{}, Pins: []client.Problem{}, Policy: []string{}, Problems: []string{}}
	fail := func(err error) { st.Problems = append(st.Problems, err.Error()) }

	up, run, err := gateway.Up()
	if err != nil {
		fail(err)
	}
	st.Gateway, st.Page, st.PID, st.CardTimeout = up, run.Page, run.PID, run.CardTimeout.Seconds()
	// A gateway that announced itself (a page) said its card timeout too.
	announced := up && run.Page != ""

	home, _ := os.UserHomeDir()
	pins, err := pinStore()
	if err != nil {
		return err
	}
	all, err := pins.Load()
	if err != nil {
		fail(err)
	}
	byPlace := map[string]*ClientState{}
	for _, p := range all {
		if p.Kind != client.PinDefinition {
			continue
		}
		k := p.Agent + "\x00" + p.Scope + "\x00" + p.Path
		c := byPlace[k]
		if c == nil {
			c = &ClientState{Agent: p.Agent, Scope: p.Scope, Path: p.Path}
			byPlace[k] = c
		}
		c.Hooks++
	}
	for _, c := range byPlace {
		wait := client.Waits(pins, c.Agent, client.Deciding(c.Agent))
		c.Wait = int(wait / time.Second)
		if announced {
			c.CardWait = run.CardWait(wait).Seconds()
		}
		st.Clients = append(st.Clients, *c)
	}
	slices.SortFunc(st.Clients, func(a, b ClientState) int {
		return strings.Compare(a.Agent+a.Scope+a.Path, b.Agent+b.Scope+b.Path)
	})
	if len(all) > 0 {
		st.Pins = append(st.Pins, client.CheckPins(pins, "")...)
	}

	st.Wall = hook.FindWalls(home, append(paths.Protected(), client.Installed(pins)...)).State()

	cwd, err := env.Getwd()
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if st.Wall.On {
		var agents []string
		for _, c := range st.Clients {
			agents = append(agents, c.Agent)
		}
		st.PartialWalls = client.PartialWallsFor(agents, client.Target{Home: home, Project: paths.ProjectRoot(cwd), Getenv: os.Getenv})
	}
	config, err := paths.ConfigDir()
	if err != nil {
		return err
	}
	pol := policy.Load(policy.Files{Person: filepath.Join(config, "policy.toml"), Root: paths.ProjectRoot(cwd), ReadFile: os.ReadFile})
	pol.SetTeam(team.Load(config, time.Now()))
	for _, p := range pol.Problems {
		st.Policy = append(st.Policy, p.String())
	}
	if pol.AutoWithoutWall {
		st.Policy = append(st.Policy, filepath.Join(config, "policy.toml")+": auto_without_wall = true: without the wall, what auto and autopilot let run can do whatever you can")
	}

	db, ctx, cancel, err := openStore()
	if err != nil {
		fail(err)
	} else {
		missed, err := db.MissedCards(ctx, 1000)
		if err != nil {
			fail(err)
		}
		since := db.Now().Add(-24 * time.Hour)
		for _, m := range missed {
			if !m.At.Before(since) {
				st.Missed++
			}
		}
		db.Close()
		cancel()
	}

	if asJSON {
		return printJSON(env.Stdout, st)
	}
	printStatus(env, st)
	return nil
}

// seconds is a duration of s seconds, to the millisecond.
func seconds(s float64) time.Duration {
	return (time.Duration(s*float64(time.Second)) + time.Millisecond/2).Truncate(time.Millisecond)
}

func printStatus(env *Env, st Status) {
	w := env.Stdout
	switch {
	case st.Gateway && st.Page != "":
		fmt.Fprintf(w, "gateway: running (pid %d); page %s ('sayso login' prints a link)", st.PID, st.Page)
		if st.CardTimeout > 0 {
			fmt.Fprintf(w, "; a card waits at most %v (--card-timeout)", seconds(st.CardTimeout))
		}
		fmt.Fprintln(w)
	case st.Gateway:
		fmt.Fprintln(w, "gateway: running; its page's address is not known ('sayso login' prints a link)")
	default:
		fmt.Fprintln(w, "gateway: not running: questions go to each client's own ask, or are denied where it has none; start it with 'sayso serve'")
	}
	if len(st.Clients) == 0 {
		fmt.Fprintln(w, "clients: none installed ('sayso install "+strings.Replace(client.AgentList(), ",", "',", 1)+")")
	}
	for _, c := range st.Clients {
		fmt.Fprintf(w, "client: %s (%s) %d hooks in %s; ", c.Agent, c.Scope, c.Hooks, c.Path)
		most := time.Duration(c.Wait)*time.Second - client.CardMargin
		switch {
		case c.CardWait > 0:
			why := fmt.Sprintf("as long as %s waits for its hook, less %v", c.Agent, client.CardMargin)
			if c.CardWait < most.Seconds() {
				why = "the --card-timeout of sayso serve"
			}
			fmt.Fprintf(w, "a step waits up to %v for you (%s)\n", seconds(c.CardWait), why)
		case st.Gateway:
			fmt.Fprintf(w, "a step waits up to %v for you, less if sayso serve runs with a --card-timeout\n", most)
		default:
			fmt.Fprintf(w, "no gateway runs, so no step waits for you (with sayso serve, up to %v)\n", most)
		}
	}
	switch {
	case len(st.Clients) == 0:
	case len(st.Pins) == 0:
		fmt.Fprintln(w, "pins: ok")
	default:
		for _, p := range st.Pins {
			fmt.Fprintf(w, "pins: problem: %s (fix: %s)\n", p.What, p.Fix)
		}
	}
	if st.Wall.On {
		fmt.Fprintln(w, "wall: on: what a mode lets run runs inside sayso's wall")
		for _, l := range st.PartialWalls.Lines() {
			fmt.Fprintln(w, l)
		}
	} else {
		fmt.Fprintf(w, "wall: off: %s; auto and autopilot ask about every step but reading\n", st.Wall.Why)
	}
	if len(st.Policy) == 0 {
		fmt.Fprintln(w, "policy: no problem")
	}
	for _, p := range st.Policy {
		fmt.Fprintf(w, "policy: problem: %s\n", p)
	}
	fmt.Fprintf(w, "missed cards (24h): %d\n", st.Missed)
	for _, p := range st.Problems {
		fmt.Fprintf(env.Stderr, "sayso: warning: %s\n", p)
	}
}
