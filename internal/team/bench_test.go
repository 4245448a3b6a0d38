package team

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/store"
)

// BenchmarkShip measures the hub's throughput of ledger rows: each
// iteration is one step decided on a node (one ledger row, chained into
// the outbox) and shipped to the hub in batches of 64, reported as rows a
// second with the median and p99 of a batch's trip to PostgreSQL; beside
// it, the node's own ledger for the same rows (node-*: rows a second, and
// the median and p99 of one step's decision and row committed locally).
func BenchmarkShip(b *testing.B) {
	ctx := context.Background()
	h, err := hub.Open(ctx, hubtest.Database(b).Serve)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ada, _ := h.AddPerson(ctx, "ada")
	node, _ := h.AddNode(ctx, "ada-laptop", ada, false, make([]byte, 32))
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetChain(ctx, true)
	// The node's own ledger, for the same rows: each step decided and its
	// chained row committed to the local store, as the gateway does.
	var local []time.Duration
	localStart := time.Now()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := db.Decide(ctx, store.Step{Session: store.NewSession{ID: "s", Mode: store.ModeAuto}, Cwd: "/w", Tool: "Bash", Summary: fmt.Sprint("go test ./p", i)},
			func(*store.State) store.Outcome { return store.Outcome{Decision: store.DecisionAllow, Reason: "auto"} }); err != nil {
			b.Fatal(err)
		}
		local = append(local, time.Since(t0))
	}
	localElapsed := time.Since(localStart)
	b.ResetTimer()
	var trips []time.Duration
	start := time.Now()
	sent := 0
	for sent < b.N {
		t0 := time.Now()
		n, err := shipBatch(ctx, db, h, node, 64)
		if err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			break
		}
		trips = append(trips, time.Since(t0))
		sent += n
	}
	elapsed := time.Since(start)
	b.StopTimer()
	if sent != b.N {
		b.Fatalf("shipped %d rows of %d", sent, b.N)
	}
	b.ReportMetric(float64(sent)/elapsed.Seconds(), "rows/s")
	if len(trips) > 0 {
		slices.Sort(trips)
		b.ReportMetric(float64(trips[len(trips)/2].Microseconds())/1000, "ms-median")
		b.ReportMetric(float64(trips[len(trips)*99/100].Microseconds())/1000, "ms-p99")
	}
	slices.Sort(local)
	b.ReportMetric(float64(b.N)/localElapsed.Seconds(), "node-rows/s")
	b.ReportMetric(float64(local[len(local)/2].Microseconds())/1000, "node-ms-median")
	b.ReportMetric(float64(local[len(local)*99/100].Microseconds())/1000, "node-ms-p99")
}

// shipBatch ships one batch, as one turn of Ship's loop does.
func shipBatch(ctx context.Context, db *store.DB, h *hub.Hub, node int64, n int) (int, error) {
	out, err := db.Outbox(ctx, n)
	if err != nil || len(out) == 0 {
		return 0, err
	}
	rows := make([]hubapi.Row, len(out))
	for i, o := range out {
		rows[i] = hubapi.Row{Seq: o.Seq, Body: o.Body, Prev: o.Prev, Hash: o.Hash}
	}
	if err := h.Append(ctx, node, rows); err != nil {
		return 0, err
	}
	return len(rows), db.Shipped(ctx, out[len(out)-1].Seq)
}

// BenchmarkCardToPage measures a card's time from the node posting it to
// the person's page holding it: the hub's NOTIFY rings a listener, which
// re-reads the open cards.
func BenchmarkCardToPage(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hdb := hubtest.Database(b)
	dsn := hdb.Super
	h, err := hub.Open(ctx, hdb.Serve)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ada, _ := h.AddPerson(ctx, "ada")
	node, _ := h.AddNode(ctx, "ada-laptop", ada, false, make([]byte, 32))
	seen := make(chan []hub.Card, 1024)
	go hub.Listen(ctx, dsn, func(string) {
		cards, err := h.OpenCards(ctx, ada)
		if err == nil {
			seen <- cards
		}
	}, hub.ChannelCards)
	<-seen
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := fmt.Sprint("c", i)
		t0 := time.Now()
		if err := h.PostCard(ctx, node, id, []byte(`{"card":"`+id+`"}`)); err != nil {
			b.Fatal(err)
		}
		for found := false; !found; {
			for _, c := range <-seen {
				found = found || c.ID == id
			}
		}
		lat = append(lat, time.Since(t0))
		h.CloseCard(ctx, id)
		for len(seen) > 0 {
			<-seen
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
}
