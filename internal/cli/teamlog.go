package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
)

// teamQuery is what 'sayso log --team' asks the hub for.
type teamQuery struct {
	node, text, kind, decision, class, session, since, until string
	limit                                                    int
}

// teamLogTimeout bounds each page the hub is asked for.
const teamLogTimeout = 30 * time.Second

// teamFollowEvery is how often 'sayso log --team --follow' asks the hub
// for new rows, and teamFollowMargin how far back each ask reaches: a
// batch of another machine's that commits late carries the time its
// transaction began, before rows already printed.
const (
	teamFollowEvery  = time.Second
	teamFollowMargin = 10 * time.Second
)

// runTeamLog prints the ledger of this node's person across their nodes,
// as the hub holds it, oldest first: the newest limit rows, or all; with
// follow, then each row the hub takes after, until interrupted.
func runTeamLog(env *Env, tq teamQuery, asJSON, follow bool) error {
	if tq.limit < 0 {
		return usagef("log: --limit %d is negative", tq.limit)
	}
	config, err := paths.ConfigDir()
	if err != nil {
		return err
	}
	st, joined, err := team.ReadState(config)
	if err != nil {
		return err
	}
	if !joined || !st.Registered() {
		return errors.New("log --team: this machine joined no hub (sayso team join URL --token …)")
	}
	key, err := team.ReadNodeKey(config)
	if err != nil {
		return err
	}
	now := time.Now()
	q := hubapi.LogQuery{Node: tq.node, Session: tq.session, Kind: tq.kind, Decision: tq.decision, Class: tq.class}
	if tq.text != "" {
		q.Words = []string{tq.text}
	}
	if tq.since != "" {
		if q.Since, err = parseSince(tq.since, now); err != nil {
			return usagef("log: --since: %v", err)
		}
	}
	if tq.until != "" {
		if q.Until, err = parseSince(tq.until, now); err != nil {
			return usagef("log: --until: %v", err)
		}
	}
	c := hubapi.NewClient(st.Hub, st.HubPin, st.Node, key)
	stop := env.context()
	// The newest row the hub holds before anything is printed: following
	// starts there even when the search shows none of the rows before.
	newest, err := teamLogRows(stop, c, hubapi.LogQuery{}, 1)
	if err != nil {
		return err
	}
	rows, err := teamLogRows(stop, c, q, tq.limit)
	if err != nil {
		return err
	}
	if err := printTeamLog(env.Stdout, rows, asJSON); err != nil || !follow {
		return err
	}
	// Following: the rows taken since the newest seen, less the margin;
	// each printed once. Those the hub held before following began are
	// seen already, printed or not.
	from := time.Time{}
	if len(newest) > 0 {
		from = newest[0].Received
	}
	seen := map[[2]int64]time.Time{}
	q.Since, q.Until = time.Time{}, time.Time{}
	tick := time.NewTicker(teamFollowEvery)
	defer tick.Stop()
	for first := true; ; first = false {
		if !first {
			select {
			case <-stop.Done():
				return nil
			case <-tick.C:
			}
		}
		q.Received = from.Add(-teamFollowMargin)
		got, err := teamLogRows(stop, c, q, 0)
		if err != nil {
			if stop.Err() != nil {
				return nil
			}
			return err
		}
		var fresh []hubapi.LogRow
		for _, r := range got {
			k := [2]int64{r.Node, r.Seq}
			if _, ok := seen[k]; ok {
				continue
			}
			seen[k] = r.Received
			if !first || r.Received.After(from) {
				fresh = append(fresh, r)
			}
			if r.Received.After(from) {
				from = r.Received
			}
		}
		if err := printTeamLog(env.Stdout, fresh, asJSON); err != nil {
			return err
		}
		for k, at := range seen {
			if at.Before(from.Add(-2 * teamFollowMargin)) {
				delete(seen, k)
			}
		}
	}
}

// teamLogRows asks the hub for the rows of q, a page at a time, oldest
// first: the newest limit of them, or all.
func teamLogRows(stop context.Context, c *hubapi.Client, q hubapi.LogQuery, limit int) ([]hubapi.LogRow, error) {
	var rows []hubapi.LogRow
	for {
		q.Limit = 1000
		if limit > 0 {
			q.Limit = min(q.Limit, limit-len(rows))
		}
		ctx, cancel := context.WithTimeout(stop, teamLogTimeout)
		p, err := c.Log(ctx, q)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("log --team: %w", err)
		}
		rows = append(rows, p.Rows...)
		if p.Next == "" || len(p.Rows) == 0 || limit > 0 && len(rows) >= limit {
			break
		}
		q.Before = p.Next
	}
	slices.Reverse(rows)
	return rows, nil
}

// teamRow is a row of 'sayso log --team --json': the machine, its number
// in that machine's chain, when the hub took it, and the row as the
// machine wrote it.
type teamRow struct {
	Node     string          `json:"node"`
	Seq      int64           `json:"seq"`
	Received time.Time       `json:"received"`
	Entry    json.RawMessage `json:"entry"`
}

// printTeamLog prints the hub's rows as printLog prints this machine's,
// each named by its machine and its number there. A row that is not a
// ledger row (a node can ship any bytes to its own chain) shows as such.
func printTeamLog(w io.Writer, rows []hubapi.LogRow, asJSON bool) error {
	for _, r := range rows {
		var e store.Entry
		ok := json.Unmarshal(r.Body, &e) == nil
		if asJSON {
			raw := json.RawMessage("null")
			if ok {
				raw = r.Body
			}
			if err := printJSONLine(w, teamRow{Node: r.NodeName, Seq: r.Seq, Received: r.Received, Entry: raw}); err != nil {
				return err
			}
			continue
		}
		if !ok {
			e = store.Entry{At: r.Received, Kind: "unreadable", Summary: "(a row that is not a ledger row)"}
		}
		session := ""
		if e.Session != "" {
			session = " [" + e.Session + "]"
		}
		if _, err := fmt.Fprintf(w, "%s:%d  %s  %-16s%s %s\n", r.NodeName, e.ID, e.At.Local().Format("2006-01-02 15:04:05"), e.Kind, session, e.Summary); err != nil {
			return err
		}
	}
	return nil
}
