package hubserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/store"
)

// row is a ledger row as a node writes and chains it.
type row struct {
	kind, session, summary string
	at                     time.Time
	detail                 string
}

// shipRows chains rows after the node's last (none yet) and ships them
// through the API, as the node's shipper does.
func shipRows(t *testing.T, n joined, rows []row) {
	t.Helper()
	ctx := context.Background()
	seq, prev, err := n.c.Head(ctx, n.reply.Node)
	if err != nil {
		t.Fatal(err)
	}
	var out []hubapi.Row
	for i, r := range rows {
		detail := r.detail
		if detail == "" {
			detail = "{}"
		}
		body, err := json.Marshal(store.Entry{ID: seq + int64(i) + 1, At: r.at, Kind: r.kind, Session: r.session, Summary: r.summary, Detail: json.RawMessage(detail)})
		if err != nil {
			t.Fatal(err)
		}
		if r.kind == "" { // not a ledger row at all
			body = []byte(r.summary)
		}
		h := hubapi.Chain(prev, body)
		out = append(out, hubapi.Row{Seq: seq + int64(i) + 1, Body: body, Prev: prev, Hash: h})
		prev = h
	}
	if err := n.c.Append(ctx, n.reply.Node, out); err != nil {
		t.Fatal(err)
	}
}

// summaries are the summaries of a page's rows, in its order.
func summaries(p hubapi.LogPage) []string {
	var out []string
	for _, r := range p.Rows {
		var e store.Entry
		if json.Unmarshal(r.Body, &e) != nil {
			out = append(out, "?"+string(r.Body))
			continue
		}
		out = append(out, r.NodeName+" "+e.Summary)
	}
	return out
}

// TestLogAcrossNodes: a node reads the ledger of its person across all
// their nodes through the API, searched by words, node, kind, decision,
// class and time, a page at a time; and, whatever it asks, never a row
// of another person. Judged by the rows the node is handed.
func TestLogAcrossNodes(t *testing.T) {
	r := startHub(t)
	ctx := context.Background()
	laptop := r.join(t, "ada", "ada-laptop")
	desktop := r.join(t, "ada", "ada-desktop")
	bob := r.join(t, "bob", "bob-laptop")
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	shipRows(t, laptop, []row{
		{kind: "decision", session: "s1", summary: "allow: git status", at: t0, detail: `{"decision":"allow","diagnostic":{"classes":["read"]}}`},
		{kind: "decision", session: "s1", summary: "ask: curl https://example.com/a", at: t0.Add(time.Hour), detail: `{"decision":"ask","diagnostic":{"classes":["network"]}}`},
		{kind: "card-expired", session: "s1", summary: "missed: curl https://example.com/a", at: t0.Add(2 * time.Hour)},
	})
	shipRows(t, desktop, []row{
		{kind: "decision", session: "s2", summary: "deny: git push --force origin main", at: t0.Add(3 * time.Hour), detail: `{"decision":"deny","diagnostic":{"classes":["force-remote"]}}`},
		{summary: "not json at all"}, // a node may ship any bytes to its own chain
		{kind: "rule-kept", summary: "always: npm test", at: t0.Add(4 * time.Hour)},
	})
	shipRows(t, bob, []row{
		{kind: "decision", session: "s9", summary: "allow: cat bob-secret.txt", at: t0.Add(time.Hour), detail: `{"decision":"allow","diagnostic":{"classes":["read"]}}`},
	})

	log := func(n joined, q hubapi.LogQuery) hubapi.LogPage {
		t.Helper()
		p, err := n.c.Log(ctx, q)
		if err != nil {
			t.Fatalf("log %+v: %v", q, err)
		}
		for _, row := range p.Rows {
			if row.NodeName == "bob-laptop" || strings.Contains(string(row.Body), "bob-secret") {
				t.Fatalf("ada's node was handed bob's row: %s", row.Body)
			}
		}
		return p
	}
	all := log(laptop, hubapi.LogQuery{})
	if got := summaries(all); len(got) != 6 || got[0] != "ada-desktop always: npm test" || got[5] != "ada-laptop allow: git status" {
		t.Fatalf("every row of ada's, newest first: %q", got)
	}
	for _, c := range []struct {
		name string
		q    hubapi.LogQuery
		want []string
	}{
		{"words, in any case", hubapi.LogQuery{Words: []string{"EXAMPLE.com curl"}}, []string{"ada-laptop missed: curl https://example.com/a", "ada-laptop ask: curl https://example.com/a"}},
		{"a node", hubapi.LogQuery{Node: "ada-desktop", Kind: "decision"}, []string{"ada-desktop deny: git push --force origin main"}},
		{"a decision", hubapi.LogQuery{Decision: "deny"}, []string{"ada-desktop deny: git push --force origin main"}},
		{"missed", hubapi.LogQuery{Decision: "missed"}, []string{"ada-laptop missed: curl https://example.com/a"}},
		{"a class", hubapi.LogQuery{Class: "network"}, []string{"ada-laptop ask: curl https://example.com/a"}},
		{"a session", hubapi.LogQuery{Session: "s2"}, []string{"ada-desktop deny: git push --force origin main"}},
		{"a time", hubapi.LogQuery{Since: t0.Add(30 * time.Minute), Until: t0.Add(150 * time.Minute)}, []string{"ada-laptop missed: curl https://example.com/a", "ada-laptop ask: curl https://example.com/a"}},
	} {
		if got := summaries(log(desktop, c.q)); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// A page at a time: the pages together are every row, once each.
	var paged []string
	q := hubapi.LogQuery{Limit: 4}
	for i := 0; i < 5; i++ {
		p := log(laptop, q)
		paged = append(paged, summaries(p)...)
		if p.Next == "" {
			break
		}
		q.Before = p.Next
	}
	if fmt.Sprint(paged) != fmt.Sprint(summaries(all)) {
		t.Errorf("paged: %q, want %q", paged, summaries(all))
	}

	// A search the hub cannot read is refused, not widened.
	for _, q := range []hubapi.LogQuery{{Before: "garbage"}, {Before: "1.2.3.4"}, {Before: "01.2.3"}, {Limit: hub.MaxSearch + 1}, {Limit: -1}} {
		if p, err := laptop.c.Log(ctx, q); !refusedWith(err, http.StatusBadRequest) || len(p.Rows) != 0 {
			t.Errorf("the search %+v: %d rows, %v", q, len(p.Rows), err)
		}
	}

	// Ada's node asking for bob's rows, by his node, his words, his
	// session, a cursor at his row, or a person named in the request,
	// is handed none of them.
	bobs, err := bob.c.Log(ctx, hubapi.LogQuery{})
	if err != nil || len(bobs.Rows) != 1 || !strings.Contains(string(bobs.Rows[0].Body), "bob-secret") {
		t.Fatalf("bob's own rows: %+v %v", bobs, err)
	}
	cursor := hub.Cursor{Received: bobs.Rows[0].Received.Add(time.Second), Node: bob.reply.Node, Seq: 2}
	for _, q := range []hubapi.LogQuery{{Node: "bob-laptop"}, {Words: []string{"bob-secret"}}, {Session: "s9"}, {Before: cursor.String(), Node: "bob-laptop"}} {
		if p := log(laptop, q); len(p.Rows) != 0 {
			t.Errorf("ada's node asking %+v: %q", q, summaries(p))
		}
	}
	for _, body := range []string{
		fmt.Sprintf(`{"person":%d}`, bob.person),
		`{"person":"bob","node":"bob-laptop"}`,
		fmt.Sprintf(`{"node_id":%d}`, bob.reply.Node),
	} {
		req := rawRequest(t, r, "POST", hubapi.PathLog, []byte(body))
		hubapi.Sign(req, laptop.reply.Node, laptop.key, []byte(body), time.Now())
		resp, err := laptop.c.HTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK || strings.Contains(string(got), "bob-secret") || strings.Contains(string(got), "Ym9iLXNlY3JldA") {
			t.Errorf("ada's node naming bob in %s: %d %s", body, resp.StatusCode, got)
		}
	}
	// Bob's node signing as ada's, or a node that left: nothing.
	req := rawRequest(t, r, "POST", hubapi.PathLog, []byte(`{}`))
	hubapi.Sign(req, laptop.reply.Node, bob.key, []byte(`{}`), time.Now())
	if code := send(t, r, req); code != http.StatusUnauthorized {
		t.Errorf("bob's key signing as ada's node: %d", code)
	}
	if err := desktop.c.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	if p, err := desktop.c.Log(ctx, hubapi.LogQuery{}); !refusedWith(err, http.StatusUnauthorized) || len(p.Rows) != 0 {
		t.Errorf("a node that left reads: %d rows, %v", len(p.Rows), err)
	}
	// The rows of a node that left stay the person's.
	if got := summaries(log(laptop, hubapi.LogQuery{Node: "ada-desktop"})); len(got) != 3 {
		t.Errorf("the rows of ada's node that left: %q", got)
	}
}
