package policy

import (
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
)

// Request is one step to decide, with everything the decision needs. State
// that lives elsewhere — the session, its leases, the reviewer's answer,
// the person's rules — arrives here, so Evaluate stays pure. A zero field
// fails closed: no policy is the defaults, no session is not the current
// controller only under controller "latest", no rules match nothing.
type Request struct {
	Agent   string // a client's name (package client), or a host's; "" when unknown
	Tool    string // the tool's name as the agent gives it; "" is the shell
	Command string // the shell command line, when Tool is "" (or a shell tool without an input)
	// Use is the tool's input as the adapter read it (risk.ReadUse), once:
	// what the step is classified by. Evaluate reads no tool input.
	Use risk.Use
	// Dir is the folder a shell step runs in when it is not Context.Cwd:
	// a shell tool's own working folder.
	Dir string
	// Dialog reports that the client answers an ask with its own dialog
	// in the person's terminal: their yes there is their say-so for
	// exactly this step (Plan).
	Dialog bool

	Mode    Mode         // the session's mode
	Context risk.Context // where the step runs on the host: root, cwd, home, protected paths
	// Project is the project the step runs in, read once (package
	// project): its root, work trees and repository, which the wall's
	// plan hands the wall. Context carries what risk reads of it.
	Project   Project
	Container *Container // the container the step runs in; nil is the host
	Policy    *Policy    // the person's policy file and the project's, loaded; nil is the defaults

	// Links maps a path the step names to the real path its symlinks lead
	// to, for the paths that exist. Filled by Resolve, which touches the
	// disk; Evaluate only reads it.
	Links map[string]string
	// Repos maps a folder a git segment finds its repository from to what
	// that repository's own configuration and hooks run, when it is not
	// the project's repository (whose configuration and hooks the wall
	// keeps): "" or absent when they run nothing. Filled by Resolve.
	Repos map[string]string
	// Seen maps each file that says what the step runs — the files it runs
	// by path, the project's manifests, its compose files — to its SHA-256
	// when the step was decided ("" for none). Filled by Resolve; a step
	// the person approves runs only while they are unchanged.
	Seen map[string]string

	Session Session
	Now     time.Time // when the step is decided: windows and leases are measured from it
	Leases  []Lease   // the live leases of the person; Evaluate picks the one that covers
	Review  Review    // the reviewer's answer for this step, if it was asked
	Rules   RuleLookup
	// Wall says whether an allowed shell step will run inside sayso's
	// wall; off (the zero value), auto and autopilot let only reading through.
	Wall Wall
}

// Session is what the decision needs to know about the session asking.
type Session struct {
	ID      string
	Turn    string // the turn (the client's own id of it) the step belongs to
	Epoch   int64  // the control epoch the session holds
	Held    bool   // the person stopped it, or a breaker tripped earlier
	HeldWhy string
	// Current reports whether the session holds the newest epoch: the
	// current controller. Only consulted under controller "latest".
	Current bool
	// Guest reports taint: the session holds a guest's message. Rules are
	// not consulted for it.
	Guest    bool
	Denials  []time.Time // when steps of the session were denied
	Declined []time.Time // when the person declined its cards
	Tasks    int         // sub-agents of the session running now
}

// Review is the reviewer's answer. The zero value is "not asked".
type Review struct {
	Asked bool
	Allow bool   // the person's own words asked for exactly this step
	Why   string // the reviewer's reason
}

// Lease is a one-shot permission the person granted for one category of
// ceiling step.
type Lease struct {
	ID       string
	Category risk.Class
	Session  string
	Turn     string
	Epoch    int64
	Cwd      string
	Expires  time.Time
	Consumed bool
}

// RuleQuery is what a rule lookup is asked about: one shell step, as
// rule.Step takes it.
type RuleQuery struct {
	Tool       string
	Command    string
	Cwd        string // the folder the step runs in, on the host
	Assessment risk.Assessment
	Held       bool
	Guest      bool
	EachTime   risk.Set // the classes the person marked "show each time": no rule lifts them
}

// RuleAnswer is what the lookup found, as rule.Found gives it.
type RuleAnswer struct {
	Allow bool
	Rules []string // the rules that cover the step, as the person sees them
	Lines []string // where rules were not counted and why, what matched, what was ignored
}

// RuleLookup finds the person's kept rules that cover a step. The rule
// store fills it (rule.Set.Lookup behind a small adapter); nil is no rules.
type RuleLookup func(RuleQuery) RuleAnswer
