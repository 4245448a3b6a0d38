package team

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hub/hubtest"
	"github.com/sayso-dev/sayso/internal/hub/pgtest"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/store"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

type node struct {
	id   int64
	path string // the node's SQLite store
}

// twoNodes opens a hub with two people, one node each, both in the team.
func twoNodes(t *testing.T) (*hub.Hub, [2]int64, [2]node) {
	t.Helper()
	ctx := context.Background()
	h, err := hub.Open(ctx, hubtest.Database(t).Serve)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	var people [2]int64
	var nodes [2]node
	for i, name := range []string{"ada", "bob"} {
		if people[i], err = h.AddPerson(ctx, name); err != nil {
			t.Fatal(err)
		}
		pub, _, _ := ed25519.GenerateKey(nil)
		if nodes[i].id, err = h.AddNode(ctx, name+"-laptop", people[i], false, pub); err != nil {
			t.Fatal(err)
		}
		nodes[i].path = filepath.Join(t.TempDir(), store.FileName)
		db, err := store.Open(ctx, nodes[i].path)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetChain(ctx, true); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	return h, people, nodes
}

// hookStep decides one step as a hook process does: its own connection to
// the node's store, one transaction, one ledger row.
func hookStep(ctx context.Context, path string, n int) error {
	db, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Decide(ctx, store.Step{
		Session: store.NewSession{ID: fmt.Sprintf("s%d", n%5), Mode: store.ModeAuto},
		Cwd:     "/w", Tool: "Bash", Summary: fmt.Sprintf("go test ./pkg%d", n),
	}, func(*store.State) store.Outcome {
		return store.Outcome{Decision: store.DecisionAllow, Reason: "auto allows local work"}
	})
	return err
}

// TestFiftyHooksNoLostRow: 50 hooks decide at once across two nodes while
// each node's shipper ships; the hub ends up with every ledger row of
// each, chained, each person reading only their own.
func TestFiftyHooksNoLostRow(t *testing.T) {
	h, people, nodes := twoNodes(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stop := make(chan struct{})
	var shippers sync.WaitGroup
	shipErr := make(chan error, 2)
	for _, n := range nodes {
		shippers.Add(1)
		go func() {
			defer shippers.Done()
			db, err := store.Open(ctx, n.path)
			if err != nil {
				shipErr <- err
				return
			}
			defer db.Close()
			for {
				if _, err := Ship(ctx, db, h, n.id, 7); err != nil {
					shipErr <- err
					return
				}
				select {
				case <-stop:
					_, err := Ship(ctx, db, h, n.id, 7)
					if err != nil {
						shipErr <- err
					}
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
	}
	var hooks sync.WaitGroup
	hookErr := make(chan error, 50)
	for i := 0; i < 50; i++ {
		hooks.Add(1)
		go func() {
			defer hooks.Done()
			if err := hookStep(ctx, nodes[i%2].path, i); err != nil {
				hookErr <- err
			}
		}()
	}
	hooks.Wait()
	close(stop)
	shippers.Wait()
	close(hookErr)
	close(shipErr)
	for err := range hookErr {
		t.Fatalf("hook: %v", err)
	}
	for err := range shipErr {
		t.Fatalf("shipper: %v", err)
	}
	for i, n := range nodes {
		db, err := store.Open(ctx, n.path)
		if err != nil {
			t.Fatal(err)
		}
		local, err := db.Log(ctx, store.LogFilter{})
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		held, err := h.Ledger(ctx, people[i], 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(local) < 25 || len(held) != len(local) {
			t.Fatalf("node %d: %d ledger rows on the node, %d at the hub; want every one of at least 25", i, len(local), len(held))
		}
		ids := map[int64]bool{}
		byseq := map[int64]hubapi.Row{}
		for _, e := range held {
			if e.Node != n.id {
				t.Fatalf("person %d reads a row of node %d", people[i], e.Node)
			}
			var le store.Entry
			if err := json.Unmarshal(e.Row.Body, &le); err != nil {
				t.Fatal(err)
			}
			ids[le.ID] = true
			byseq[e.Row.Seq] = e.Row
		}
		for _, e := range local {
			if !ids[e.ID] {
				t.Errorf("node %d: ledger row %d (%s) never reached the hub", i, e.ID, e.Summary)
			}
		}
		chain := make([]hubapi.Row, 0, len(byseq))
		for s := int64(1); s <= int64(len(byseq)); s++ {
			chain = append(chain, byseq[s])
		}
		if err := hubapi.Verify(0, hubapi.Genesis, chain); err != nil {
			t.Errorf("node %d: the hub's rows do not chain: %v", i, err)
		}
	}
}

// TestShipResumes: rows the hub took before the node could mark them (a
// crash between the two) are not sent twice; a node whose chain does not
// continue the hub's ships nothing.
func TestShipResumes(t *testing.T) {
	h, _, nodes := twoNodes(t)
	ctx := context.Background()
	db, err := store.Open(ctx, nodes[0].path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := 0; i < 3; i++ {
		if err := db.SetNote(ctx, fmt.Sprint("note ", i)); err != nil {
			t.Fatal(err)
		}
	}
	out, _ := db.Outbox(ctx, 10)
	// The hub took the first two; the node never marked them.
	var first []hubapi.Row
	for _, o := range out[:2] {
		first = append(first, hubapi.Row{Seq: o.Seq, Body: o.Body, Prev: o.Prev, Hash: o.Hash})
	}
	if err := h.Append(ctx, nodes[0].id, first); err != nil {
		t.Fatal(err)
	}
	n, err := Ship(ctx, db, h, nodes[0].id, 10)
	if err != nil || n != 1 {
		t.Fatalf("Ship = %d, %v; want the 1 row the hub lacked", n, err)
	}
	// Node 1's rows shipped as node 0's do not continue node 0's chain.
	other, err := store.Open(ctx, nodes[1].path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.SetNote(ctx, "elsewhere"); err != nil {
		t.Fatal(err)
	}
	if n, err := Ship(ctx, other, h, nodes[0].id, 10); err == nil || n != 0 {
		t.Fatalf("a foreign chain: Ship = %d, %v; want nothing and an error", n, err)
	}
}

// offline is a hub the node cannot reach.
type offline struct{}

func (offline) Head(context.Context, int64) (int64, []byte, error) {
	return 0, nil, errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
}
func (offline) Append(context.Context, int64, []hubapi.Row) error {
	return errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
}

// TestOfflineAndBack: with the hub out of reach the node's hooks keep
// deciding and their rows wait in the outbox; back online, every row
// reaches the hub, in its chain.
func TestOfflineAndBack(t *testing.T) {
	h, people, nodes := twoNodes(t)
	ctx := context.Background()
	for i := 0; i < 10; i++ {
		if err := hookStep(ctx, nodes[0].path, i); err != nil {
			t.Fatalf("a hook while the hub is unreachable: %v", err)
		}
	}
	db, err := store.Open(ctx, nodes[0].path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, err := Ship(ctx, db, offline{}, nodes[0].id, 4); err == nil || n != 0 {
		t.Fatalf("shipping to an unreachable hub: %d, %v", n, err)
	}
	if out, _ := db.Outbox(ctx, 100); len(out) != 10 {
		t.Fatalf("after a failed ship the outbox holds %d rows, want all 10", len(out))
	}
	for i := 10; i < 15; i++ {
		if err := hookStep(ctx, nodes[0].path, i); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := Ship(ctx, db, h, nodes[0].id, 4); err != nil || n != 15 {
		t.Fatalf("back online: shipped %d, %v; want 15", n, err)
	}
	held, err := h.Ledger(ctx, people[0], 100)
	if err != nil || len(held) != 15 {
		t.Fatalf("the hub holds %d rows, %v; want 15", len(held), err)
	}
}
