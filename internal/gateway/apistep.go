package gateway

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"path/filepath"
	"time"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/store"
)

// StepRequest is a step a host submits: POST /api/v1/steps.
type StepRequest struct {
	Session string          `json:"session"`           // the host's own conversation id
	Turn    string          `json:"turn,omitempty"`    // the host's id for the turn
	Task    string          `json:"task,omitempty"`    // the task of the session the step runs in, made with POST /api/v1/tasks
	Tool    string          `json:"tool,omitempty"`    // "" with a command is Bash
	Command string          `json:"command,omitempty"` // a shell command line
	Input   json.RawMessage `json:"input,omitempty"`   // another tool's input
	Cwd     string          `json:"cwd"`               // absolute
	// Container is where the step runs; absent is the host. The policy
	// validates it and holds the step against the host when it refuses it.
	Container *policy.Container `json:"container,omitempty"`
	// Wait is how many seconds to wait for the person when the step asks,
	// at most the card timeout; absent is the card timeout, 0 returns at
	// once with the card to poll.
	Wait *float64 `json:"wait,omitempty"`
}

// StepReply is the gateway's answer about a step, and about its card.
type StepReply struct {
	Decision string   `json:"decision"` // allow, ask or deny
	Reasons  []string `json:"reasons"`
	Classes  []string `json:"classes,omitempty"`
	Where    string   `json:"where,omitempty"` // the host or the container the step was held against
	Card     string   `json:"card,omitempty"`  // the card the person was asked on
	// State is the card's: waiting, answered or expired.
	State   string    `json:"state,omitempty"`
	Expires time.Time `json:"expires,omitzero"` // when a waiting card stops waiting
}

// Card states.
const (
	CardWaiting  = "waiting"
	CardAnswered = "answered"
	CardExpired  = "expired"
)

// hostStep is a host's step whose card it may poll.
type hostStep struct {
	host    string
	done    chan struct{} // closed once reply holds the decision
	reply   StepReply
	settled time.Time
}

// keepSettled is how long a settled card stays readable by its host.
const keepSettled = 10 * time.Minute

type postedKey struct{}

// posted tells the waiter in ctx, if any, of the card just posted.
func posted(ctx context.Context, id string) {
	if f, ok := ctx.Value(postedKey{}).(func(string)); ok {
		f(id)
	}
}

func (a *API) submitStep(w http.ResponseWriter, r *http.Request, host store.Host) {
	var q StepRequest
	if err := decode(r, &q); err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	s, msg := hostStepOf(host, q)
	if msg != "" {
		apiError(w, http.StatusBadRequest, msg)
		return
	}
	if q.Task != "" {
		id, ok := a.taskOf(w, r, host, q.Session, q.Task)
		if !ok {
			return
		}
		s.Task = id
	}
	timeout := a.Decider.Cards.timeout()
	wait := timeout
	if q.Wait != nil {
		if math.IsNaN(*q.Wait) || *q.Wait < 0 {
			apiError(w, http.StatusBadRequest, "wait is a number of seconds, 0 or more")
			return
		}
		wait = min(time.Duration(*q.Wait*float64(time.Second)), timeout)
	}

	if !a.deciding.enter() {
		apiError(w, http.StatusServiceUnavailable, "refused: sayso serve is stopping, so this step was not decided; send it again once sayso serve runs")
		return
	}
	hs := &hostStep{host: host.Name, done: make(chan struct{})}
	cardc := make(chan string, 1)
	// The decision outlives the request: a card the host polls waits its
	// full time even when the host stops waiting for this answer. The
	// gateway stopping ends its card (Cards.stop), not the decision.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), timeout+2*time.Second)
	ctx = context.WithValue(ctx, postedKey{}, func(id string) {
		a.keep(id, hs)
		cardc <- id
	})
	go func() {
		defer a.deciding.exit()
		defer cancel()
		dec, diag, err := a.Decider.DecideIn(ctx, s, q.Container)
		a.settle(hs, dec, &diag, err)
	}()

	select {
	case <-hs.done:
	case id := <-cardc:
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-hs.done:
		case <-t.C:
			apiJSON(w, http.StatusAccepted, a.waiting(id, hs))
			return
		case <-r.Context().Done():
			if !a.stopped(hs) {
				return
			}
		}
	case <-r.Context().Done():
		if !a.stopped(hs) {
			return
		}
	}
	apiJSON(w, http.StatusOK, a.settledReply(hs))
}

// stopped says, for a step whose request ended before its decision,
// whether the gateway is stopping; the decision then comes at once (its
// card ends) and stopped waits for it, so the host is told.
func (a *API) stopped(hs *hostStep) bool {
	if a.base == nil || a.base.Err() == nil {
		return false // the host stopped waiting
	}
	<-hs.done
	return true
}

// hostStepOf is the hook's step for a host's request, in a session of the
// host's own: a host never reaches a client's session.
func hostStepOf(host store.Host, q StepRequest) (client.Step, string) {
	s := client.Step{Agent: host.Name, Event: "api", Turn: q.Turn, Tool: q.Tool, Command: q.Command, Cwd: q.Cwd, Input: q.Input}
	switch {
	case q.Session == "" || len(q.Session) > 200:
		return s, "session is required (at most 200 characters)"
	case len(q.Turn) > 200:
		return s, "turn is at most 200 characters"
	case q.Cwd == "" || !filepath.IsAbs(q.Cwd):
		return s, "cwd must be an absolute folder"
	case q.Command != "" && len(q.Input) > 0:
		return s, "send command or input, not both"
	}
	s.Session = host.Name + ":" + q.Session
	s.Cwd = filepath.Clean(q.Cwd)
	switch {
	case q.Command != "":
		if s.Tool == "" {
			s.Tool = "Bash"
		}
		if !risk.ShellTool(s.Tool) {
			return s, "command is for a shell tool; send input for " + s.Tool
		}
		s.Kind = client.KindShell
	case s.Tool == "":
		return s, "tool or command is required"
	case risk.ShellTool(s.Tool):
		return s, "a shell step needs its command"
	case len(q.Input) > 0 && !json.Valid(q.Input):
		return s, "input is not JSON"
	}
	// The one decoder the clients' adapters read a tool input with.
	s.Use = risk.ReadUse(s.Tool, q.Input)
	return s, ""
}

// keep remembers a host's card, and forgets those settled long ago.
func (a *API) keep(id string, hs *hostStep) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.steps == nil {
		a.steps = map[string]*hostStep{}
	}
	t := now()
	for k, v := range a.steps {
		if !v.settled.IsZero() && t.Sub(v.settled) > keepSettled {
			delete(a.steps, k)
		}
	}
	hs.reply.Card = id
	a.steps[id] = hs
}

// settle records the decision and wakes whoever waits for it.
func (a *API) settle(hs *hostStep, dec policy.Decision, diag *policy.Diagnostic, err error) {
	r := StepReply{Decision: dec.String(), Reasons: diag.Reasons, Where: diag.Where}
	if err != nil {
		r.Decision, r.Reasons = policy.Deny.String(), []string{"deny: sayso could not decide this step"}
	}
	for _, c := range diag.Assessment.Classes.Classes() {
		r.Classes = append(r.Classes, c.String())
	}
	a.mu.Lock()
	r.Card = hs.reply.Card
	if r.Card != "" {
		r.State = CardAnswered
		if dec == policy.Ask {
			r.State = CardExpired
		}
	}
	hs.reply, hs.settled = r, now()
	a.mu.Unlock()
	close(hs.done)
}

func (a *API) settledReply(hs *hostStep) StepReply {
	a.mu.Lock()
	defer a.mu.Unlock()
	return hs.reply
}

// waiting is the reply about a card the person has not answered yet.
func (a *API) waiting(id string, hs *hostStep) StepReply {
	select {
	case <-hs.done:
		return a.settledReply(hs)
	default:
	}
	r := StepReply{Decision: policy.Ask.String(), Card: id, State: CardWaiting}
	if c, err := a.Decider.Cards.Get(id); err == nil {
		r.Reasons, r.Classes, r.Expires = []string{c.Reason}, c.Classes, c.Expires
	}
	return r
}

// card is GET /api/v1/cards/{id}: a host reads its own cards only.
func (a *API) card(w http.ResponseWriter, r *http.Request, host store.Host) {
	id := r.PathValue("id")
	a.mu.Lock()
	hs, ok := a.steps[id]
	a.mu.Unlock()
	if !ok || hs.host != host.Name {
		apiError(w, http.StatusNotFound, "no card of this host has that id")
		return
	}
	apiJSON(w, http.StatusOK, a.waiting(id, hs))
}

// timeout is how long a card waits for the person.
func (c *Cards) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultCardTimeout
	}
	return c.Timeout
}
