package web

import (
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

func (s *Server) leasesPage(w http.ResponseWriter, r *http.Request, session string) {
	ctx := r.Context()
	leases, err := s.backend.Leases(ctx)
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	list, err := s.backend.Sessions(ctx)
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	if cards, err := s.backend.Cards(ctx); err == nil {
		withFolders(list, cards)
	}
	names := sessionNames(list)
	// The picker offers the live sessions only: no step of an ended one
	// could use a lease.
	var live []Session
	for _, ss := range list {
		if !ss.Ended {
			live = append(live, ss)
		}
	}
	s.render(w, r, http.StatusOK, "leases", session, view{Names: names, Title: "Leases", Nav: "leases", Leases: leases, Sessions: live, Categories: LeaseCategories(),
		Grant: Grant{Session: r.URL.Query().Get("session"), Cwd: r.URL.Query().Get("cwd"), Category: r.URL.Query().Get("category")}})
}

func (s *Server) grantLease(w http.ResponseWriter, r *http.Request, session string) {
	f := r.PostForm
	g := Grant{Category: f.Get("category"), Session: f.Get("session"), Cwd: f.Get("cwd")}
	minutes, err := strconv.Atoi(f.Get("minutes"))
	g.TTL = time.Duration(minutes) * time.Minute
	switch {
	case !slices.Contains(LeaseCategories(), g.Category):
		s.fail(w, r, session, http.StatusBadRequest, "refused: a lease is granted only for one of "+join(LeaseCategories()))
		return
	case g.Session == "":
		s.fail(w, r, session, http.StatusBadRequest, "refused: choose the session the lease is for")
		return
	case !filepath.IsAbs(g.Cwd) || filepath.Clean(g.Cwd) != g.Cwd:
		s.fail(w, r, session, http.StatusBadRequest, "refused: the folder must be an absolute, clean path")
		return
	case err != nil || g.TTL <= 0 || g.TTL > MaxLeaseTTL:
		s.fail(w, r, session, http.StatusBadRequest, "refused: a lease lives 1 to 15 minutes")
		return
	}
	if ended, err := s.ended(r, g.Session); err != nil {
		s.backendFail(w, r, session, err)
		return
	} else if ended {
		s.fail(w, r, session, http.StatusBadRequest, "refused: that session has ended, so no step of it could use a lease; choose a live one")
		return
	}
	if _, err := s.backend.GrantLease(r.Context(), g); err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	back(w, r, "/leases")
}

func (s *Server) revokeLease(w http.ResponseWriter, r *http.Request, session string) {
	if err := s.backend.RevokeLease(r.Context(), r.PathValue("id")); err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	back(w, r, "/leases")
}

// ended reports whether id names a session (or a task of one) that has
// ended.
func (s *Server) ended(r *http.Request, id string) (bool, error) {
	list, err := s.backend.Sessions(r.Context())
	if err != nil {
		return false, err
	}
	for _, ss := range list {
		if ss.ID == id {
			return ss.Ended, nil
		}
		for _, t := range ss.Tasks {
			if t.ID == id {
				return ss.Ended, nil
			}
		}
	}
	return false, nil
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
