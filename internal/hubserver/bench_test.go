package hubserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/hubserver"
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
		rows := make([]hubapi.Row, len(out))
		for i, o := range out {
			rows[i] = hubapi.Row{Seq: o.Seq, Body: o.Body, Prev: o.Prev, Hash: o.Hash}
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

// pageOf logs a browser in to person's page at the running hub, at
// localhost, and returns a request maker for the page's script.
func pageOf(b *testing.B, r *running, person string) func(target string) (*http.Response, error) {
	ctx := context.Background()
	token, err := r.h.MakeLogin(ctx, person, time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	base := strings.Replace(r.base, "127.0.0.1", "localhost", 1)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: hubapi.PinnedTLS(r.pin)},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(base + "/login?token=" + url.QueryEscape(token))
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	tab := strings.TrimPrefix(resp.Header.Get("Location"), "/#tab=")
	cookie := resp.Cookies()[0]
	return func(target string) (*http.Response, error) {
		req, _ := http.NewRequest("GET", base+target, nil)
		req.AddCookie(cookie)
		req.Header.Set(hubserver.PageTabHeader, tab)
		return c.Do(req)
	}
}

// BenchmarkPageRing measures a card's way from the node posting it
// through the API for nodes to the hub's page: the page's script waiting
// on the hub's ring (GET /page/cards?wait), rung by the hub's LISTEN
// connection, reads the card. Median and p99 of the trip.
func BenchmarkPageRing(b *testing.B) {
	ctx := context.Background()
	r, n := benchHub(b)
	page := pageOf(b, r, "ada")
	type cards struct {
		Cards []struct{ ID string } `json:"cards"`
		Gen   string                `json:"gen"`
	}
	read := func(gen string) cards {
		resp, err := page("/page/cards?wait=" + gen)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var c cards
		if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
			b.Fatal(err)
		}
		return c
	}
	gen := read("").Gen
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := fmt.Sprint("c", i)
		got := make(chan time.Duration, 1)
		var t0 time.Time
		waiting := make(chan struct{})
		go func() {
			g := gen
			close(waiting)
			for {
				c := read(g)
				g = c.Gen
				for _, card := range c.Cards {
					if card.ID == id {
						gen = g
						got <- time.Since(t0)
						return
					}
				}
			}
		}()
		<-waiting
		time.Sleep(time.Millisecond) // the request waits on the ring
		t0 = time.Now()
		if err := n.c.PostCard(ctx, id, []byte(`{"card":"`+id+`"}`)); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, <-got)
		b.StopTimer()
		n.c.CloseCard(ctx, id)
		gen = read(gen).Gen // the close rings too
		b.StartTimer()
	}
	b.StopTimer()
	report(b, lat)
}

// BenchmarkLogSearch measures a search of the person's ledger through
// the API for nodes (TLS, signed request) over 20,000 rows of two of
// their nodes and 10,000 of another person's: the newest hundred rows
// holding a word one row in ten holds. Median and p99 of a search.
func BenchmarkLogSearch(b *testing.B) {
	ctx := context.Background()
	r, laptop := benchHub(b)
	desktop := r.join(b, "ada", "ada-desktop")
	bob := r.join(b, "bob", "bob-laptop")
	for _, n := range []joined{laptop, desktop, bob} {
		prev := hubapi.Genesis
		for k := 0; k < 10; k++ {
			rows := make([]hubapi.Row, 1000)
			for i := range rows {
				seq := int64(k*1000 + i + 1)
				word := "git status"
				switch {
				case seq == 5000:
					word = "terraform destroy prod"
				case seq%10 == 0:
					word = "curl https://example.com/x"
				}
				body, _ := json.Marshal(store.Entry{ID: seq, At: time.Now(), Kind: store.KindDecision, Session: "s1",
					Summary: fmt.Sprintf("allow %s %d", word, seq), Detail: json.RawMessage(`{"decision":"allow"}`)})
				h := hubapi.Chain(prev, body)
				rows[i] = hubapi.Row{Seq: seq, Body: body, Prev: prev, Hash: h}
				prev = h
			}
			if err := n.c.Append(ctx, n.reply.Node, rows); err != nil {
				b.Fatal(err)
			}
		}
	}
	// A word one row in ten holds: the newest 100 of its 2,000 rows of
	// ada's; and one row in 10,000: its 2 rows of ada's, from the whole
	// of her 20,000.
	for _, c := range []struct {
		name, word string
		rows       int
	}{{"common", "example.com", 100}, {"rare", "terraform destroy", 2}} {
		b.Run(c.name, func(b *testing.B) {
			var lat []time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				p, err := laptop.c.Log(ctx, hubapi.LogQuery{Words: []string{c.word}})
				if err != nil || len(p.Rows) != c.rows {
					b.Fatalf("%d rows, %v", len(p.Rows), err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			report(b, lat)
		})
	}
}
