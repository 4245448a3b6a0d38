// Command devserve serves the person's page over an in-memory backend
// with a few sessions and cards, to try the page by hand:
//
//	go run ./internal/web/devserve -addr 127.0.0.1:7345
//
// It prints a one-time login link; -card adds a new card that often.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/web"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7345", "loopback address to serve on")
	every := flag.Duration("card", 0, "add a card this often (0: never)")
	flag.Parse()
	mem := web.NewMemory(nil)
	mem.AddSession(web.Session{ID: "s1", Agent: client.Clients[0].Agent, Cwd: "/home/you/proj", Mode: policy.ModeAuto, Turns: 3, Tasks: []web.Task{{ID: "s1-t1", Agent: client.Clients[0].Agent, Mode: policy.ModeAuto}}})
	mem.AddSession(web.Session{ID: "s2", Agent: client.Clients[1].Agent, Cwd: "/home/you/infra", Mode: policy.ModeAsk, Held: true, HeldWhy: "the circuit breaker tripped: 3 cards declined within 10 min"})
	// step posts a card as the gateway would: decided by the policy, with
	// its diagnostic and its offer.
	step := func(cmd string) {
		rc := risk.Context{Root: "/home/you/proj", Cwd: "/home/you/proj", Home: "/home/you"}
		_, diag := policy.Evaluate(policy.Request{Command: cmd, Mode: policy.ModeAuto, Context: rc, Wall: policy.Wall{On: true}})
		c := card.Card{Session: "s1", Agent: client.Clients[0].Agent, Tool: "Bash", Step: cmd, Cwd: "/home/you/proj", Mode: policy.ModeAuto,
			Diagnostic: &diag, Words: "ship the login work", Described: "Run " + cmd, Expires: time.Now().Add(2 * time.Minute)}
		for _, cl := range diag.Assessment.Classes.Classes() {
			c.Classes = append(c.Classes, cl.String())
		}
		c.Offer, c.NoOffer = rule.Offer(rule.Step{Tool: "Bash", Command: cmd, Assessment: diag.Assessment, Cwd: "/home/you/proj"}, rule.UnitCommand)
		mem.AddCard(c)
	}
	card := func(n int) { step(fmt.Sprintf("git push origin feature/login-%d", n)) }
	card(0)
	step("git push --force origin main")
	step("rm -rf ~/work")
	srv, err := web.New(mem, web.Options{Addr: *addr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "devserve:", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *every > 0 {
		go func() {
			for n := 1; ; n++ {
				select {
				case <-ctx.Done():
					return
				case <-time.After(*every):
					card(n)
				}
			}
		}()
	}
	hs := &http.Server{Addr: *addr, Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
		hs.Shutdown(context.Background())
	}()
	fmt.Println("open", srv.LoginURL())
	if err := hs.ListenAndServe(); err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "devserve:", err)
		os.Exit(1)
	}
}
