package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/web"
)

// Config is what sayso serve starts the gateway with.
type Config struct {
	// Decider decides the steps; its DB is the gateway's store. New sets
	// its Cards.
	Decider *Decider
	// Guard wraps the decider for each client's hook: the pin check.
	Guard Guard
	// Addr is where the page and the API are served: 127.0.0.1:PORT.
	Addr string
	// CardTimeout caps how long a card waits for the person; 0 is as long
	// as its client waits for the hook.
	CardTimeout time.Duration
	// Waits is how long agent's client waits for its hook on event: the
	// timeout sayso install wrote (client.Waits); nil is client.HookTimeout.
	Waits func(agent, event string) time.Duration
	// Notify is told of each new card, when set.
	Notify func(card.Card)
	// Now is the clock of the page and the cards; nil is the wall clock.
	Now func() time.Time
	// Enroller pins the passkeys the person enrols on the page; nil
	// refuses every enrolment.
	Enroller web.Enroller
}

// Gateway is sayso serve's long-lived process: the hooks' socket, the
// person's page and the hosts' API over one store and one set of cards.
type Gateway struct {
	Decider *Decider
	Cards   *Cards
	Page    *web.Server
	API     *API

	guard Guard
}

// New wires the gateway. It serves nothing until Serve.
func New(c Config) (*Gateway, error) {
	d := c.Decider
	if d == nil || d.DB == nil {
		return nil, errors.New("gateway: no decider over a store")
	}
	if d.Forwarders == nil {
		d.Forwarders = &Forwarders{}
	}
	// The gateway decides every step of every session for as long as it
	// runs: the store keeps its statements prepared rather than parsing
	// each again for each step.
	d.DB.KeepStatements()
	d.Cards = &Cards{DB: d.DB, Timeout: c.CardTimeout, Waits: c.Waits, Page: "http://" + c.Addr + "/", Now: c.Now, Notify: c.Notify}
	page, err := web.New(&Backend{DB: d.DB, Waiting: d.Cards, ConfigDir: d.ConfigDir}, web.Options{Addr: c.Addr, Now: c.Now, Warnings: d.warnings, Logins: logins{d.DB}, Enroller: c.Enroller})
	if err != nil {
		return nil, err
	}
	g := &Gateway{Decider: d, Cards: d.Cards, Page: page, guard: c.Guard}
	g.API = &API{Decider: d, Addr: c.Addr}
	return g, nil
}

// Handle answers the hooks' socket requests.
func (g *Gateway) Handle() Handle { return g.Decider.Handle(g.guard) }

// ServeHTTP routes /api/ to the hosts' API and everything else to the
// person's page.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/api/") {
		g.API.ServeHTTP(w, r)
		return
	}
	g.Page.ServeHTTP(w, r)
}

// Listeners are where sayso serve answers: the hooks' socket (steps and
// their events only), the person's socket (a login link for the person's
// CLI; nil serves none) and the page and the API on loopback TCP.
type Listeners struct {
	Hooks, Person, Page net.Listener
}

// Serve answers on ls until ctx is done or one of them fails, then shuts
// them all down.
func (g *Gateway) Serve(ctx context.Context, ls Listeners) error {
	socket, tcp := ls.Hooks, ls.Page
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g.API.base = ctx
	srv := &http.Server{Handler: g, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 3)
	hooksDone := make(chan struct{})
	go func() {
		defer close(hooksDone)
		errc <- ServeSocket(ctx, socket, g.Handle())
	}()
	if ls.Person != nil {
		go func() { errc <- ServePerson(ctx, ls.Person, g.Page.LoginURL, g.Page.EnrolURL) }()
	}
	go func() {
		if err := srv.Serve(tcp); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errc <- fmt.Errorf("serve the page: %w", err)
			return
		}
		errc <- nil
	}()
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	// The page first: its event streams tell each tab that sayso serve
	// stops, before the requests' context ends.
	g.Page.Close()
	cancel()
	// The steps waiting for the person end now, each told that sayso
	// serve stopped; a step that comes to wait from now on is denied
	// with that reason. The decisions under way finish, and are kept
	// while the store is still open.
	cardsDone := g.Cards.stop()
	shut, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	_ = srv.Shutdown(shut)
	socket.Close()
	<-hooksDone // the hooks answered
	if !wait(g.API.deciding.close(), 5*time.Second) {
		slog.Warn("hosts' steps still being decided as sayso serve stopped")
	}
	if !wait(cardsDone, 5*time.Second) {
		slog.Warn("cards still waiting as sayso serve stopped")
	}
	if ls.Person != nil {
		ls.Person.Close()
	}
	return err
}
