package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/unixsock"
)

func init() {
	register(command{"install", "plug sayso into an agent's hooks", runInstall, client.InstallUsage}, client.Agents()...)
	register(command{"uninstall", "remove what install added", runUninstall, client.UninstallUsage}, client.Agents()...)
	register(command{"doctor", "check the installed hooks and their pins", runDoctor, client.DoctorUsage})
}

func runInstall(env *Env, args []string) error {
	fs := verbFlags("install")
	scope := fs.String("scope", "user", "")
	fast := fs.Bool("fast", false, "")
	one := fs.Bool("one-binary", false, "")
	agent, rest := "", args
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		agent, rest = args[0], args[1:]
	}
	if done, err := parseFlags(env, fs, client.InstallUsage, rest); done || err != nil {
		return err
	}
	if agent == "" && fs.NArg() == 1 {
		agent = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return usagef("install: unexpected %q", fs.Arg(0))
	}
	if !slices.Contains(client.Agents(), agent) {
		return usagef("install: want %s, not %q", client.AgentList(), agent)
	}
	if !slices.Contains(client.Scopes, *scope) {
		return usagef("install: unknown scope %q (want user, project or managed)", *scope)
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("install: find this binary: %w", err)
	}
	if bin, err = filepath.EvalSymlinks(bin); err != nil {
		return fmt.Errorf("install: find this binary: %w", err)
	}
	if *fast && *one {
		return usagef("install: --fast and --one-binary exclude each other")
	}
	// The forwarder beside this binary hands steps to sayso serve without
	// loading the database driver, and runs this binary's 'sayso hook'
	// when no gateway answers: then both are pinned.
	fallback := ""
	fwd := filepath.Join(filepath.Dir(bin), "sayso-hook")
	fi, ferr := os.Stat(fwd)
	hasFwd := ferr == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
	switch {
	case *fast && !hasFwd:
		return fmt.Errorf("install --fast: no sayso-hook beside this binary at %s: build it with 'go build -o %s ./cmd/sayso-hook'", fwd, fwd)
	case hasFwd && !*one:
		bin, fallback = fwd, bin
	}
	cwd, home, store, err := hookPlaces(env)
	if err != nil {
		return fmt.Errorf("install: %w", err)
	}
	state, err := paths.StateDir()
	if err != nil {
		return fmt.Errorf("install: %w", err)
	}
	config, err := paths.ConfigDir()
	if err != nil {
		return fmt.Errorf("install: %w", err)
	}
	// The hooks reach sayso serve through a socket in the state folder:
	// where no socket can be made at its path, every step would fail.
	if err := unixsock.Check(filepath.Join(state, paths.SocketName)); err != nil {
		return fmt.Errorf("install: %w; set SAYSO_STATE_DIR to a shorter folder and install again", err)
	}
	pins, err := client.Install(client.Target{Agent: agent, Scope: *scope, Project: paths.ProjectRoot(cwd), Home: home, Getenv: os.Getenv,
		Binary: bin, Fallback: fallback, StateDir: state, ConfigDir: config}, store)
	if err != nil {
		return err
	}
	printPins(env.Stdout, "pinned", pins)
	if fallback != "" {
		fmt.Fprintf(env.Stdout, "the hooks run %s, which hands each step to sayso serve and runs %s hook when it is not running\n", bin, fallback)
	} else {
		fmt.Fprintf(env.Stdout, "the hooks run %s hook\n", bin)
	}
	fmt.Fprintf(env.Stdout, "installed sayso for %s (%s scope); check it with 'sayso doctor'\n", agent, *scope)
	return nil
}

func runUninstall(env *Env, args []string) error {
	agent := ""
	switch {
	case len(args) > 1:
		return usagef("uninstall: unexpected %q", args[1])
	case len(args) == 1:
		if !slices.Contains(client.Agents(), args[0]) {
			return usagef("uninstall: want %s, not %q", client.AgentList(), args[0])
		}
		agent = args[0]
	}
	store, err := pinStore()
	if err != nil {
		return fmt.Errorf("uninstall: %w", err)
	}
	removed, missing, err := client.Uninstall(agent, store)
	if err != nil {
		return err
	}
	printPins(env.Stdout, "removed", removed)
	for _, p := range missing {
		fmt.Fprintf(env.Stderr, "sayso: hint: %s %s %s in %s was already changed or gone; left as it is\n", p.Agent, p.Kind, p.Event, p.Path)
	}
	if len(removed)+len(missing) == 0 {
		fmt.Fprintln(env.Stdout, "nothing to remove")
	}
	return nil
}

// hookPlaces are what install and doctor start from: the working folder,
// the home folder and the pins.
func hookPlaces(env *Env) (cwd, home string, pins client.FilePins, err error) {
	if cwd, err = env.Getwd(); err != nil {
		return "", "", pins, err
	}
	home, _ = os.UserHomeDir()
	pins, err = pinStore()
	return cwd, home, pins, err
}

func runDoctor(env *Env, args []string) error {
	fs := verbFlags("doctor")
	asJSON := fs.Bool("json", false, "")
	if done, err := parseFlags(env, fs, client.DoctorUsage, args); done || err != nil {
		return err
	}
	cwd, home, store, err := hookPlaces(env)
	if err != nil {
		return fmt.Errorf("doctor: %w", err)
	}
	var dirs []string
	for _, dir := range []func() (string, error){paths.StateDir, paths.ConfigDir} {
		if d, err := dir(); err == nil {
			dirs = append(dirs, d)
		}
	}
	// The launcher run for real, and its record replaced: the hooks,
	// status and the cards read the same verdict from then on.
	wall := hook.CheckWalls(home, append(paths.Protected(), client.Installed(store)...)).State()
	rep := client.Doctor(store, home, paths.ProjectRoot(cwd), os.Getenv, dirs, wall)
	rep.Problems = append(rep.Problems, wallProblems(wall)...)
	rep.Problems = append(rep.Problems, policyProblems(paths.ProjectRoot(cwd))...)
	if *asJSON {
		if rep.Problems == nil {
			rep.Problems = []client.Problem{}
		}
		if rep.Warnings == nil {
			rep.Warnings = []client.Problem{}
		}
		if err := printJSON(env.Stdout, map[string]any{"ok": len(rep.Problems) == 0, "problems": rep.Problems, "warnings": rep.Warnings}); err != nil {
			return err
		}
	} else {
		if len(rep.Problems) == 0 {
			fmt.Fprintln(env.Stdout, "ok: every pin holds and no setting switches sayso's hooks off")
		}
		for _, p := range rep.Problems {
			fmt.Fprintf(env.Stdout, "problem: %s\n  fix: %s\n", p.What, p.Fix)
		}
		for _, p := range rep.Warnings {
			fmt.Fprintf(env.Stdout, "warning: %s\n  fix: %s\n", p.What, p.Fix)
		}
	}
	if len(rep.Problems) > 0 {
		return fmt.Errorf("doctor: %d problem(s)", len(rep.Problems))
	}
	return nil
}

// policyProblems reports what the person's policy file and the project's
// break or ignore: a file sayso cannot read gives none of its settings and
// allow entries, and an entry it ignores does not do what it says.
func policyProblems(root string) []client.Problem {
	config, err := paths.ConfigDir()
	if err != nil {
		return nil
	}
	var out []client.Problem
	for _, p := range policy.Load(policy.Files{Person: filepath.Join(config, "policy.toml"), Root: root, ReadFile: os.ReadFile}).Problems {
		out = append(out, client.Problem{Agent: "sayso", What: "policy: " + p.String(),
			Fix: "fix " + p.Source.File + " ('sayso policy check' explains each entry)"})
	}
	return out
}

// wallProblems reports a machine where sayso's wall cannot be applied, and
// a policy file that lets auto run without it: both are the person's to
// fix, never "ok". off is the wall as doctor found it.
func wallProblems(off policy.Wall) []client.Problem {
	var out []client.Problem
	if !off.On {
		out = append(out, client.Problem{Agent: "sayso", What: "no wall: " + off.Why + "; auto and autopilot ask about everything but reading",
			Fix: "install sayso-wall beside sayso (go install ./cmd/sayso-wall) on a kernel with Landlock and user namespaces"})
	}
	config, err := paths.ConfigDir()
	if err != nil {
		return out
	}
	pol := policy.Load(policy.Files{Person: filepath.Join(config, "policy.toml"), ReadFile: os.ReadFile})
	if pol.AutoWithoutWall {
		out = append(out, client.Problem{Agent: "sayso", What: "auto_without_wall = true in " + filepath.Join(config, "policy.toml") + ": where there is no wall, what auto and autopilot let run can do whatever you can, sayso's own state and settings included",
			Fix: "take auto_without_wall out of the policy file"})
	}
	return out
}
