package hubserver_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/store"
)

// benchHub is the hub's server over TLS, as in the tests, and one node
// joined through its API.
func benchHub(b *testing.B) (*running, joined) {
	r := startHub(b)
	return r, r.join(b, "ada", "ada-laptop")
}

// BenchmarkShipHTTP measures the hub's throughput of ledger rows through
// its API: each iteration is one step decided on a node, shipped in
// batches of 64 over TLS, signed, to the chain trigger, then marked on
// the node; reported as rows a second with the median and p99 of a
// batch's trip.
func BenchmarkShipHTTP(b *testing.B) {
	ctx := context.Background()
	_, n := benchHub(b)
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetChain(ctx, true)
	for i := 0; i < b.N; i++ {
		if _, err := db.Decide(ctx, store.Step{Session: store.NewSession{ID: "s", Mode: store.ModeAuto}, Cwd: "/w", Tool: "Bash", Summary: fmt.Sprint("go test ./p", i)},
			func(*store.State) store.Outcome { return store.Outcome{Decision: store.DecisionAllow, Reason: "auto"} }); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	var trips []time.Duration
	start := time.Now()
	sent := 0
	for sent < b.N {
		t0 := time.Now()
		out, err := db.Outbox(ctx, 64)
		if err != nil {
			b.Fatal(err)
		}
		if len(out) == 0 {
			break
		}
		rows := make([]hub.Row, len(out))
		for i, o := range out {
			rows[i] = hub.Row{Seq: o.Seq, Body: o.Body, Prev: o.Prev, Hash: o.Hash}
		}
		if err := n.c.Append(ctx, n.reply.Node, rows); err != nil {
			b.Fatal(err)
		}
		if err := db.Shipped(ctx, out[len(out)-1].Seq); err != nil {
			b.Fatal(err)
		}
		trips = append(trips, time.Since(t0))
		sent += len(out)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	if sent != b.N {
		b.Fatalf("shipped %d rows of %d", sent, b.N)
	}
	b.ReportMetric(float64(sent)/elapsed.Seconds(), "rows/s")
	report(b, trips)
}

// BenchmarkCardHTTP measures a card's time from the node posting it
// through the API to the person's page listener holding it.
func BenchmarkCardHTTP(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, n := benchHub(b)
	seen := make(chan []hub.Card, 1024)
	go hub.Listen(ctx, r.dsn, func(string) {
		cards, err := r.h.OpenCards(ctx, n.person)
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
		if err := n.c.PostCard(ctx, id, []byte(`{"card":"`+id+`"}`)); err != nil {
			b.Fatal(err)
		}
		for found := false; !found; {
			for _, c := range <-seen {
				found = found || c.ID == id
			}
		}
		lat = append(lat, time.Since(t0))
		b.StopTimer()
		n.c.CloseCard(ctx, id)
		for len(seen) > 0 {
			<-seen
		}
		b.StartTimer()
	}
	b.StopTimer()
	report(b, lat)
}

func report(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(d[len(d)*99/100].Microseconds())/1000, "ms-p99")
}
