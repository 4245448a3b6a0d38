package web

import (
	"net/http"

	"github.com/sayso-dev/sayso/internal/policy"
)

var modes = []policy.Mode{policy.ModeAsk, policy.ModeAuto, policy.ModeAutopilot}

func (s *Server) sessionsPage(w http.ResponseWriter, r *http.Request, session string) {
	list, err := s.backend.Sessions(r.Context())
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	waiting := map[string]int{}
	cards, err := s.backend.Cards(r.Context())
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	cwd := map[string]string{}
	for _, c := range cards {
		if !c.Answered {
			waiting[c.Session]++
			cwd[c.Session] = c.Cwd
		}
	}
	for i := range list {
		if list[i].Cwd == "" {
			list[i].Cwd = cwd[list[i].ID] // the folder its waiting card runs in
		}
	}
	s.render(w, r, http.StatusOK, "sessions", session, view{Title: "Sessions", Nav: "sessions", Sessions: list, Modes: modes, Waiting: waiting})
}

func (s *Server) setMode(w http.ResponseWriter, r *http.Request, session string) {
	m, err := policy.ParseMode(r.PostForm.Get("mode"))
	if err != nil {
		s.fail(w, r, session, http.StatusBadRequest, "refused: "+err.Error())
		return
	}
	id := r.PathValue("id")
	if err := s.backend.SetMode(r.Context(), id, m); err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	back(w, r, "/sessions#session-"+id)
}

func (s *Server) release(w http.ResponseWriter, r *http.Request, session string) {
	id := r.PathValue("id")
	if err := s.backend.Release(r.Context(), id); err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	back(w, r, "/sessions#session-"+id)
}
