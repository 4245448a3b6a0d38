package gateway_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestLoadCards keeps 200 hooks waiting on cards at once and answers them
// in one burst over HTTP, as the page would: no card is lost and each hook
// gets its own answer. It logs the median time from the press to the
// hook's return; it asserts no timing.
//
//	go test -run TestLoadCards -v ./internal/gateway
func TestLoadCards(t *testing.T) {
	const n = 200
	f := startGateway(t, 60*time.Second)
	type result struct {
		decision string
		at       time.Time
	}
	results := make([]result, n)
	command := func(i int) string { return fmt.Sprintf("git push origin feature/load-%03d", i) }
	var hooks sync.WaitGroup
	for i := range n {
		hooks.Go(func() {
			// A session each: denials would trip one session's breaker.
			d := f.hook(fmt.Sprintf("s-load-%03d", i), command(i))
			results[i] = result{d, time.Now()}
		})
	}

	// Every card shows, each once.
	byStep := map[string]string{}
	testenv.Wait(t, fmt.Sprintf("%d cards", n), func() (bool, string) {
		for _, c := range f.g.Cards.List() {
			byStep[c.Step] = c.ID
		}
		return len(byStep) >= n, fmt.Sprintf("%d steps seen", len(byStep))
	})
	if cs := f.g.Cards.List(); len(cs) != n || len(byStep) != n {
		t.Fatalf("%d cards wait (%d steps seen), want %d", len(cs), len(byStep), n)
	}

	// The burst: even steps allowed once, odd ones denied. A push is a
	// ceiling step: each allow is pressed first, and the burst is of the
	// presses that confirm it, the ones that answer.
	person, csrf := f.login()
	pressed := make([]time.Time, n)
	var presses sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		id, ok := byStep[command(i)]
		if !ok {
			t.Fatalf("no card for %s", command(i))
		}
		answer := "allow-once"
		if i%2 == 1 {
			answer = "deny"
		}
		form := answerForm(csrf, answer)
		if answer != "deny" {
			if code, body := f.press(person, id, form); code != http.StatusPreconditionRequired {
				t.Fatalf("the first press of allow-once on %s: status %d %s", command(i), code, body)
			}
		}
		presses.Go(func() {
			<-start
			pressed[i] = time.Now()
			if code, _ := f.post(person, "/cards/"+id+"/answer", form, nil); code != http.StatusSeeOther {
				t.Errorf("answer %s to %s: status %d", answer, command(i), code)
			}
		})
	}
	time.Sleep(card.ConfirmAfter)
	burst := time.Now()
	close(start)
	presses.Wait()
	hooks.Wait()
	all := time.Since(burst)

	waits := make([]time.Duration, 0, n)
	for i, r := range results {
		want := "allow"
		if i%2 == 1 {
			want = "deny"
		}
		if r.decision != want {
			t.Errorf("hook %d (%s) got %q, want %q", i, command(i), r.decision, want)
		}
		waits = append(waits, r.at.Sub(pressed[i]))
	}
	if cs := f.g.Cards.List(); len(cs) != 0 {
		t.Errorf("%d cards still wait", len(cs))
	}
	rows, err := f.db.Log(t.Context(), store.LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	answers := 0
	for _, r := range rows {
		if r.Kind == store.KindAnswer {
			answers++
		}
	}
	if answers != n {
		t.Errorf("the ledger holds %d answers, want %d", answers, n)
	}
	if rs := f.rules(); len(rs) != 0 {
		t.Errorf("rules kept: %q", rs)
	}
	slices.Sort(waits)

	// For comparison, presses one at a time, with no burst to queue behind.
	var alone []time.Duration
	for i := range 9 {
		step := fmt.Sprintf("git push origin feature/alone-%d", i)
		p := f.block(fmt.Sprintf("s-alone-%d", i), step)
		// A push is a ceiling step: its allow is confirmed, and the
		// confirming press is the one that answers.
		form := answerForm(csrf, "allow-once")
		f.press(person, p.card.ID, form)
		time.Sleep(card.ConfirmAfter)
		at := time.Now()
		if code, _ := f.post(person, "/cards/"+p.card.ID+"/answer", form, nil); code != http.StatusSeeOther {
			t.Fatalf("answer %s: status %d", step, code)
		}
		if got := p.result(t); got != "allow" {
			t.Errorf("%s: %q, want allow", step, got)
		}
		alone = append(alone, time.Since(at))
	}
	slices.Sort(alone)
	t.Logf("one press at a time: press to the hook's return, median of %d: %v", len(alone), alone[len(alone)/2].Round(time.Microsecond))
	t.Logf("%d cards answered in a burst over HTTP in %v; press to the hook's return: median %v, p90 %v, max %v",
		n, all.Round(time.Millisecond), waits[n/2].Round(time.Microsecond), waits[n*9/10].Round(time.Microsecond), waits[n-1].Round(time.Microsecond))
}
