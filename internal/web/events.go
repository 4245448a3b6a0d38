package web

import (
	"fmt"
	"net/http"
	"time"
)

// heartbeat keeps an idle event stream open through proxies and lets the
// server notice a closed browser.
const heartbeat = 20 * time.Second

// stoppingEvent tells the page that sayso serve stops.
const stoppingEvent = "event: stopping\ndata: stopped\n\n"

// events streams "cards" events: each tells the page to fetch the cards
// again; and "stopping" as sayso serve stops, when every card ends. The
// stream carries no card itself.
func (s *Server) events(w http.ResponseWriter, r *http.Request, session string) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	ctx := r.Context()
	changed := s.backend.WatchCards(ctx)
	send := func(text string) bool {
		if _, err := fmt.Fprint(w, text); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: 2000\nevent: ready\ndata: ready\n\n") {
		return
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			select {
			case <-s.done: // stopping, and the request ended with it
				send(stoppingEvent)
			default:
			}
			return
		case <-s.done:
			// sayso serve stops: every card ends with it, each hook told
			// so. The page shows them over at once.
			send(stoppingEvent)
			return
		case _, ok := <-changed:
			if !ok {
				return
			}
			if !s.person.valid(session, s.now()) || !send("event: cards\ndata: changed\n\n") {
				return
			}
		case <-tick.C:
			if !s.person.valid(session, s.now()) || !send(": still here\n\n") {
				return
			}
		}
	}
}
