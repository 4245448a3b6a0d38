package store

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/sayso-dev/sayso/internal/card"
)

// TestPage: the ledger read a page at a time, newest first, filtered in
// SQL, each page starting below the last; and what became of each ask on
// a page, read after it: the answer or the missed card of its step,
// unless a later ask of the same step took it.
func TestPage(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	dec := func(session, cmd, decision, class string) int64 {
		t.Helper()
		diag, _ := json.Marshal(map[string]any{"classes": []string{class}})
		out, err := db.Decide(ctx, Step{Session: NewSession{ID: session}, Cwd: "/home/p/" + session, Tool: "Bash", Summary: cmd},
			func(*State) Outcome { return Outcome{Decision: decision, Diagnostic: diag} })
		if err != nil {
			t.Fatal(err)
		}
		return out.Entry
	}
	for i := range 25 {
		dec("a", fmt.Sprintf("ls dir%d", i), "allow", "read")
	}
	asked := dec("a", "git push origin main", "ask", "remote-write")
	if err := db.Answer(ctx, Answered{Session: "a", Answer: card.Deny, Step: "git push origin main"}); err != nil {
		t.Fatal(err)
	}
	first := dec("b", "npm publish", "ask", "publish")
	second := dec("b", "npm publish", "ask", "publish") // takes what comes after
	if err := db.RecordCardExpired(ctx, Missed{Session: "b", Step: "npm publish", Cause: MissedTimeout, Why: "nobody answered"}); err != nil {
		t.Fatal(err)
	}
	unanswered := dec("b", "git push --force", "ask", "force-remote")
	dec("b", "rm -rf /", "deny", "destroy")

	page := func(f PageFilter) []Entry {
		t.Helper()
		rows, err := db.Page(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(rows); i++ {
			if rows[i].ID >= rows[i-1].ID {
				t.Fatalf("rows not newest first: %d after %d", rows[i].ID, rows[i-1].ID)
			}
		}
		return rows
	}
	// Pages of 10 decisions of session a, each below the last, then none.
	var seen int
	before := int64(0)
	for {
		rows := page(PageFilter{Session: "a", Kind: KindDecision, Before: before, Limit: 10})
		if len(rows) == 0 {
			break
		}
		for _, r := range rows {
			if r.Session != "a" || r.Kind != KindDecision || (before > 0 && r.ID >= before) {
				t.Errorf("row %+v on the page below %d of session a's decisions", r, before)
			}
		}
		seen += len(rows)
		before = rows[len(rows)-1].ID
	}
	if seen != 26 {
		t.Errorf("pages held %d of session a's 26 decisions", seen)
	}
	for _, c := range []struct {
		f    PageFilter
		want int
	}{
		{PageFilter{Decision: "ask"}, 4},
		{PageFilter{Decision: "deny"}, 1},
		{PageFilter{Decision: DecisionMissed}, 1},
		{PageFilter{Class: "publish"}, 2},
		{PageFilter{Words: []string{"GIT", "push"}}, 3}, // two asks and the answer
		{PageFilter{Words: []string{"push", "force"}}, 1},
		{PageFilter{Words: []string{"nowhere"}}, 0},
	} {
		if rows := page(c.f); len(rows) != c.want {
			t.Errorf("Page(%+v) = %d rows, want %d", c.f, len(rows), c.want)
		}
	}

	rows := page(PageFilter{Decision: "ask"})
	outcomes, err := db.Outcomes(ctx, rows)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]string{asked: card.Deny.String(), first: "", second: DecisionMissed, unanswered: ""} {
		if got := outcomes[id].Answer; got != want {
			t.Errorf("the ask of row %d came to %q, want %q", id, got, want)
		}
	}
	if o := outcomes[second]; o.Why != "nobody answered" {
		t.Errorf("the missed ask says %q", o.Why)
	}
}
