package hubserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hubapi"
)

// The ledger across a person's machines, read by the person: at the
// hub's page, and from any of their nodes through the API for nodes. A
// search names no person. The person is the page session's or the
// signing node's, and the database's row-level security reads no row of
// another's, whatever the search says.

// pageLedgerLimit is how many rows one page of the ledger view shows.
const pageLedgerLimit = 100

// search is the hub's search for q, refused when it cannot be read.
func search(q hubapi.LogQuery) (hub.Search, error) {
	s := hub.Search{NodeName: q.Node, Session: q.Session, Kind: q.Kind, Decision: q.Decision, Class: q.Class,
		Since: q.Since, Until: q.Until, Received: q.Received, Limit: q.Limit}
	for _, w := range q.Words {
		s.Words = append(s.Words, strings.Fields(w)...)
	}
	if len(s.Words) > 20 {
		return s, refuse(http.StatusBadRequest, "a search holds at most 20 words")
	}
	if q.Before != "" {
		c, err := hub.ParseCursor(q.Before)
		if err != nil {
			return s, refuse(http.StatusBadRequest, "%v", err)
		}
		s.Before = &c
	}
	if s.Limit < 0 || s.Limit > hub.MaxSearch {
		return s, refuse(http.StatusBadRequest, "a page holds 1 to %d rows", hub.MaxSearch)
	}
	if s.Limit == 0 {
		s.Limit = pageLedgerLimit
	}
	return s, nil
}

// logPage runs s for person and makes the page of rows it found.
func (s *Server) logPage(ctx context.Context, person int64, q hub.Search) (hubapi.LogPage, error) {
	es, err := s.Hub.Search(ctx, person, q)
	if err != nil {
		return hubapi.LogPage{}, err
	}
	p := hubapi.LogPage{Rows: make([]hubapi.LogRow, len(es))}
	for i, e := range es {
		p.Rows[i] = hubapi.LogRow{Node: e.Node, NodeName: e.NodeName, Seq: e.Row.Seq, Body: e.Row.Body, Received: e.Received}
	}
	if len(es) == q.Limit {
		p.Next = es[len(es)-1].Cursor().String()
	}
	return p, nil
}

// log answers a node with rows of its own person's ledger, across their
// nodes: the person is the signing node's, never one the request names.
func (s *Server) log(ctx context.Context, n hub.Node, body []byte, w http.ResponseWriter, _ *http.Request) error {
	var q hubapi.LogQuery
	if err := decode(body, &q); err != nil {
		return err
	}
	hs, err := search(q)
	if err != nil {
		return err
	}
	p, err := s.logPage(ctx, n.Person, hs)
	if err != nil {
		return err
	}
	writeJSON(w, p)
	return nil
}

// pageRow is a row as the page's script shows it: the node's row, as
// JSON when it is (it is, from a sayso node), beside the node's name.
type pageRow struct {
	Node     int64           `json:"node"`
	NodeName string          `json:"node_name"`
	Seq      int64           `json:"seq"`
	Received time.Time       `json:"received"`
	Entry    json.RawMessage `json:"entry"`
}

// pageLedger is the ledger view's search: the session's person's rows of
// every node of theirs, newest first, a page at a time.
func (s *Server) pageLedger(w http.ResponseWriter, r *http.Request) {
	p, ok := s.person(w, r)
	if !ok {
		return
	}
	v := r.URL.Query()
	q := hubapi.LogQuery{Node: v.Get("node"), Session: v.Get("session"), Kind: v.Get("kind"), Decision: v.Get("decision"),
		Class: v.Get("class"), Before: v.Get("before"), Limit: pageLedgerLimit}
	if t := v.Get("text"); t != "" {
		q.Words = []string{t}
	}
	for _, f := range []struct {
		name string
		to   *time.Time
	}{{"since", &q.Since}, {"until", &q.Until}} {
		if t := v.Get(f.name); t != "" {
			at, err := time.Parse(time.RFC3339, t)
			if err != nil {
				http.Error(w, fmt.Sprintf("sayso hub: %s: %q is not a time", f.name, t), http.StatusBadRequest)
				return
			}
			*f.to = at
		}
	}
	hs, err := search(q)
	if err != nil {
		reply(w, r, err)
		return
	}
	page, err := s.logPage(r.Context(), p.Person, hs)
	if err != nil {
		reply(w, r, err)
		return
	}
	nodes, err := s.Hub.Nodes(r.Context(), p.Person)
	if err != nil {
		reply(w, r, err)
		return
	}
	rows := make([]pageRow, len(page.Rows))
	for i, e := range page.Rows {
		rows[i] = pageRow{Node: e.Node, NodeName: e.NodeName, Seq: e.Seq, Received: e.Received}
		if json.Valid(e.Body) {
			rows[i].Entry = e.Body
		} else {
			rows[i].Entry = json.RawMessage("null")
		}
	}
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Name
	}
	writeJSON(w, map[string]any{"person": p.Name, "nodes": names, "rows": rows, "next": page.Next})
}
