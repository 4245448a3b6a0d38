package policy

import (
	"fmt"
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/rule"
)

// Policy is the person's policy file, with the project's file added to it:
// entries, autonomy rows, class patterns and settings, each entry and row
// with the file and line it came from.
type Policy struct {
	Entries        []Entry
	Autonomy       []Row
	Classes        []ClassPattern
	ProtectedPaths []string // more protected paths, absolute
	// TrustedHosts are the hosts a plain fetch may reach without asking;
	// nil is risk.DefaultTrustedHosts. The loader adds the project's git
	// remotes.
	TrustedHosts []string
	// ApprovedWrites are folders (~ for the home) every step let through
	// wide may write beside the places the decision read it writing:
	// where the person's approved steps write what sayso cannot read
	// (a release script's output outside the project). Only the person's
	// own file sets it.
	ApprovedWrites []string
	DefaultMode    Mode
	Controller     Controller
	OwnerWordsMax  int // characters of owner words a task may take from its parent
	MaxParallel    int // sub-agents a session may run at once
	Breaker        Breaker
	ProjectsBase   string // the folder a container's mount must lie strictly below; "" is the home folder
	Reviewer       Reviewer
	// AutoWithoutWall lets auto and autopilot approve shell steps where
	// sayso's wall cannot be applied (§13): what such a step runs can then
	// do whatever the person can. Only the person's own file sets it.
	AutoWithoutWall bool
	// ShowEachTime are the classes the person marked "show each time"
	// (seed 000 §3): no card offers a rule for them and no kept rule
	// lifts them. Only the person's own file sets it.
	ShowEachTime risk.Set
	// Agents are the person's settings for one agent, by its name
	// (a client's or a host's): [agents.NAME].
	Agents map[string]Agent
	// Team is the node's standing in a team: the org's bundle, or why it
	// holds none. Only SetTeam sets it.
	Team Team

	// Problems are what was broken or ignored, each with its place: shown
	// on every check, on the hook's stderr and on the page.
	Problems []Problem
	// Looked are the files Load looked for, in the order it read them,
	// there or not: named where a person is told where entries go.
	Looked []Look

	index *entryIndex
}

// Source is a place in a policy file.
type Source struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

func (s Source) String() string {
	if s.Line == 0 {
		return s.File
	}
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// Problem is one thing in a policy file that was broken or ignored.
type Problem struct {
	Source Source `json:"source"`
	Text   string `json:"text"`
}

func (p Problem) String() string { return p.Source.String() + ": " + p.Text }

// Entry is one [[allow]], [[ask]] or [[deny]] of a policy file.
type Entry struct {
	Effect  Decision
	Tool    string // a tool-name pattern; "" is the shell when Command is set, else every tool
	Command string // a command pattern in the rule language
	Class   risk.Class
	ByClass bool // the entry names a class
	Source  Source
	// Match and NotMatch are the file's own examples of commands the
	// entry matches and does not; one that does not hold is a Problem.
	Match, NotMatch []string

	words   []string // Command split into words
	invalid string   // why the entry cannot be used, or ""
}

// Row is one autonomy row: [autonomy.<agent>] tool-pattern = value.
type Row struct {
	Agent   string
	Pattern string
	Value   Autonomy
	Source  Source
}

// ClassPattern puts the tools whose names match Pattern into Class.
type ClassPattern struct {
	Pattern string
	Class   risk.Class
	Source  Source
}

// Breaker holds a session once it has Denials denied steps or Declined
// declined cards within Window.
type Breaker struct {
	Denials  int
	Declined int
	Window   time.Duration
}

// Controller is which sessions may take non-read steps.
type Controller uint8

const (
	// ControllerAny lets parallel sessions keep working; leases carry the
	// epoch binding. It is the design's default.
	ControllerAny Controller = iota
	// ControllerLatest lets only the session holding the newest epoch take
	// non-read steps.
	ControllerLatest
)

func (c Controller) String() string {
	if c == ControllerLatest {
		return "latest"
	}
	return "any"
}

// ParseController returns the controller policy named s.
func ParseController(s string) (Controller, error) {
	switch s {
	case "any":
		return ControllerAny, nil
	case "latest":
		return ControllerLatest, nil
	}
	return ControllerAny, fmt.Errorf("unknown controller policy %q (want any or latest)", s)
}

// Defaults of the settings a policy file may change.
const (
	DefaultOwnerWordsMax = 32 << 10
	DefaultMaxParallel   = 4
)

// DefaultBreaker holds a session after 5 denials or 3 declined cards in 10
// minutes.
var DefaultBreaker = Breaker{Denials: 5, Declined: 3, Window: 10 * time.Minute}

// Defaults is the policy of a person with no policy file.
func Defaults() *Policy {
	return &Policy{
		DefaultMode:   ModeAuto,
		Controller:    ControllerAny,
		OwnerWordsMax: DefaultOwnerWordsMax,
		MaxParallel:   DefaultMaxParallel,
		Breaker:       DefaultBreaker,
	}
}

// Agent is what the person's file sets for one agent.
type Agent struct {
	// RuleUnit is the unit of the rule that agent's cards offer: command
	// (the default) or verb, one pattern per segment (seed 004 §6).
	RuleUnit rule.Unit
	Source   Source
}
