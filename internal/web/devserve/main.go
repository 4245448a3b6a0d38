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

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/web"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7345", "loopback address to serve on")
	every := flag.Duration("card", 0, "add a card this often (0: never)")
	flag.Parse()
	mem := web.NewMemory(nil)
	mem.AddSession(web.Session{ID: "s1", Agent: "claude", Mode: policy.ModeAuto, Turns: 3, Tasks: []web.Task{{ID: "s1-t1", Agent: "claude", Mode: policy.ModeAuto}}})
	mem.AddSession(web.Session{ID: "s2", Agent: "codex", Mode: policy.ModeAsk, Held: true, HeldWhy: "the circuit breaker tripped: 3 cards declined within 10m0s"})
	card := func(n int) {
		mem.AddCard(web.Card{
			Session: "s1", Agent: "claude", Tool: "Bash", Step: fmt.Sprintf("git push origin feature/login-%d", n), Cwd: "/home/you/proj",
			Mode: policy.ModeAuto, Classes: []string{"remote-write"}, Reason: "remote-write is a ceiling: no mode lets it through by itself",
			Offer:   []rule.Rule{{Tool: "Bash", Pattern: "git push origin feature/*", Cwd: "/home/you/proj"}},
			Expires: time.Now().Add(2 * time.Minute),
		})
	}
	card(0)
	mem.AddCard(web.Card{
		Session: "s1", Agent: "claude", Tool: "Bash", Step: "git push --force origin main", Cwd: "/home/you/proj",
		Mode: policy.ModeAuto, Classes: []string{"force-remote"}, Reason: "force-remote is severe: it rewrites what others see",
		NoOffer: `force-remote is severe: no "always" is ever offered for it`, Expires: time.Now().Add(2 * time.Minute),
	})
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
