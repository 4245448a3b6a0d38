package review

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sayso-dev/sayso/internal/risk"
)

// A backend sends one review and returns the reviewer's answer text.
type backend interface {
	send(ctx context.Context, system, message string, in *Input) (string, error)
}

// Reviewer asks one configured backend about steps. A nil Reviewer is no
// reviewer: every Review is Ask.
type Reviewer struct {
	cfg  Config
	back backend
	rand io.Reader // the source of fence boundaries
}

// New returns the reviewer cfg describes, reading its API key with getenv
// (os.Getenv when nil). A config of KindNone returns a nil Reviewer.
func New(cfg Config, getenv func(string) string) (*Reviewer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	key := ""
	if cfg.KeyEnv != "" {
		if key = getenv(cfg.KeyEnv); key == "" {
			return nil, fmt.Errorf("reviewer %s: environment variable %s is empty", cfg.Kind, cfg.KeyEnv)
		}
	}
	r := &Reviewer{cfg: cfg, rand: rand.Reader}
	switch cfg.Kind {
	case KindNone:
		return nil, nil
	case KindAnthropic:
		r.back = &anthropic{url: cfg.base() + "/v1/messages", model: cfg.Model, key: key, client: newClient()}
	case KindOpenAI:
		r.back = &openAI{url: cfg.base() + "/v1/chat/completions", model: cfg.Model, key: key, client: newClient()}
	case KindCommand:
		r.back = &command{argv: cfg.Command}
	}
	return r, nil
}

// Review asks the reviewer about one step. It never fails: anything but a
// valid allow whose quote the person said is Ask, with the reason.
// The caller checks May first; Review checks the input and the classes
// again, and sends nothing for a step no reviewer may let through.
func (r *Reviewer) Review(ctx context.Context, in Input) Verdict {
	if r == nil || r.back == nil {
		return Verdict{Answer: Ask, Reason: "no reviewer is configured"}
	}
	if err := in.check(); err != nil {
		return Verdict{Answer: Ask, Reason: "the reviewer was not asked: " + err.Error(), Err: err}
	}
	if in.Classes.Any(risk.KindNever) || !in.Classes.Waivable() {
		err := fmt.Errorf("%w: %s cannot be waived", ErrInput, in.Classes)
		return Verdict{Answer: Ask, Reason: "the reviewer was not asked: " + err.Error(), Err: err}
	}
	msg, err := message(&in, r.rand)
	if err != nil {
		return failed(err)
	}
	timeout := r.cfg.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	text, err := r.back.send(ctx, prompt, msg, &in)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("timed out after %s: %w", timeout, err)
		}
		return failed(err)
	}
	v, err := parseVerdict(text)
	if err != nil {
		return failed(err)
	}
	return hold(v, &in)
}
