package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestKeptStatements: with KeepStatements, the statements a decision runs
// are prepared once, after the first transaction that runs them, and the
// decisions that use them record what the others do — from goroutines at
// once as from one. Without it, a process keeps nothing.
func TestKeptStatements(t *testing.T) {
	ctx := context.Background()
	plain := openTest(t)
	if _, err := plain.Decide(ctx, step("s1", "/w"), allowAll); err != nil {
		t.Fatal(err)
	}
	if n := keptCount(plain); n != 0 {
		t.Errorf("a database not told to keep statements keeps %d", n)
	}

	db := openTest(t)
	db.KeepStatements()
	if _, err := db.Decide(ctx, step("s1", "/w"), allowAll); err != nil {
		t.Fatal(err)
	}
	first := keptCount(db)
	if first == 0 {
		t.Fatal("no statement kept after a decision")
	}
	const workers, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				s := step(fmt.Sprintf("s%d", w), "/w")
				s.Summary = fmt.Sprintf("go test ./... # %d", i)
				out, err := db.Decide(ctx, s, allowAll)
				if err == nil && (out.Decision != DecisionAllow || out.Entry == 0) {
					err = fmt.Errorf("decided %+v", out)
				}
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := keptCount(db); n != first {
		t.Errorf("kept %d statements after the first decision and %d after the same decisions again: a statement is prepared again", first, n)
	}
	db.kept.mu.Lock()
	wanted := len(db.kept.want)
	db.kept.mu.Unlock()
	if wanted != 0 {
		t.Errorf("%d statements still wait to be prepared", wanted)
	}
	rows, err := db.Log(ctx, LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	decisions := 0
	for _, e := range rows {
		if e.Kind == KindDecision {
			decisions++
		}
	}
	if want := 1 + workers*each; decisions != want {
		t.Errorf("the ledger holds %d decisions, want %d", decisions, want)
	}
	if err := db.Close(); err != nil {
		t.Errorf("close with kept statements: %v", err)
	}
}

func allowAll(*State) Outcome { return Outcome{Decision: DecisionAllow, Reason: "test"} }

func keptCount(db *DB) int {
	db.kept.mu.Lock()
	defer db.kept.mu.Unlock()
	return len(db.kept.stmts)
}

// BenchmarkDecideKept times one decision in the store's transaction — the
// session's state read, the ledger row written — with the statements
// prepared each time (a hook process) and kept (sayso serve).
//
//	go test -run '^$' -bench DecideKept -count 6 ./internal/store
func BenchmarkDecideKept(b *testing.B) {
	for _, keep := range []bool{false, true} {
		b.Run(fmt.Sprintf("kept=%v", keep), func(b *testing.B) {
			db := openTest(b)
			if keep {
				db.KeepStatements()
			}
			ctx := context.Background()
			s := step("s1", "/w")
			for b.Loop() {
				if _, err := db.Decide(ctx, s, allowAll); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
