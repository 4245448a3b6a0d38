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
	names := map[string]string{}
	for _, ss := range list {
		names[ss.ID] = sessionName(ss.Agent, ss.Cwd, ss.Created)
		for _, t := range ss.Tasks {
			names[t.ID] = "task of " + names[ss.ID]
		}
	}
	s.render(w, r, http.StatusOK, "leases", session, view{Names: names, Title: "Leases", Nav: "leases", Leases: leases, Sessions: list, Categories: LeaseCategories(),
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
