package web

import (
	"net/http"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
)

func (s *Server) cardViews(r *http.Request) ([]cardView, error) {
	cards, err := s.backend.Cards(r.Context())
	if err != nil {
		return nil, err
	}
	started := map[string]time.Time{}
	if list, err := s.backend.Sessions(r.Context()); err == nil {
		for _, ss := range list {
			started[ss.ID] = ss.Created
			for _, t := range ss.Tasks {
				started[t.ID] = t.Created
			}
		}
	}
	out := make([]cardView, 0, len(cards))
	for _, c := range cards {
		if !c.Answered {
			out = append(out, newCardView(c, started[c.Session]))
		}
	}
	return out, nil
}

// cardsPage renders the waiting cards from the backend, so that they
// survive a reload.
func (s *Server) cardsPage(w http.ResponseWriter, r *http.Request, session string) {
	cards, err := s.cardViews(r)
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	s.render(w, r, http.StatusOK, "cards", session, view{Title: "Cards", Nav: "cards", Cards: cards})
}

// cardsFragment renders only the list of cards, for the page to swap in
// when the event stream says the cards changed.
func (s *Server) cardsFragment(w http.ResponseWriter, r *http.Request, session string) {
	cards, err := s.cardViews(r)
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	s.execute(w, r, http.StatusOK, "cards", "cards", session, view{Cards: cards})
}

// answer answers a card. Only the answer's name, and with a deny the
// person's message to the agent, are read from the form: "Always allow"
// keeps the card's own offer, never a rule the form names. An allow of a
// severe, ceiling or never step needs its confirm (confirm.go): without
// a good one it is refused and the refusal gives one.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, session string) {
	ctx := r.Context()
	a, err := card.ParseAnswer(r.PostForm.Get("answer"))
	if err != nil {
		s.fail(w, r, session, http.StatusBadRequest, "refused: unknown answer; nothing was kept")
		return
	}
	c, err := s.backend.Card(ctx, r.PathValue("id"))
	if err == nil {
		err = c.Check(a, s.now())
	}
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	if c.NeedsConfirm(a) && !s.confirmOK(r, session, c.ID, a, r.PostForm.Get(confirmField)) {
		w.Header().Set(ConfirmHeader, s.confirmFor(r, session, c.ID, a))
		s.fail(w, r, session, http.StatusPreconditionRequired, "refused: a "+badgeOf(c.Classes).Label+" step is allowed only once confirmed: press its Allow button again, after a moment, to confirm; nothing was allowed")
		return
	}
	message := a.Message(r.PostForm.Get("message"))
	if _, err := s.backend.Answer(ctx, c.ID, a, message); err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	back(w, r, "/")
}
