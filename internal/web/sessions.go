package web

import (
	"net/http"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/policy"
)

var modes = []policy.Mode{policy.ModeAsk, policy.ModeAuto, policy.ModeAutopilot}

// sessionNames names every session and task as the page shows them: agent
// · project · started, and a task "task of" its parent. Two that would
// read alike are told apart by the start of their IDs.
func sessionNames(list []Session) map[string]string {
	names := map[string]string{}
	for _, s := range list {
		names[s.ID] = sessionName(s.Agent, s.Cwd, s.Created)
		for _, t := range s.Tasks {
			names[t.ID] = sessionName(t.Agent, "", t.Created) + " · task of " + sessionName("", s.Cwd, s.Created)
		}
	}
	seen := map[string]int{}
	for _, n := range names {
		seen[n]++
	}
	for id, n := range names {
		if seen[n] > 1 {
			short := id
			if len(short) > 8 {
				short = short[:8]
			}
			names[id] = n + " · " + short
		}
	}
	return names
}

// withFolders fills in the folder of a session the backend knows none
// for: the folder its waiting card runs in.
func withFolders(list []Session, cards []card.Card) {
	cwd := map[string]string{}
	for _, c := range cards {
		if !c.Answered && c.Cwd != "" {
			cwd[c.Session] = c.Cwd
		}
	}
	for i := range list {
		if list[i].Cwd == "" {
			list[i].Cwd = cwd[list[i].ID]
		}
	}
}

func (s *Server) sessionsPage(w http.ResponseWriter, r *http.Request, session string) {
	all, err := s.backend.Sessions(r.Context())
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
	for _, c := range cards {
		if !c.Answered {
			waiting[c.Session]++
		}
	}
	withFolders(all, cards)
	names := sessionNames(all)
	// Ended sessions are hidden until asked for; one with a card waiting
	// is live whatever it said.
	showEnded := r.URL.Query().Get("ended") == "1"
	list, ended := all[:0:0], 0
	for _, ss := range all {
		if ss.Ended && waiting[ss.ID] == 0 {
			ended++
			if !showEnded {
				continue
			}
		}
		list = append(list, ss)
	}
	s.render(w, r, http.StatusOK, "sessions", session, view{Title: "Sessions", Nav: "sessions", Sessions: list, Modes: modes, Waiting: waiting,
		Names: names, ShowEnded: showEnded, EndedCount: ended})
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
