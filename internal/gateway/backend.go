package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/step"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/web"
)

// Backend is the person's page over the store and the waiting cards.
type Backend struct {
	DB        *store.DB
	Waiting   *Cards
	ConfigDir string
}

var _ web.Backend = (*Backend)(nil)

func (b *Backend) Cards(ctx context.Context) ([]card.Card, error) { return b.Waiting.List(), nil }

func (b *Backend) Card(ctx context.Context, id string) (card.Card, error) { return b.Waiting.Get(id) }

func (b *Backend) Answer(ctx context.Context, id string, a card.Answer, message string) (card.Card, error) {
	return b.Waiting.AnswerSaying(ctx, id, a, message)
}

func (b *Backend) WatchCards(ctx context.Context) <-chan struct{} { return b.Waiting.Watch(ctx) }

func (b *Backend) Sessions(ctx context.Context) ([]web.Session, error) {
	all, err := b.DB.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	// The sessions' folders and whether they ended are the ledger's: their
	// steps' rows keep the folder they ran in, after every card is gone.
	// One statement for all, a few index seeks each.
	acts, err := b.DB.Activities(ctx)
	if err != nil {
		return nil, err
	}
	var out []web.Session
	index := map[string]int{}
	for _, s := range all {
		if s.Parent != "" {
			continue
		}
		a := acts[s.ID]
		index[s.ID] = len(out)
		out = append(out, web.Session{ID: s.ID, Agent: s.Agent, Mode: modeOf(s.Mode), Held: s.Held, HeldWhy: s.HeldWhy, Tainted: s.Tainted, Turns: s.Turns, Created: s.CreatedAt,
			Cwd: a.Folder, Ended: a.Ended, EndedAt: a.EndedAt})
	}
	for _, s := range all {
		if i, ok := index[s.Parent]; ok {
			out[i].Tasks = append(out[i].Tasks, web.Task{ID: s.ID, Agent: s.Agent, Mode: modeOf(s.Mode), Held: s.Held, HeldWhy: s.HeldWhy, Scoped: s.Scoped, CopyWhy: s.CopyWhy, Created: s.CreatedAt})
		}
	}
	return out, nil
}

func (b *Backend) SetMode(ctx context.Context, session string, m policy.Mode) error {
	return notFound(b.DB.SetMode(ctx, session, m.String()))
}

func (b *Backend) Release(ctx context.Context, session string) error {
	return notFound(b.DB.Release(ctx, session))
}

func (b *Backend) Rules(ctx context.Context) ([]web.KeptRule, error) {
	kept, err := b.DB.Rules(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]web.KeptRule, 0, len(kept))
	for i, r := range ruleList(kept) {
		out = append(out, web.KeptRule{ID: strconv.FormatInt(kept[i].ID, 10), Rule: r})
	}
	return out, nil
}

func (b *Backend) ForgetRule(ctx context.Context, id string) error {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return fmt.Errorf("rule %q: %w", id, web.ErrNotFound)
	}
	return notFound(b.DB.ForgetRule(ctx, n))
}

func (b *Backend) Leases(ctx context.Context) ([]web.Lease, error) {
	ls, err := b.DB.Leases(ctx, true)
	if err != nil {
		return nil, err
	}
	t := now()
	out := make([]web.Lease, 0, len(ls))
	for _, l := range ls {
		out = append(out, webLease(l, l.State(t)))
	}
	return out, nil
}

func webLease(l store.Lease, state string) web.Lease {
	return web.Lease{ID: strconv.FormatInt(l.ID, 10), Category: string(l.Category), Session: l.Session, Turn: l.Turn, Cwd: l.Cwd, Created: l.CreatedAt, Expires: l.ExpiresAt, State: state}
}

func (b *Backend) GrantLease(ctx context.Context, g web.Grant) (web.Lease, error) {
	c, err := store.ParseCategory(g.Category)
	if err != nil {
		return web.Lease{}, fmt.Errorf("%v: %w", err, web.ErrInvalid)
	}
	l, err := b.DB.GrantLease(ctx, store.Grant{Category: c, Session: g.Session, Cwd: g.Cwd, TTL: g.TTL})
	if errors.Is(err, store.ErrSessionEnded) {
		return web.Lease{}, fmt.Errorf("refused: the session has ended, so no step of it could use a lease: %w", web.ErrInvalid)
	}
	if err != nil {
		return web.Lease{}, notFound(err)
	}
	return webLease(l, l.State(now())), nil
}

func (b *Backend) RevokeLease(ctx context.Context, id string) error {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return fmt.Errorf("lease %q: %w", id, web.ErrNotFound)
	}
	return notFound(b.DB.RevokeLease(ctx, n))
}

func (b *Backend) Note(ctx context.Context) (string, error) { return b.DB.Note(ctx) }

func (b *Backend) SetNote(ctx context.Context, note string) error {
	if err := b.DB.SetNote(ctx, note); err != nil {
		return fmt.Errorf("%v: %w", err, web.ErrInvalid)
	}
	return nil
}

func (b *Backend) Ledger(ctx context.Context, f web.LedgerFilter) ([]web.Entry, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 200
	}
	var before int64
	if f.Before != "" {
		n, err := strconv.ParseInt(f.Before, 10, 64)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("ledger row %q: %w", f.Before, web.ErrInvalid)
		}
		before = n
	}
	rows, err := b.DB.Page(ctx, store.PageFilter{Session: f.Session, Kind: f.Kind, Decision: f.Decision, Class: f.Class,
		Words: strings.Fields(f.Text), Before: before, Limit: limit})
	if err != nil {
		return nil, err
	}
	// What became of each ask on the page: the answer or missed card after it.
	outcomes, err := b.DB.Outcomes(ctx, rows)
	if err != nil {
		return nil, err
	}
	out := make([]web.Entry, 0, len(rows))
	for _, r := range rows {
		var d struct {
			Shows      *step.Shown `json:"shows"`
			Decision   string      `json:"decision"`
			Diagnostic struct {
				Classes  []string `json:"classes"`
				Reasons  []string `json:"reasons"`
				Findings []struct {
					Class   string `json:"class"`
					Reason  string `json:"reason"`
					Program string `json:"program"`
					Verb    string `json:"verb"`
					Object  string `json:"object"`
					What    string `json:"what"`
					Why     string `json:"why"`
				} `json:"findings"`
			} `json:"diagnostic"`
		}
		_ = json.Unmarshal(r.Detail, &d)
		e := web.Entry{ID: strconv.FormatInt(r.ID, 10), At: r.At, Kind: r.Kind, Session: r.Session, Decision: d.Decision, Summary: r.Summary, Reasons: d.Diagnostic.Reasons, Shows: d.Shows}
		for _, f := range d.Diagnostic.Findings {
			// A kind this sayso does not know stays unknown: the page
			// shows the words the row was written with.
			k, _ := risk.ParseReasonKind(f.Reason)
			e.Findings = append(e.Findings, web.Finding{Class: f.Class, Words: f.Why,
				Reason: risk.Reason{Kind: k, Program: f.Program, Verb: f.Verb, Object: f.Object, What: f.What}})
		}
		if r.Kind == store.KindCardExpired {
			e.Decision = Missed // the missed tray: the filter decision=missed
		}
		if oc, ok := outcomes[r.ID]; ok {
			e.Outcome, e.OutcomeWhy = oc.Answer, oc.Why
		}
		if len(d.Diagnostic.Classes) > 0 {
			e.Class = d.Diagnostic.Classes[0]
		}
		out = append(out, e)
	}
	return out, nil
}

// Missed is the decision the ledger gives a card that stopped waiting
// unanswered: the page's filter for its missed tray.
const Missed = store.DecisionMissed

// MissedCards lists the cards that stopped waiting unanswered, newest
// first, with how each ended (store.MissedTimeout, MissedLeft,
// MissedStopped) and why: the page's missed tray.
func (b *Backend) MissedCards(ctx context.Context, limit int) ([]store.Missed, error) {
	return b.DB.MissedCards(ctx, limit)
}

func (b *Backend) Settings(ctx context.Context) (web.Settings, error) {
	p := policy.Load(policy.Files{Person: filepath.Join(b.ConfigDir, "policy.toml"), ReadFile: os.ReadFile})
	chained, err := b.DB.Chained(ctx)
	p.SetTeam(team.Current(b.ConfigDir, time.Now(), chained, err))
	return web.Settings{Looked: p.Looked, Policy: p}, nil
}

// notFound maps the store's not-found to the page's.
func notFound(err error) error {
	if err != nil && errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%v: %w", err, web.ErrNotFound)
	}
	return err
}
